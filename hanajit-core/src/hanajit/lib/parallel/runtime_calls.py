"""The helper callables that a parallel loop's generated code calls (see
``hanajit.frontend.parallel``); typed and lowered by ``hanajit.lib.parallel.regions``.
The generated code exists only in compiled functions (the interpreter runs the
user's own loop), so these markers are never called from Python."""


class _Prim:
    def __init__(self, name):
        self.__name__ = self.__qualname__ = name

    def __call__(self, *args):
        raise RuntimeError(f"{self.__name__} is only called by compiled code")

    def __repr__(self):
        return f"<hanajit parallel helper {self.__name__}>"


(prange_len, overlap, num_chunks, partials, array_partials_add, array_partials_mul,
 ident_add, ident_mul, ident_min, ident_max, stream_words, chunk_stream,
 stream_close) = (_Prim(n) for n in (
    "prange_len", "overlap", "num_chunks", "partials", "array_partials_add",
    "array_partials_mul", "ident_add", "ident_mul", "ident_min", "ident_max",
    "stream_words", "chunk_stream", "stream_close"))


def chunk_lo(k, T, n):
    """First iteration of chunk ``k`` of ``T`` over ``n`` iterations (the first
    ``n % T`` chunks take one more)."""
    q = n // T
    r = n % T
    return k * q + min(k, r)
