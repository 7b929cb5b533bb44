"""NumPy array creation inside kernels: empty/zeros/ones/full and their ``_like``
forms, arange and linspace (filled exactly as NumPy fills them)."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from .sizes import check_dims, itemsize
from ..python.operators import C
from ..registry import CallTemplate, CompiledOnly, register


def dtype_of(value) -> T.Scalar:
    """A scalar type from a compile-time dtype argument (np.float32, float, "i8")."""
    import numpy as np
    try:
        dt = np.dtype(value)
    except TypeError:
        raise Incompatible(f"dtype {value!r} is not understood") from None
    t = T.from_numpy_dtype(dt)
    if t is None:
        raise Incompatible(f"dtype {dt} is not supported")
    return t


def shape_types(t) -> int:
    """Number of dimensions of a shape argument (an int or a tuple of ints)."""
    if isinstance(t, T.Scalar) and t.is_int:     # (NumPy refuses a bool: TypeError)
        return 1
    if isinstance(t, T.TupleType) and all(isinstance(i, T.Scalar) and i.is_int for i in t.items):
        return len(t.items)
    raise Incompatible(f"shape of type {t}")


def shape_values(L, e: N.Expr, check: bool = True) -> list:
    """int64 dimensions of a lowered shape argument, checked non-negative unless
    ``check`` is false (``allocate`` checks them then, in NumPy's order)."""
    t = e.type
    if isinstance(t, T.TupleType):
        e = L.let(e)
        dims = [N.TupleGet(e, k, it) if not isinstance(e, N.Const) else C(e.value[k], it)
                for k, it in enumerate(t.items)]
    else:
        dims = [e]
    out = []
    for d in dims:
        d = L.let(ops.convert_wrap(d, T.INT64))
        if check:
            L.raise_if(N.Cmp("lt", d, C(0, T.INT64), T.BOOL), ValueError,
                       "negative dimensions are not allowed")
        out.append(d)
    return out


def _lazy(L, t: T.ArrayType, n, value):
    """``np.arange``/``np.linspace`` as a lazy array: inside an expression the
    values are computed where they are used, never stored; assigned or returned,
    the array is filled once (elementwise.materialize).  Its length is checked
    now, as NumPy checks the array it allocates."""
    from .elementwise import Lazy
    check_dims(L, [n], itemsize(t))
    return Lazy(t, [n], value, sources=[])


def values_fit(L, values, dtype):
    """``values`` with their Python int operands checked to fit ``dtype`` (an
    OverflowError as NumPy 2 raises; ``elementwise.python_int_fits``)."""
    from .elementwise import python_int_fits
    return python_int_fits(L, values, dtype)


def allocate(L, t: T.ArrayType, dims: list) -> N.Var:
    """A new C-contiguous array of ``t`` with ``dims``: the only place compiled
    code allocates arrays, so every allocation passes NumPy's size check
    (:func:`sizes.check_dims`: ValueError) before touching memory."""
    dims = [L.let(d) for d in dims]
    check_dims(L, dims, itemsize(t))
    name = L.temp(t, "arr")
    L.emit(N.Assign(target=name, value=N.AllocArray(list(dims), t)))
    return N.Var(name, t)


def fill(L, arr: N.Var, dims: list, value_fn, split=None):
    """Nested loops storing ``value_fn(indices)`` into every element (statements
    ``value_fn`` emits land in the innermost loop body), in two copies where
    operands might broadcast (``broadcast_versions``).

    ``split`` (``Lazy.split``: ``(axis, count, rep)``): that axis is looped as
    ``o < count`` with ``j < rep`` inside it, its index ``o * rep + j``, which
    ``elementwise.repeated_source`` turns back into ``o`` (``np.repeat``) and
    ``elementwise.tiled_source`` into ``j`` (``np.tile``)."""
    from . import elementwise as ew
    counters = [L.temp(T.INT64, "i") for _ in dims]
    idx = [N.Var(c, T.INT64) for c in counters]
    loops = list(zip(counters, dims))
    if split is not None:
        axis, count, rep = split
        outer, inner = L.temp(T.INT64, "o"), L.temp(T.INT64, "j")
        idx[axis] = N.BinOp("add", N.BinOp("mul", N.Var(outer, T.INT64), rep, T.INT64),
                            N.Var(inner, T.INT64), T.INT64)
        loops[axis:axis + 1] = [(outer, count), (inner, rep)]

    def value():
        if split is None:
            return value_fn(idx)
        ew.split_indices.append({id(idx[axis]): (N.Var(outer, T.INT64), rep,
                                                 N.Var(inner, T.INT64))})
        try:
            return value_fn(idx)
        finally:
            ew.split_indices.pop()

    def nest():
        stmts, v = L.sub_block(value)
        body = stmts + [N.Store(array=arr, indices=idx, value=v)]
        for c, d in reversed(loops):
            body = [N.ForCount(counter=c, count=d, body=body)]
        for s in body:
            L.emit(s)
    broadcast_versions(L, nest)


def broadcast_versions(L, build):
    """Emit what ``build()`` emits -- loops over whole-array expressions --
    twice when an operand might broadcast (an axis whose length is only known at
    run time to be the loop's or 1): a copy indexing every operand with the loop
    counters, chosen when each such axis equals the loop's, and the general copy,
    whose per-element ``select(len == 1, 0, i)`` would keep LLVM from
    vectorising."""
    from . import elementwise as ew

    def copy(assume):
        ew.assume_full.append(assume)
        try:
            stmts, _ = L.sub_block(build)
        finally:
            ew.assume_full.pop()
        return stmts

    conds = []
    fast = copy(conds)
    if conds:
        test, seen = None, set()
        for d, full in conds:
            key = (repr(d), repr(full))
            if key not in seen:
                seen.add(key)
                c = N.Cmp("eq", d, full, T.BOOL)
                test = c if test is None else N.BinOp("and", test, c, T.BOOL)
        fast = [N.If(cond=test, then=fast, orelse=copy(None))]
        fast[0].versioned = True        # (as passes/version_bounds marks its copies)
    for s in fast:
        L.emit(s)


def bind_kw(call, args, kwargs, names):
    """Bind positional and keyword arguments (lowered or typed) to ``names``."""
    if len(args) > len(names):
        raise Incompatible(f"takes at most {len(names)} arguments ({len(args)} given)")
    out = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise Incompatible(f"unexpected keyword argument {k!r}")
        if k in out:
            raise Incompatible(f"argument {k!r} given by position and by keyword")
        out[k] = v
    return out


def const_dtype(value_or_type):
    """The dtype of a constant ``dtype=`` argument (its ConstType); Incompatible
    for a dtype that is not a compile-time constant."""
    if isinstance(value_or_type, T.ConstType):
        return dtype_of(value_or_type.value)
    raise Incompatible("dtype must be a compile-time constant such as np.float32")


class Create(CallTemplate):
    """np.empty / zeros / ones / full."""

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)
        self.params = ("shape", "fill_value", "dtype", "order") if name == "full" else (
            "shape", "dtype", "order")

    def typer(self, inf, call, args, kwargs):
        a = bind_kw(call, args, kwargs, self.params)
        if "shape" not in a or (self.name == "full" and "fill_value" not in a):
            raise Incompatible(f"np.{self.name}() missing arguments")
        ndim = shape_types(a["shape"])
        order = a.get("order")
        if order is not None and not (isinstance(order, T.ConstType) and order.value in ("C",)):
            raise Incompatible("only order='C' is supported")
        if "dtype" in a and a["dtype"] != T.NONE:
            dt = const_dtype(a["dtype"])
        elif self.name == "full":
            fv = a["fill_value"]
            if not isinstance(fv, T.Scalar):
                raise Incompatible("fill_value must be a number")
            dt = fv
        else:
            dt = T.FLOAT64
        if self.name == "full":
            call.plan = python_fill_value(inf, call, self.params)
        return T.ArrayType(dt, ndim, "C")

    def lower(self, L, call, args, kwargs):
        a = bind_kw(call, args, kwargs, self.params)
        t = call.type
        dims = shape_values(L, a["shape"], check=False)
        arr = allocate(L, t, dims)
        if self.name == "zeros":
            fill(L, arr, dims, lambda idx: ops.zero(t.dtype))
        elif self.name == "ones":
            one = C(True if t.dtype.is_bool else 1, t.dtype) if not t.dtype.is_float else C(
                1.0, t.dtype)
            if t.dtype.is_complex:
                one = C(1 + 0j, t.dtype)
            fill(L, arr, dims, lambda idx: one)
        elif self.name == "full":
            fill(L, arr, dims, full_value(L, call, a["fill_value"], t.dtype))
        return arr


