"""Which zero NumPy's ``np.max``/``np.min`` of a whole float array returns when
the extreme is a zero: :func:`numpy_zero` recomputes it in NumPy's own loop
(``minmax_algorithms``), with the lanes :func:`simd_model` finds the
installed NumPy to keep on this host."""
from __future__ import annotations

import functools

from ...ir import nodes as N
from ...ir import types as T
from ..python.operators import C

I = T.INT64


def numpy_zero(red, L, arr, v, st):
    """``v``, the extreme (``red``: min or max) of the whole array ``arr``, or
    when it is zero the zero NumPy's loop picks (``minmax_algorithms``): a 1-D
    array or a C-contiguous one is
    one lane of NumPy's reduce, contiguous or strided (its stride decides
    when it runs).  Other layouts keep the later zero."""
    from . import minmax_algorithms as hm
    from .shape import reshape_view
    t = arr.type
    lanes, low_from = simd_model(st.name)
    if not lanes or not (t.ndim == 1 or t.layout == "C"):
        return v
    out = L.temp(st, "extreme")
    L.emit(N.Assign(target=out, value=v))
    big = C(red.name == "max", T.BOOL)

    def fix():
        arr1 = L.let(arr)
        lane = arr1 if t.ndim == 1 else L.let(reshape_view(L, arr1, [C(-1, I)],
                                                           t.copy(ndim=1)))
        # (the scans back stop at the lanes' last zeros: early where zeros are
        # many; with zeros of one sign any is NumPy's, and they find one of them)
        step = N.ArrayAttr(lane, "stride", 0, I)
        contig = N.Cmp("eq", step, C(st.bits // 8, I), T.BOOL)
        s1, v1 = L.sub_block(lambda: L.call_helper(
            hm.contiguous, [lane, big, C(lanes, I), C(low_from, I)]))
        s2, v2 = L.sub_block(lambda: L.call_helper(hm.strided, [lane, big]))
        L.emit(N.If(
            cond=contig, then=s1 + [N.Assign(target=out, value=v1)],
            orelse=s2 + [N.Assign(target=out, value=v2)]))
    stmts, _ = L.sub_block(fix)
    zero = N.Cmp("eq", N.Var(out, st), C(0.0, st), T.BOOL)
    L.emit(N.If(cond=zero, then=stmts, orelse=[]))
    return N.Var(out, st)


def simd_lanes(dtype: str) -> int:
    """How many lanes of ``dtype`` the installed NumPy's ``maximum.reduce`` keeps
    on this host (``simd_model``); 0 when no model fits."""
    return simd_model(dtype)[0]


NEVER = 1 << 40         # ``low_from`` of a fold that never takes the lower lane first


@functools.lru_cache(maxsize=None)
def simd_model(dtype: str) -> tuple:
    """``(W, low_from)``: the lanes of ``dtype`` the installed NumPy's
    ``maximum.reduce`` keeps on this host and from which half width (bytes) its
    final fold takes the lower lane first -- the loop with which
    ``minmax_algorithms`` picks NumPy's zero, contiguous and strided, for zeros
    among negative values (``np.max``; positive ones for ``np.min``: where the
    lanes' order shows) of many lengths; ``(0, NEVER)`` when no model does (then
    the later zero is kept).  AVX2 hosts fold ``pick(lower, upper)`` throughout;
    AVX-512 ones (GCC's ``_mm512_reduce_max_pd``) take 256- and 128-bit halves
    the other way round (``low_from`` 16)."""
    import numpy as np
    from . import minmax_algorithms as hm
    rng = np.random.default_rng(22)
    cases = []
    for k in range(24):
        n = int(rng.integers(1, 160))
        p = [0.1, 0.1, 0.8] if k % 2 else None
        cases += [(np.max, True, np.array(rng.choice([0.0, -0.0, -1.0], n, p=p), dtype)),
                  (np.min, False, np.array(rng.choice([0.0, -0.0, 1.0], n, p=p), dtype))]
    if not all(np.signbit(f(np.repeat(a, 2)[::2])) ==
               np.signbit(hm.strided(np.repeat(a, 2)[::2], big)) for f, big, a in cases):
        return 0, NEVER
    for low_from in (NEVER, 16):
        for lanes in (2, 4, 8, 16, 32):
            if all(np.signbit(f(a)) == np.signbit(hm.contiguous(a, big, lanes, low_from))
                   for f, big, a in cases):
                return lanes, low_from
    return 0, NEVER


