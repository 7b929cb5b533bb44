"""NumPy functions applied elementwise to arrays (``np.sqrt(a)``, ``np.where``,
``np.clip``, ``np.minimum`` ...): a scalar template lifted over broadcast arrays.

A template marked ``ufunc = True`` types and lowers on scalars; when any argument
is an array, :func:`lift_typer` types it on the element types and
:func:`lift_lower` builds a lazy whose element is the scalar lowering.
"""
from __future__ import annotations

from ... import typing_rules as rules
from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register


class _ElemCall:
    """The call as the scalar template sees it: element types, same arguments.
    Other attributes are the call's own, so what the typer notes on the call
    (``numpy_semantics`` of ``abs``) reaches the lowering."""

    _OWN = frozenset({"_call", "args", "kwargs", "name", "type"})
    elementwise = True            # a loop over arrays (NumPy's loops may differ)

    def __init__(self, call, t):
        object.__setattr__(self, "_call", call)
        self.args = call.args
        self.kwargs = call.kwargs
        self.name = call.name
        self.type = t

    def __getattr__(self, name):
        return getattr(self._call, name)

    def __setattr__(self, name, value):
        if name in self._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self._call, name, value)


def has_array(types) -> bool:
    return any(isinstance(t, T.ArrayType) for t in types)


def lift_typer(tpl, inf, call, args, kwargs):
    for k in getattr(tpl, "scalar_params", ()):     # (``decimals`` of np.round)
        v = kwargs.get(k) if isinstance(k, str) else args[k] if k < len(args) else None
        if isinstance(v, T.ArrayType):
            raise Incompatible(f"{call.name}() with an array as argument {k!r}")
    elems = [ew.elem_type(a) for a in args]
    kw = {k: ew.elem_type(v) for k, v in kwargs.items()}
    t = tpl.typer(inf, _ElemCall(call, None), elems, kw)
    if not isinstance(t, T.Scalar):
        raise Incompatible(f"{call.name}() on arrays")
    return T.ArrayType(t, ew.broadcast_ndim(*args, *kwargs.values()), "C")


def _without_out(call, t):
    """The call seen without its ``out`` argument, of type ``t``."""
    c = _ElemCall(call, t)
    c.kwargs = {k: v for k, v in call.kwargs.items() if k != "out"}
    if getattr(call, "ufunc_out_positional", False):
        c.args = call.args[:-1]
    return c


def takes_out(tpl, args, kwargs) -> bool:
    """Does this call of a ufunc template give an output array: ``out=arr`` (or
    ``out=(arr,)``), or one positional operand more than the ufunc takes?"""
    if not getattr(tpl, "accepts_out", False):      # NumPy ufuncs and np.clip
        return False
    if "out" in kwargs:
        return kwargs["out"] != T.NONE
    n = getattr(tpl, "nargs", None)
    return n is not None and len(args) == n + 1 and isinstance(args[-1], T.ArrayType)


def out_typer(tpl, inf, call, args, kwargs):
    """``ufunc(..., out=arr)``: the value as without ``out``, written into ``arr``
    (which the call returns).  ``arr`` must hold the broadcast result (it is not
    broadcast itself) and take its dtype by NumPy's 'same_kind' casting."""
    kw = {k: v for k, v in kwargs.items() if k != "out"}
    if "out" in kwargs:
        out = kwargs["out"]
    else:
        call.ufunc_out_positional = True
        out, args = args[-1], list(args[:-1])
    if isinstance(out, T.TupleType) and len(out.items) == 1:
        out = out.items[0]
    if not isinstance(out, T.ArrayType):
        raise Incompatible(f"{call.name}() with out= of {out}")
    bare = _without_out(call, None)
    if getattr(tpl, "ufunc", False) and (has_array(args) or has_array(kw.values())):
        value = lift_typer(tpl, inf, bare, args, kw)
    else:
        value = tpl.typer(inf, bare, args, kw)
    dtype = value.dtype if isinstance(value, T.ArrayType) else value
    if not isinstance(dtype, T.Scalar) or not rules.same_kind(dtype, out.dtype):
        raise Incompatible(f"{call.name}() with out= of {out.dtype} (NumPy's "
                           f"'same_kind' rule refuses {dtype})")
    if isinstance(value, T.ArrayType) and value.ndim > out.ndim:
        raise Incompatible(f"{call.name}() with an out= of fewer dimensions than the "
                           "result")
    call.ufunc_value = value
    return out


