"""hanajit's library: how Python builtins, ``math`` and NumPy calls type and lower."""
