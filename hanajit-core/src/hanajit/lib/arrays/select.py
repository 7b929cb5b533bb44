"""``np.select(condlist, choicelist, default=0)`` as NumPy computes it: the
result's dtype is ``np.result_type`` of the choices and the default (Python
ints, floats and complexes weak, NEP 50; a Python bool is a bool array), every
condition and choice broadcast together, and where several conditions hold the
first one's choice (NumPy burns the choices onto ``np.full(shape, default)`` with
``np.copyto`` in reverse order).  Each element is one select over the
conditions, the values cast as NumPy's copies cast them: a Python int default
wraps into any integer dtype (``np.full``'s unsafe cast), a Python int choice
into a signed one (``copyto``'s same-kind cast of an int64).

Compiled: ``condlist`` and ``choicelist`` tuple or list displays (or tuple
values) of one length, of boolean arrays or bools and of numbers or arrays.
Conditions that are not boolean (NumPy's TypeError), lists of different or no
length (ValueError), a Python int choice with an unsigned result (NumPy's
TypeError: no same-kind cast from int64) and Python numbers inside a tuple
value (not known to be weak) fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register

_PARAMS = ("condlist", "choicelist", "default")
_WEAK = (T.INT64, T.FLOAT64, T.COMPLEX128)


def _items(t, what):
    if not isinstance(t, T.TupleType):
        raise Incompatible(f"np.select() {what} of {t} (a list or tuple display)")
    return list(t.items)


def _weak_items(inf, node, items) -> list:
    """Which items of the display ``node`` (types ``items``) are Python numbers
    that NumPy keeps weak: ints, floats and complexes, not bools."""
    out = []
    for k, t in enumerate(items):
        if isinstance(t, T.ArrayType) or t not in _WEAK:
            out.append(False)
        elif isinstance(node, N.MakeTuple):
            out.append(inf.weak(node.items[k]))
        elif isinstance(node, N.Const) and isinstance(node.value, tuple):
            out.append(type(node.value[k]) is not bool)
        else:
            raise Incompatible("np.select() choicelist of a tuple value holding Python "
                               "numbers (a list or tuple display is needed)")
    return out


def result_type(types: list, weak: list) -> T.Scalar:
    """``np.result_type`` of arrays and scalars ``types``, those marked ``weak``
    Python numbers (NEP 50): the others promoted, then each weak one adapting."""
    strong = [ew.elem_type(t) for t, w in zip(types, weak) if not w]
    weaks = [t for t, w in zip(types, weak) if w]
    if not strong:
        strong, weaks = weaks[:1], weaks[1:]
    dt = strong[0]
    for t in strong[1:]:
        dt = promote(dt, t) if dt != t else dt
    for t in weaks:
        dt = ew.adapt_weak(dt, t)
    return dt


def _cast(L, v, t):
    """A value stored into the result of dtype ``t``: an integer wraps (only a
    Python int can be wider than ``t``), else NumPy's cast of arrays."""
    from ..indexing.elements import array_cast
    src = v.type
    if src == t:
        return v
    if t.is_int and src.is_int:
        return ops.convert_wrap(v, t)
    return array_cast(L, v, t)


@register
class Select(CallTemplate):
    paths = ("numpy.select",)

    def typer(self, inf, call, args, kwargs):
        types = bind_arguments("np.select", _PARAMS, args, kwargs)
        nodes = bind_arguments("np.select", _PARAMS, call.args, call.kwargs)
        if "condlist" not in types or "choicelist" not in types:
            raise Incompatible("np.select(condlist, choicelist, default=0)")
        conds = _items(types["condlist"], "condlist")
        choices = _items(types["choicelist"], "choicelist")
        if len(conds) != len(choices):
            raise Incompatible("np.select(): list of cases must be same length as list "
                               "of conditions (NumPy's ValueError)")
        if not conds:
            raise Incompatible("np.select() with an empty condition list (NumPy's "
                               "ValueError)")
        for k, c in enumerate(conds):
            if ew.elem_type(c) != T.BOOL:
                raise Incompatible(f"np.select(): invalid entry {k} in condlist: should be "
                                   "boolean (NumPy's TypeError)")
        default = types.get("default", T.INT64)
        for t in choices + [default]:
            if not isinstance(ew.elem_type(t), T.Scalar):
                raise Incompatible(f"np.select() choice of {t}")
        weak = _weak_items(inf, nodes["choicelist"], choices)
        dnode = nodes.get("default")
        weak.append(not isinstance(default, T.ArrayType) and default in _WEAK and (
            dnode is None or inf.weak(dnode)))
        dt = result_type(choices + [default], weak)
        if not dt.is_signed and dt.is_int and any(
                w and t == T.INT64 for t, w in zip(choices, weak)):
            raise Incompatible(f"np.select(): a Python int choice with a result of {dt} "
                               "(NumPy's TypeError: no same-kind cast from int64)")
        ndim = ew.broadcast_ndim(*conds, *choices, default)
        return T.ArrayType(dt, ndim, "C")

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.select", _PARAMS, args, kwargs)
        n = len(b["condlist"].type.items)
        seqs = []
        for key in ("condlist", "choicelist"):
            tup = L.let(b[key])
            seqs.append([L.let(C(tup.value[k], t) if isinstance(tup, N.Const)
                               else N.TupleGet(tup, k, t))
                         for k, t in enumerate(tup.type.items)])
        default = b.get("default", C(0, T.INT64))
        rt = call.type
        t = rt.dtype

        def element(*vals):
            out = _cast(L, vals[-1], t)
            for k in reversed(range(n)):
                ch = _cast(L, vals[n + k], t)
                out = L.let(N.Select(ops.truth(L, vals[k]), ch, out, t))
            return out
        vals = seqs[0] + seqs[1] + [default]
        if rt.ndim:
            return ew.materialize(L, ew.lift(L, vals, rt, element))
        from .creation import allocate        # (all scalars: a 0-d array)
        out = allocate(L, rt, [])
        L.emit(N.Store(array=out, indices=[], value=element(*(L.let(v) for v in vals))))
        return out
