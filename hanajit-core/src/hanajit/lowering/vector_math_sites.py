"""Where a math call may get vector variants (a mixin of ``llvm.FunctionLowering``).

A math call carries its vector variants (``vector-function-abi-variant``,
docs/vector-math.md) only where LLVM's loop vectoriser may turn it into calls of
them: in the body of an innermost loop without early exits -- no ``break``,
``return`` or ``raise``, no call that can raise, no loop inside.  Elsewhere the
attribute would only let the SLP vectoriser pack two scalar calls
(``log(x) * 3 + log(y) * 5``, or two in the body of a loop with a ``break``) into
one vector call, whose last bits are not the C library's.  An always-inlined
helper's own straight-line calls keep them: they land in the caller's loops.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir.walk import stmt_exprs, walk_expr, walk_stmts

_EXITS = (N.Break, N.Return, N.Raise, N.Loop, N.ForCount,    # (ParallelFor too)
          N.Try, N.Reraise)


class VectorMathSites:
    """``self.vector_loops``: per enclosing loop being lowered, whether LLVM may
    vectorise it (``vectorisable`` of its body, False for ``N.Loop``)."""

    def vectorisable(self, body) -> bool:
        """May LLVM's loop vectoriser take a counted loop with this body?"""
        functions = self.m.module.functions
        for s in walk_stmts(body):
            if isinstance(s, _EXITS):
                return False
            for e in stmt_exprs(s):
                for x in walk_expr(e):
                    if isinstance(x, N.Call) and getattr(
                            functions.get(x.func), "can_raise", True):
                        return False
        return True

    def vector_math_here(self) -> bool:
        if self.vector_loops:
            return self.vector_loops[-1]
        return bool(getattr(self.fn, "inline", False))
