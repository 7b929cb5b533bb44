"""``np.put(a, ind, v, mode='raise')`` and ``a.put(ind, v, mode='raise')``.

``a.flat[ind] = v`` with ``v`` repeated (``put_algorithms``, NumPy's algorithm): a
scalar ``ind`` or ``v`` is a one-element array, ``v`` is cast to ``a``'s dtype as
NumPy casts it (a Python number must fit), ``mode="wrap"`` and ``"clip"`` map the
indices into the array."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import put_algorithms as hp
from .take import take_mode
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register

I = T.INT64
_MODES = {"raise": 0, "wrap": 1, "clip": 2}
_PARAMS = ("a", "ind", "v", "mode")


def _mode(call):
    return take_mode(call, position=3)


def _bind(args, kwargs):
    bound = bind_arguments("np.put", _PARAMS, args, kwargs)
    if len(args) > 4 or not {"a", "ind", "v"} <= set(bound):
        raise Incompatible("np.put(a, ind, v, mode='raise')")
    return bound


class Put(CallTemplate):
    paths = ("numpy.put",)

    def typer(self, inf, call, args, kwargs):
        b = _bind(args, kwargs)
        a, ind, v = b["a"], b["ind"], b["v"]
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"np.put() into {a}")
        if a.readonly:
            raise Incompatible("np.put() into a read-only array")
        it = ind.dtype if isinstance(ind, T.ArrayType) else ind
        if not (isinstance(it, T.Scalar) and (it.is_int or it.is_bool) and it != T.UINT64):
            raise Incompatible(f"np.put() with indices of type {ind}")
        vt = v.dtype if isinstance(v, T.ArrayType) else v
        if not isinstance(vt, T.Scalar) or (vt.is_complex and not a.dtype.is_complex):
            raise Incompatible(f"np.put() of values of type {v} into {a}")
        if _mode(call) not in _MODES:
            raise Incompatible("np.put(): mode must be 'raise', 'wrap' or 'clip'")
        node = _bind(call.args, call.kwargs)["v"]
        call.plan = isinstance(v, T.Scalar) and not inf.is_strong(node)   # a Python number
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from .elements import element_value, flat_store_value
        from ..arrays.creation import allocate
        b = _bind(args, kwargs)
        a, ind, v = L.let(b["a"]), b["ind"], b["v"]
        if not isinstance(ind.type, T.ArrayType):
            arr = allocate(L, T.ArrayType(I, 1, "C"), [C(1, I)])
            L.emit(N.Store(array=arr, indices=[C(0, I)],
                           value=element_value(L, ind, I)))
            ind = arr
        if not isinstance(v.type, T.ArrayType):     # a Python number must fit
            arr = allocate(L, T.ArrayType(a.type.dtype, 1, "C"), [C(1, I)])
            L.emit(N.Store(array=arr, indices=[C(0, I)], value=flat_store_value(
                L, v, a.type.dtype, python=bool(call.plan))))
            v = arr
        L.call_helper(hp.put, [a, ind, v, C(_MODES[_mode(call)], I)])
        return C(None, T.NONE)


class PutMethod(Put):
    paths = ()


register(Put())
METHODS = {"put": PutMethod()}
