"""Random numbers drawn from NumPy's and Python's own generators, bit for bit: NumPy's
Generator methods, the legacy global functions, Python's ``random`` module, and the
algorithms ported from their C sources."""