def python_fill_value(inf, call, params) -> bool:
    """Whether np.full's fill value is a Python number (``Inferrer.is_strong``)."""
    node = bind_kw(call, call.args, call.kwargs, params).get("fill_value")
    return node is not None and not inf.is_strong(node)


def full_value(L, call, value, dtype):
    """The element function of ``np.full``: NumPy copies the fill value in with
    ``casting='unsafe'`` -- a Python int must fit the dtype (OverflowError),
    anything else is cast as arrays are (``np.full(3, np.nan, np.int8)`` and
    ``np.int64(300)`` give what NumPy's cast gives)."""
    from ..indexing.elements import array_cast
    if call.plan and value.type == T.INT64:
        value, = values_fit(L, [value], dtype)
    v = L.let(array_cast(L, value, dtype))
    return lambda idx: v


class CreateLike(CallTemplate):
    """np.empty_like / zeros_like / ones_like / full_like."""

    def __init__(self, name):
        self.name = name
        self.base = Create(name[:-len("_like")])
        self.paths = (f"numpy.{name}",)
        self.params = ("a", "fill_value", "dtype") if name == "full_like" else ("a", "dtype")

    def typer(self, inf, call, args, kwargs):
        a = bind_kw(call, args, kwargs, self.params)
        src = a.get("a")
        if not isinstance(src, T.ArrayType):
            raise Incompatible(f"np.{self.name}() of {src}")
        if self.name == "full_like" and not isinstance(a.get("fill_value"), T.Scalar):
            raise Incompatible("np.full_like(a, fill_value) with a number as fill_value")
        dt = src.dtype
        if "dtype" in a and a["dtype"] != T.NONE:
            dt = const_dtype(a["dtype"])
        if self.name == "full_like":
            call.plan = python_fill_value(inf, call, self.params)
        # NumPy's order='K': a Fortran-ordered array gives a Fortran-ordered one
        # (other layouts, known only at run time, give C order)
        layout = "F" if src.layout == "F" and src.ndim > 1 else "C"
        return T.ArrayType(dt, src.ndim, layout)

    def lower(self, L, call, args, kwargs):
        from .shape import transpose
        a = bind_kw(call, args, kwargs, self.params)
        src = L.let(a["a"])
        t = call.type
        dims = [L.let(N.ArrayAttr(src, "shape", k, T.INT64)) for k in range(t.ndim)]
        if t.layout == "F":     # the transpose of a C-ordered array of reversed shape
            t, dims = t.copy(layout="C"), dims[::-1]
        arr = allocate(L, t, dims)
        kind = self.base.name
        if kind == "zeros":
            fill(L, arr, dims, lambda idx: ops.zero(t.dtype))
        elif kind == "ones":
            one = C(1.0 if t.dtype.is_float else (1 + 0j if t.dtype.is_complex else 1), t.dtype)
            if t.dtype.is_bool:
                one = C(True, t.dtype)
            fill(L, arr, dims, lambda idx: one)
        elif kind == "full":
            fill(L, arr, dims, full_value(L, call, a["fill_value"], t.dtype))
        return transpose(L, arr) if call.type.layout == "F" else arr