def out_lower(tpl, L, call, args, kwargs):
    """The value, then stored into ``out`` through :func:`arrays.assign_to_view`
    (NumPy's broadcasting into the output and its overlap buffering)."""
    from ..indexing.elements import assign_to_view
    kw = {k: v for k, v in kwargs.items() if k != "out"}
    if getattr(call, "ufunc_out_positional", False):
        out, args = args[-1], list(args[:-1])
    else:
        out = kwargs["out"]
    if isinstance(out.type, T.TupleType):
        out = N.TupleGet(L.let(out), 0, out.type.items[0])
    out = L.let(out)
    value_t = call.ufunc_value
    bare = _without_out(call, value_t)
    bare.out_array = out             # (product_forms.plain_flag)
    if getattr(tpl, "ufunc", False) and isinstance(value_t, T.ArrayType):
        value = lift_lower(tpl, L, bare, args, kw)
    else:
        value = tpl.lower(L, bare, args, kw)
    t = out.type
    if t.readonly:
        L.emit(N.Raise(exc=ValueError, message="output array is read-only", line=L.line))
        return out
    full = N.ArrayView(out, N.Const(0, T.INT64),
                       [N.ArrayAttr(out, "shape", k, T.INT64) for k in range(t.ndim)],
                       [N.ArrayAttr(out, "stride", k, T.INT64) for k in range(t.ndim)], t)
    assign_to_view(L, full, value)
    return out


def lift_lower(tpl, L, call, args, kwargs):
    rt = call.type
    keys = list(kwargs)
    allargs = list(args) + [kwargs[k] for k in keys]
    if getattr(tpl, "converts_python_ints", False):
        allargs = ew.python_int_fits(L, allargs, rt.dtype)
    n = len(args)
    ecall = _ElemCall(call, rt.dtype)
    if hasattr(tpl, "loop_flags"):           # (run-time flags of the operands)
        allargs = [L.let(a) if isinstance(getattr(a, "type", None), T.ArrayType)
                   and not isinstance(a, ew.Lazy) else a for a in allargs]
        tpl.loop_flags(L, ecall, allargs)

    def fn(*vals):
        return tpl.lower(L, ecall, list(vals[:n]), dict(zip(keys, vals[n:])))
    return ew.mark_costly(ew.lift(L, allargs, rt, fn), getattr(tpl, "costly", False))


@register
class Where(CallTemplate):
    paths = ("numpy.where",)
    ufunc = True

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 3:
            raise Incompatible("np.where(condition, x, y) with three arguments")
        c, x, y = args
        if not all(isinstance(t, T.Scalar) for t in (c, x, y)):
            raise Incompatible("np.where() of non-numbers")
        if x == y:
            return x
        # NumPy's promotion of the two value operands: an array operand (here seen
        # through its element type) is never "weak" like a Python scalar
        whole = [a.type if isinstance(getattr(a, "type", None), T.ArrayType) else e
                 for a, e in zip(call.args[1:], (x, y))]
        return ew.result_dtype("add", *whole, *(inf.weak(a) for a in call.args[1:]))

    def lower(self, L, call, args, kwargs):
        c, x, y = args
        t = call.type
        return N.Select(ops.truth(L, c), ops.convert(L, x, t), ops.convert(L, y, t), t)


def _clip_step(L, a, bound, beyond: str, t, keep_ties: bool):
    """``bound`` where ``a`` is ``beyond`` it ("lt": below, "gt": above) -- or
    equal to it, unless ``keep_ties`` -- else ``a``; floats: a NaN ``a`` kept,
    else a NaN bound taken."""
    if keep_ties:
        out = N.Select(N.Cmp(beyond, a, bound, T.BOOL), bound, a, t)
    else:
        within = {"lt": "gt", "gt": "lt"}[beyond]
        out = N.Select(N.Cmp(within, a, bound, T.BOOL), a, bound, t)
    if t.is_float:
        out = N.Select(_nan(bound), bound, out, t)
        out = N.Select(_nan(a), a, out, t)
    return L.let(out)


def _nan(e):
    return N.Cmp("uno", e, e, T.BOOL)


