"""Python's own semantics: builtins on scalars, operators, the ``math`` module, and the
helpers written in Python that compiled code calls for them."""
