"""The array core: sizes and allocation, attributes, methods, shape changes,
whole-array expressions, ufuncs and reductions, and arrays built from others."""
