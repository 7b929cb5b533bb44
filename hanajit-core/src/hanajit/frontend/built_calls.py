"""NumPy calls the frontend builds as statements of their own loops, placed
before the statement holding the call: ``np.piecewise`` (``piecewise_calls``)
and ``np.fromiter`` (``fromiter_calls``); and ``print`` (``print_calls``), one call
whose layout the frontend reads from the call's arguments."""
from __future__ import annotations

from . import fromiter_calls, piecewise_calls, print_calls


def build(b, obj, e):
    """The value of the call ``e`` of ``obj`` for the builder ``b`` when it is one
    of those calls, else None."""
    if piecewise_calls.is_piecewise(obj):
        return piecewise_calls.build(b, e)
    if fromiter_calls.is_fromiter(obj):
        return fromiter_calls.build(b, e)
    if print_calls.is_print(obj):
        return print_calls.build(b, e)
    return None