def _arange_dtype(args, kw):
    """np.arange's values and ``dtype``: a fourth positional argument is the
    dtype (``np.arange(0, n, 1, np.int8)``); ``kw`` loses its ``dtype``."""
    if len(args) == 4:
        if "dtype" in kw:
            raise Incompatible("np.arange() got dtype by position and by keyword")
        return list(args[:3]), args[3]
    return list(args), kw.pop("dtype", None)


@register
class Arange(CallTemplate):
    paths = ("numpy.arange",)

    def typer(self, inf, call, args, kwargs):
        kw = dict(kwargs)
        args, dt = _arange_dtype(args, kw)
        vals = list(args) + [kw.pop(k) for k in ("start", "stop", "step") if k in kw]
        if kw or not 1 <= len(vals) <= 3 or not all(
                isinstance(v, T.Scalar) and not v.is_complex for v in vals):
            raise Incompatible("np.arange() takes 1 to 3 real numbers")
        if dt is not None and dt != T.NONE:
            return T.ArrayType(const_dtype(dt), 1, "C")
        # NumPy promotes the values with int64 (``np.arange(np.float32(3))`` is
        # float64, ``np.arange(np.uint8(3))`` int64; uint64 with int64 is float64)
        isfloat = any(v.is_float or v == T.UINT64 for v in vals)
        return T.ArrayType(T.FLOAT64 if isfloat else T.INT64, 1, "C")

    def lower(self, L, call, args, kwargs):
        kw = dict(kwargs)
        args, _ = _arange_dtype(args, kw)
        vals = list(args) + [kw.pop(k) for k in ("start", "stop", "step") if k in kw]
        t = call.type
        isfloat = any(v.type.is_float for v in vals) or t.dtype.is_float
        if len(vals) == 1:
            vals = [C(0, T.INT64), vals[0], C(1, T.INT64)]
        elif len(vals) == 2:
            vals = vals + [C(1, T.INT64)]
        if not isfloat:
            start, stop, step = (L.let(ops.convert(L, v, T.INT64)) for v in vals)
            L.raise_if(N.Cmp("eq", step, C(0, T.INT64), T.BOOL), ZeroDivisionError,
                       "division by zero")
            n = L.let(ops.range_count(L, start, stop, step))
            # NumPy converts the first two values to an explicit integer dtype
            # (OverflowError when one does not fit) and adds their difference
            for k, v in enumerate((start, N.BinOp("add", start, step, T.INT64))):
                check, _ = L.sub_block(lambda v=v: values_fit(L, [v], t.dtype))
                if check:
                    L.emit(N.If(cond=N.Cmp("gt", n, C(k, T.INT64), T.BOOL), then=check))
            return _lazy(L, t, n, lambda idx: ops.convert_wrap(
                ops.range_value(start, idx[0], step, T.INT64), t.dtype))
        F = T.FLOAT64
        start, stop, step = (L.let(ops.convert(L, v, F)) for v in vals)
        L.raise_if(N.Cmp("eq", step, C(0.0, F), T.BOOL), ZeroDivisionError, "division by zero")
        # NumPy: len = ceil((stop - start) / step); values start, start + step, then
        # start + i * ((start + step) - start)
        q = L.let(N.Intrinsic("ceil", [N.BinOp("fdiv", N.BinOp("sub", stop, start, F), step, F)],
                              F))
        L.raise_if(N.Cmp("uno", q, q, T.BOOL), ValueError, "arange: cannot compute length")
        # (NumPy: a length outside int64 either way; the array size is checked next)
        L.raise_if(N.BinOp("or", N.Cmp("ge", q, C(2.0 ** 63, F), T.BOOL),
                           N.Cmp("lt", q, C(-2.0 ** 63, F), T.BOOL), T.BOOL), ValueError,
                   "Maximum allowed size exceeded")
        n = L.let(N.Select(N.Cmp("gt", q, C(0.0, F), T.BOOL), N.Cast(q, T.INT64),
                           C(0, T.INT64), T.INT64))
        second = L.let(N.BinOp("add", start, step, F))
        delta = L.let(N.BinOp("sub", second, start, F))

        def value(idx):
            i = idx[0]
            v = N.BinOp("add", start, N.BinOp("mul", N.Cast(i, F), delta, F), F)
            v = N.Select(N.Cmp("eq", i, C(1, T.INT64), T.BOOL), second, v, F)
            v = N.Select(N.Cmp("eq", i, C(0, T.INT64), T.BOOL), start, v, F)
            return v if t.dtype == F else N.Cast(v, t.dtype)
        return _lazy(L, t, n, value)


