"""``np.bitwise_count(x)``: NumPy's ufunc of integers (booleans through its int8
loop), the number of one bits of ``|x|`` as uint8 -- the absolute value in the
operand's own type, so ``int8(-128)`` counts the bits of ``0x80``.  Its loops
(``ufunc_loops``) refuse floats as NumPy does."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import register
from .ufunc_loops import LoopUfunc


class BitwiseCount(LoopUfunc):
    def __init__(self):
        super().__init__("bitwise_count")

    def element(self, L, xs, outs, k):
        x = xs[0]
        t = x.type
        if t.kind != "u":
            x = L.let(N.Select(N.Cmp("lt", x, C(0, t), T.BOOL),
                               N.BinOp("sub", C(0, t), x, t), x, t))
        return ops.convert_wrap(N.Intrinsic("ctpop", [x], t), outs[0])


register(BitwiseCount())
