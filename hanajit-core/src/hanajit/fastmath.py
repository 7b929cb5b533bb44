"""``@jit(fastmath=...)``: which LLVM fast-math flags the user's float operations get.

``fastmath=True`` means ``reassoc nsz arcp contract afn``: additions and
multiplications may be reordered (vectorised reductions), the sign of a zero
result may differ, ``x / c`` may become ``x * (1 / c)``, ``a * b + c`` may become
one fused multiply-add, and math functions may use approximations.  It does *not*
include ``nnan`` or ``ninf``: NaN and infinity still propagate as IEEE says, so
``x != x`` and ``math.isinf`` keep working.  Pass a set of flag names to choose
(``{"nnan", "ninf", ...}`` or ``{"fast"}`` for all of them, NaN/inf assumptions
included: then a NaN or infinite input gives an undefined result).

The flags apply to float operations of the user's functions only; hanajit's own
helpers that implement Python semantics (float ``//`` and ``%``, ``**``, complex
division) stay exact.  Integer arithmetic is never affected.
"""
from __future__ import annotations

DEFAULT = ("reassoc", "nsz", "arcp", "contract", "afn")
KNOWN = frozenset(("fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"))


def flags(option) -> tuple:
    """The flag tuple for a ``fastmath`` option value (ValueError when unknown)."""
    if option is None or option is False:
        return ()
    if option is True:
        return DEFAULT
    if isinstance(option, str):
        option = {option}
    try:
        names = set(option)
    except TypeError:
        raise ValueError(f"fastmath={option!r}: use True, False or a set of flag names "
                         f"from {sorted(KNOWN)}") from None
    bad = names - KNOWN
    if bad:
        raise ValueError(f"fastmath: unknown flag(s) {sorted(bad)}; known: {sorted(KNOWN)}")
    return tuple(sorted(names))
