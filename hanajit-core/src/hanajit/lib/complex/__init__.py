"""Complex numbers as NumPy computes them: powers, the rounding of products, the
complex math functions, ``np.angle``."""
