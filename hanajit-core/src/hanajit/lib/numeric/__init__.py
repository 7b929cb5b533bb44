"""NumPy's elementwise number functions beyond the ufunc core: operator ufuncs by name,
sign and rounding, ``nan_to_num``, ``isclose``, ``interp``."""