@register
class Linspace(CallTemplate):
    paths = ("numpy.linspace",)
    params = ("start", "stop", "num", "endpoint")

    def typer(self, inf, call, args, kwargs):
        a = bind_kw(call, args, kwargs, self.params + ("retstep",))
        if "start" not in a or "stop" not in a:
            raise Incompatible("np.linspace(start, stop, num=50, endpoint=True)")
        for k in ("start", "stop"):
            if not (isinstance(a[k], T.Scalar) and not a[k].is_complex):
                raise Incompatible("np.linspace() of non-real bounds")
            if a[k] == T.FLOAT32:     # (NumPy computes in float32 then)
                raise Incompatible("np.linspace() of float32 bounds")
        num = a.get("num", T.INT64)
        if not (isinstance(num, T.Scalar) and (num.is_int or num.is_bool)):
            # (a float raises TypeError in NumPy: not a compiled case)
            raise Incompatible(f"np.linspace() with num of type {num} (an integer)")
        rt = T.ArrayType(T.FLOAT64, 1, "C")
        return T.TupleType((rt, T.FLOAT64)) if self.retstep(call) else rt

    def retstep(self, call):
        from ..registry import bound_const
        nodes = bind_kw(call, call.args, call.kwargs, self.params + ("retstep",))
        value = bound_const(call, nodes, "retstep", False)
        if value not in (False, True):
            raise Incompatible("np.linspace(): retstep must be a constant bool")
        return bool(value)

    def lower(self, L, call, args, kwargs):
        a = bind_kw(call, args, kwargs, self.params + ("retstep",))
        F = T.FLOAT64
        start = L.let(ops.convert(L, a["start"], F))
        stop = L.let(ops.convert(L, a["stop"], F))
        num = L.let(ops.convert_wrap(a.get("num", C(50, T.INT64)), T.INT64))
        endpoint = L.let(ops.truth(L, a.get("endpoint", C(True, T.BOOL))))
        L.emit(N.If(cond=N.Cmp("lt", num, C(0, T.INT64), T.BOOL), then=[N.Raise(
            exc=ValueError, message="Number of samples, {}, must be non-negative.",
            args=[num], line=L.line)], line=L.line))
        div = L.let(N.Select(endpoint, N.BinOp("sub", num, C(1, T.INT64), T.INT64), num,
                             T.INT64))
        divf = L.let(N.Cast(div, F))
        delta = L.let(N.BinOp("sub", stop, start, F))
        step = L.let(N.BinOp("fdiv", delta, divf, F))
        step_zero = L.let(N.Cmp("eq", step, C(0.0, F), T.BOOL))
        last = L.let(N.BinOp("sub", num, C(1, T.INT64), T.INT64))
        pin_last = L.let(ops.band(endpoint, N.Cmp("gt", num, C(1, T.INT64), T.BOOL)))

        def value(idx):
            i = N.Cast(idx[0], F)
            scaled = N.Select(step_zero,
                              N.BinOp("mul", N.BinOp("fdiv", i, divf, F), delta, F),
                              N.BinOp("mul", i, step, F), F)
            nonpos = N.Cmp("le", div, C(0, T.INT64), T.BOOL)
            scaled = N.Select(nonpos, N.BinOp("mul", i, delta, F), scaled, F)
            v = N.BinOp("add", scaled, start, F)
            is_last = ops.band(pin_last, N.Cmp("eq", idx[0], last, T.BOOL))
            return N.Select(is_last, stop, v, F)
        out = _lazy(L, T.ArrayType(F, 1, "C"), num, value)
        if not isinstance(call.type, T.TupleType):
            return out
        # retstep=True: NumPy's step is the float64 ``delta / div``, or the Python
        # float nan where ``div <= 0`` (another type: the interpreter's)
        L.emit(N.If(cond=N.Cmp("le", div, C(0, T.INT64), T.BOOL), then=[N.Raise(
            exc=ValueError, deopt=True, line=L.line,
            message="np.linspace(retstep=True) with no step (NumPy's step is the "
                    "Python float nan)")], line=L.line))
        return N.MakeTuple([L.let(out), step], call.type)


for _name in ("empty", "zeros", "ones", "full"):
    register(Create(_name))
for _name in ("empty_like", "zeros_like", "ones_like", "full_like"):
    register(CreateLike(_name))


# ``empty_of_type(a)`` in compiled code: a new empty array of ``a``'s type, without
# reading ``a`` (which may be unbound).  The list comprehensions of
# ``frontend/comprehension_arrays.py`` give an empty result this way the type of
# the buffer their items would have filled.
empty_of_type = CompiledOnly("empty_of_type")


@register
class EmptyOfType(CallTemplate):
    paths = ("hanajit.lib.arrays.creation.empty_of_type",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], T.ArrayType):
            raise Incompatible("empty_of_type(a) of an array")
        return T.ArrayType(args[0].dtype, args[0].ndim, "C")

    def lower(self, L, call, args, kwargs):
        return allocate(L, call.type, [C(0, T.INT64)] * call.type.ndim)
