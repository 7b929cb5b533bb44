"""NumPy's own exception for an in-place operator whose result cannot be cast
back (``int_array += 1.5`` is ``np.add(a, 1.5, out=a)`` under same_kind
casting): a ``numpy._core._exceptions._UFuncOutputCastingError``, a
``UFuncTypeError`` and ``TypeError``.  Its constructor takes the ufunc and the
dtypes, not a message, so compiled code raises :class:`UFuncOutputCastingError`,
a subclass built from the message hanajit's runtimes pass (every ``except``
clause that catches NumPy's catches it; its text is NumPy's own ``str``)."""
from __future__ import annotations

import re

import numpy as np


def _numpy_class():
    a = np.zeros(1, np.int64)
    try:
        a += 0.5
    except TypeError as e:
        return type(e)
    return TypeError        # (a NumPy that casts: plain TypeError)


_MESSAGE = re.compile(r"Cannot cast ufunc '(\w+)' output from dtype\('(\w+)'\) to "
                      r"dtype\('(\w+)'\) with casting rule '(\w+)'")


class UFuncOutputCastingError(_numpy_class()):
    """``np.<ufunc>(..., out=a)`` whose result dtype cannot be cast to ``a``'s."""

    def __init__(self, message: str):
        m = _MESSAGE.fullmatch(message)
        if m is None or self.__class__.__mro__[1] is TypeError:
            TypeError.__init__(self, message)
            self._text = message
            return
        ufunc, src, dst, casting = m.groups()
        super().__init__(getattr(np, ufunc), casting, np.dtype(src), np.dtype(dst), 2)
        self._text = None

    def __str__(self):
        return self._text if self._text is not None else super().__str__()


def message(ufunc: str, src, dst) -> str:
    """The text of the error: NumPy's."""
    return (f"Cannot cast ufunc '{ufunc}' output from dtype('{src}') to dtype('{dst}') "
            "with casting rule 'same_kind'")
