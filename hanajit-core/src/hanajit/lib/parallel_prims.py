"""The helper callables that a parallel loop's generated code calls (see
``hanajit.frontend.parallel``); typed and lowered by ``hanajit.lib.parallel``.
Their Python bodies only matter when a region runs in the interpreter."""


class _Prim:
    def __init__(self, name, fn):
        self.__name__ = self.__qualname__ = name
        self._fn = fn

    def __call__(self, *args):
        return self._fn(*args)

    def __repr__(self):
        return f"<hanajit parallel helper {self.__name__}>"


prange_len = _Prim("prange_len", lambda a, b, c: len(range(a, b, c)))
overlap = _Prim("overlap", lambda nw, *arrays: False)
num_chunks = _Prim("num_chunks", lambda n, workers, serial: min(n, 1))
partials = _Prim("partials", lambda n, like: [like] * n)
array_partials_add = _Prim("array_partials_add", lambda n, a: None)
array_partials_mul = _Prim("array_partials_mul", lambda n, a: None)
ident_add = _Prim("ident_add", lambda p: 0)
ident_mul = _Prim("ident_mul", lambda p: 1)
ident_min = _Prim("ident_min", lambda p: float("inf"))
ident_max = _Prim("ident_max", lambda p: float("-inf"))


def chunk_lo(k, T, n):
    """First iteration of chunk ``k`` of ``T`` over ``n`` iterations (the first
    ``n % T`` chunks take one more)."""
    q = n // T
    r = n % T
    return k * q + min(k, r)
