"""Arrays a function reads through a global or closure name (``TABLE[i]``,
``x * WEIGHTS``): the array object the name refers to when the function compiles,
as for every other global (docs/semantics.md), read and written in place.

Compiled code holds the array's data address, shape and strides as constants, so
its elements are live -- what Python stores into the array later is read, and
what compiled code stores into a writeable one Python sees -- where Numba freezes
a read-only copy.  Rebinding the name does not reach compiled code, as for
numbers.  The array is kept alive here for the life of the process (compiled
code points into it), and :func:`kept` lets the boxer give a returned view of
it the array as its base.  Only a target whose code runs in this process has the
address (``Capabilities.host_calls``: the CPU target); other targets and
exporters refuse, and such a function is not written to the disk cache (the
address is this process's: ``cache/deps.py``).
"""
from __future__ import annotations

from ...typing_rules import Incompatible, typeof
from ...ir import nodes as N
from ...ir import types as T

_KEPT: dict = {}            # id -> array: compiled code points into these


def global_type(ctx, obj) -> T.ArrayType:
    """The array type of the global array ``obj``, or Incompatible."""
    t = typeof(obj)
    if not isinstance(t, T.ArrayType):
        dtype = getattr(obj, "dtype", None)
        raise Incompatible(f"a global array of {type(obj).__name__} with dtype {dtype} "
                           "(pass it as an argument)")
    if ctx is None or not ctx.capabilities.host_calls:
        raise Incompatible("a global array on a target whose code does not run in "
                           "this process (pass it as an argument)")
    return t


def is_global_array(obj) -> bool:
    """Is ``obj`` an ndarray (or a subclass) read through a name?"""
    import sys
    np = sys.modules.get("numpy")
    return np is not None and isinstance(obj, np.ndarray)


def lower(ref, t: T.ArrayType) -> N.Expr:
    """The array value of the global array ``ref.obj``: its memory, in place."""
    a = ref.obj
    _KEPT[id(a)] = a
    data = a.__array_interface__["data"][0]
    return N.HostArray("", a.size, t, address=N.Const(data, T.INT64),
                       shape=tuple(int(n) for n in a.shape),
                       strides=tuple(int(s) for s in a.strides))


def kept() -> list:
    """The arrays compiled code points into (the boxer looks among them for the
    owner of a returned view)."""
    return list(_KEPT.values())
