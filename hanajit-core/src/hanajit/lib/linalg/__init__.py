"""Linear algebra: NumPy's own LAPACK and BLAS, products, solve/inv/det, singular
values, ``kron``, ``trapezoid`` and convolution."""