@register
class Clip(CallTemplate):
    paths = ("numpy.clip",)
    ufunc = True
    accepts_out = True
    nargs = 3

    def typer(self, inf, call, args, kwargs):
        keys = [k for k in ("a_min", "a_max", "min", "max") if k in kwargs]
        if set(kwargs) - set(keys):       # (out=, dtype=, casting=: not compiled)
            raise Incompatible(f"np.clip() with {', '.join(sorted(set(kwargs) - set(keys)))}=")
        vals = list(args) + [kwargs[k] for k in keys]
        nodes = list(call.args) + [call.kwargs[k] for k in keys]
        if len(vals) != 3 or not isinstance(vals[0], T.Scalar) or not all(
                isinstance(t, T.Scalar) or t == T.NONE for t in vals[1:]):
            raise Incompatible("np.clip(a, a_min, a_max)")
        if T.NONE in vals[1:] and any(t.is_complex for t in vals if t != T.NONE):
            raise Incompatible("np.clip() of complex values with a bound None")
        # ``a`` is never weak (np.clip makes it an array, a Python number too); a
        # bound is weak when it is a Python number.  NumPy's result_type of the
        # three: ``a`` and NumPy scalars first, then the Python numbers adapting
        # to that (a bool array clipped to an int8 bound by 0 is int8;
        # np.clip(np.float32(x), 0.0, 1.0) is float32)
        strong, weak = [], []
        call.plan = None                # the weak bounds' positions, for ``lower``
        for k, (o, n) in enumerate(zip(vals, nodes)):
            if o == T.NONE:
                continue
            # (np.clip makes ``a`` an array first: a Python number there is not weak)
            is_weak = k > 0 and not isinstance(getattr(n, "type", None), T.ArrayType) \
                and o in ew.WEAK_TYPES and inf.weak(n)
            (weak if is_weak else strong).append(o)
            if is_weak:
                call.plan = (call.plan or ()) + (k,)
        if not strong:
            strong, weak = weak[:1], weak[1:]
        t = strong[0]
        for o in strong[1:]:
            t = rules.promote(t, o)
        for o in weak:
            t = ew.adapt_weak(t, o)
        return t

    def lower(self, L, call, args, kwargs):
        vals = list(args) + [kwargs[k] for k in ("a_min", "a_max", "min", "max") if k in kwargs]
        t = call.type
        if t.is_int and t != T.INT64:
            # NumPy 2's np.clip drops a Python-int lower bound at or below the
            # dtype's minimum (an upper one at or above its maximum); any other
            # must fit the dtype (OverflowError), lower bound first
            lo_t, hi_t = T.int_range(t)
            for k in sorted(call.plan or ()):
                v = vals[k]
                if v.type != T.INT64:
                    continue
                v = L.let(v)
                if k == 1:
                    v = L.let(N.Select(N.Cmp("le", v, C(lo_t, T.INT64), T.BOOL),
                                       C(lo_t, T.INT64), v, T.INT64))
                elif hi_t <= (1 << 63) - 1:
                    v = L.let(N.Select(N.Cmp("ge", v, C(hi_t, T.INT64), T.BOOL),
                                       C(hi_t, T.INT64), v, T.INT64))
                else:                       # uint64: every int64 is below its maximum
                    pass
                vals[k] = ew.python_int_fits(L, [v], t)[0]
        # a bound None: NumPy's np.minimum(a, hi) / np.maximum(a, lo) (np.positive
        # for both), which are the steps below without the other one
        a, lo, hi = (None if v.type == T.NONE else L.let(ops.convert(L, v, t)) for v in vals)
        if t.is_complex:
            return ew.np_complex_clip(L, a, lo, hi)
        if lo is None:
            lo = a
        # NumPy's clip: MIN(MAX(a, lo), hi), each step keeping ``a`` on a tie
        # (clip(-0.0, 0.0, 1.0) is -0.0, in NumPy 2's scalar, short and vector
        # loops alike); a bound None is np.minimum(a, hi) / np.maximum(a, lo),
        # where a tie gives the bound (clip(-0.0, None, 0.0) is 0.0).  Floats: a
        # NaN ``a`` kept at each step, else a NaN bound taken
        both = lo is not a and hi is not None
        m = _clip_step(L, a, lo, "lt", t, both)
        if hi is None:
            return m
        return _clip_step(L, m, hi, "gt", t, both)
