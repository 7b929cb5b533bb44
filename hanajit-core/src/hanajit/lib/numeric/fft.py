"""``np.fft.fft``, ``ifft``, ``rfft`` and ``irfft`` (``a, n=None, axis=-1,
norm=None``) by NumPy's own pocketfft loops (``fft_loops``): NumPy's bits.

The steps are ``numpy/fft/_pocketfft.py``'s ``_raw_fft``: ``n`` (the input's
length along the axis by default, ``(length - 1) * 2`` for irfft) below 1 raises
its ValueError; ``norm`` (swapped for the inverse transforms) gives the factor
``fct``: 1 (a Python int), ``reciprocal(sqrt(n, dtype=real_dtype))`` or
``reciprocal(n, dtype=real_dtype)``, ``real_dtype`` being ``result_type(a.real.dtype,
1.0)``; the output is ``empty_like(a, shape=...)`` (order K: C, F, or by the
strides of a 2-D view) of ``real_dtype`` (irfft) or ``result_type(a.dtype, 1j)``;
the gufunc's loop is the one NumPy's type resolution picks for the input, the
factor and that output (``ufunc.resolve_dtypes``: a float32 input with the
default norm runs the float64 loop and is cast down, as in NumPy).  The loop is
called with the outer axis that is last in the array as its outer loop, the others
looped here (the loops' bits do not depend on how the lanes are grouped).

Falls back: ``out=``, a non-constant ``axis`` or ``norm``, an invalid norm or axis
(NumPy's errors from the interpreter), float16/longdouble, a strided view of more
than 2 dimensions (NumPy's output order), complex input to rfft (NumPy's
TypeError), targets without host calls and a NumPy whose loops fail the check.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.creation import allocate, fill
from ..python import operators as ops
from ..python.operators import C
from ..registry import PlannedCall, bound_const, register
from . import fft_loops

I = T.INT64
_PARAMS = ("a", "n", "axis", "norm", "out")
_NORMS = (None, "backward", "ortho", "forward")
_SWAP = {"backward": "forward", None: "forward", "ortho": "ortho", "forward": "backward"}


@dataclass
class Plan:
    type: T.ArrayType
    axis: int
    norm: object            # the effective norm (swapped for the inverses)
    loop_in: T.Scalar       # the loop's input, factor and output types
    loop_fct: T.Scalar
    loop_out: T.Scalar
    real: T.Scalar          # real_dtype: the factor's computation


def _scalar(dt) -> T.Scalar:
    t = T.from_numpy_dtype(np.dtype(dt))
    if not isinstance(t, T.Scalar):
        raise Incompatible(f"no type for {dt}")
    return t


class FFT(PlannedCall):
    params = _PARAMS

    def __init__(self, name, real, forward):
        self.fname, self.is_real, self.forward = name, real, forward
        self.name = f"np.fft.{name}"
        self.paths = (f"numpy.fft.{name}",)

    def ufunc_names(self):
        if not self.is_real:
            return ("fft",) if self.forward else ("ifft",)
        return ("rfft_n_even", "rfft_n_odd") if self.forward else ("irfft",)

    def make_plan(self, call, nodes, types):
        what = self.name
        a = types.get("a")
        out = types.get("out")
        if out is not None and out != T.NONE:
            raise Incompatible(f"{what}(): out= is not compiled")
        n = types.get("n")
        if n is not None and n != T.NONE and not (isinstance(n, T.Scalar) and n.is_int
                                                  and not n.is_bool):
            raise Incompatible(f"{what}(): n must be an integer or None")
        axis = bound_const(call, nodes, "axis", -1)
        norm = bound_const(call, nodes, "norm", None)
        return self.plan(a, axis, norm, what)

    def plan(self, a, axis, norm, what, contiguous=False) -> Plan:
        """The plan of one transform of an array of type ``a`` along the constant
        ``axis`` with the constant ``norm`` (as given); ``contiguous``: the array
        is C- or Fortran-contiguous whatever its type says (``fft_nd``'s results
        of contiguous arrays)."""
        if not isinstance(a, T.ArrayType) or not isinstance(a.dtype, T.Scalar):
            raise Incompatible(f"{what}() of {a} (an array only)")
        if a.ndim == 0:
            raise Incompatible(f"{what}() of a 0-D array")
        if a.layout == "A" and a.ndim > 2 and not contiguous:
            raise Incompatible(f"{what}() of a strided view of more than 2 dimensions "
                               "(NumPy's order of the output)")
        if not isinstance(axis, int) or isinstance(axis, bool) \
                or not -a.ndim <= axis < a.ndim:
            raise Incompatible(f"{what}(): axis must be a constant axis of the array")
        if norm not in _NORMS:
            raise Incompatible(f"{what}(): norm must be a constant None, 'backward', "
                               "'ortho' or 'forward'")
        if not self.forward:
            norm = _SWAP[norm]
        dt = np.dtype(a.dtype.name)
        if dt.kind not in "biufc" or dt.itemsize > 16 or dt == np.float16:
            raise Incompatible(f"{what}() of {a.dtype}")
        real = np.result_type(np.empty(0, dt).real.dtype, 1.0)
        if real not in (np.float32, np.float64):
            raise Incompatible(f"{what}() of {a.dtype}")
        out_dt = real if (self.is_real and not self.forward) else np.result_type(dt, 1j)
        import numpy.fft._pocketfft_umath as pfu
        ufunc = getattr(pfu, self.ufunc_names()[0])
        try:
            loop = ufunc.resolve_dtypes(
                (dt, int if norm in (None, "backward") else real, out_dt))
        except TypeError as e:      # rfft of complex: NumPy's TypeError, from NumPy
            raise Incompatible(f"{what}() of {a.dtype}: {e}") from None
        loop_in, loop_fct, loop_out = (_scalar(x) for x in loop)
        single = loop_fct == T.FLOAT32
        if not (self.host_calls and fft_loops.available(single, *self.ufunc_names())):
            raise Incompatible(f"{what}() calls NumPy's pocketfft loops, which this target "
                               "or this NumPy does not offer")
        rt = T.ArrayType(_scalar(out_dt), a.ndim,
                         "C" if a.ndim == 1 or a.layout == "C" else "A")
        return Plan(rt, axis % a.ndim, norm, loop_in, loop_fct, loop_out, _scalar(real))

    def typer(self, inf, call, args, kwargs):
        self.host_calls = inf.ctx is None or inf.ctx.capabilities.host_calls
        return super().typer(inf, call, args, kwargs)

    def lower(self, L, call, args, kwargs):
        b = self.bound(args, kwargs)
        n = b.get("n")
        return self.transform(L, call.call_plan, b["a"],
                              None if n is None or n.type == T.NONE else n)

    def transform(self, L, p, a, n):
        """The transform planned by ``p`` of ``a`` with ``n`` points (an int
        expression, or None for the default)."""
        a = L.let(ew.materialize(L, a))
        nd = a.type.ndim
        shape = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(nd)]
        length = shape[p.axis]
        if n is None:
            n = length if self.is_real is False or self.forward else L.let(
                N.BinOp("mul", N.BinOp("sub", length, C(1, I), I), C(2, I), I))
        else:
            n = L.let(ops.convert(L, n, I))
        L.emit(N.If(cond=N.Cmp("lt", n, C(1, I), T.BOOL), then=[N.Raise(
            exc=ValueError, args=[n], line=L.line,
            message="Invalid number of FFT data points ({}) specified.")]))
        n_out = n
        if self.is_real and self.forward:
            n_out = L.let(N.BinOp("add", N.BinOp("sdiv", n, C(2, I), I), C(1, I), I))
        dims = list(shape)
        dims[p.axis] = n_out
        if self.is_real and not self.forward:
            # NumPy's irfft loop reads the first input point whatever the input's
            # length: of an empty axis, memory past the array (the interpreter's)
            L.emit(N.If(cond=N.Cmp("eq", length, C(0, I), T.BOOL), then=[N.Raise(
                exc=ValueError, deopt=True, line=L.line,
                message="np.fft.irfft() of an empty axis reads past the array")]))
        result = output(L, a, p.type, dims)
        # the input as the loop's type (NumPy's gufunc casts a copy)
        x = a
        if a.type.dtype != p.loop_in:
            x = L.let(ew.materialize(L, ew.lift(
                L, [a], T.ArrayType(p.loop_in, nd, "C"),
                lambda v: ew.cast_to(L, v, p.loop_in))))
        y = result
        if p.loop_out != p.type.dtype:          # the loop's output, cast after
            y = allocate(L, T.ArrayType(p.loop_out, nd, "C"), dims)
        self.run_loops(L, p, x, y, n, dims)
        if y is not result:
            fill(L, result, dims, lambda idx: ew.cast_to(
                L, N.Load(y, idx, p.loop_out), p.type.dtype))
        return result

    def factor(self, L, p, n):
        r = p.real
        if p.norm in (None, "backward"):
            return C(1.0, p.loop_fct)
        if p.norm == "ortho":
            den = N.Intrinsic("sqrt", [N.Cast(n, r)], r)
        else:
            den = N.Cast(n, r)
        return ew.cast_to(L, L.let(N.BinOp("fdiv", C(1.0, r), den, r)), p.loop_fct)

    def run_loops(self, L, p, x, y, n, dims):
        nd = x.type.ndim
        single = p.loop_fct == T.FLOAT32
        fct = allocate(L, T.ArrayType(p.loop_fct, 1, "C"), [C(1, I)])
        L.emit(N.Store(array=fct, indices=[C(0, I)], value=self.factor(L, p, n)))
        buf = allocate(L, T.ArrayType(I, 1, "C"), [C(12, I)])
        at = L.let(N.ArrayAttr(buf, "data", 0, I))
        outer = [k for k in range(nd) if k != p.axis]
        g = outer[-1] if outer else None
        rest = outer[:-1]
        count = dims[g] if g is not None else C(1, I)

        def stride(arr, k):
            return N.ArrayAttr(arr, "stride", k, I) if k is not None else C(0, I)

        names = self.ufunc_names()
        flag = fft_loops.DIRECTION.get(names[0], 0)
        for k, v in enumerate([count, N.ArrayAttr(x, "shape", p.axis, I), dims[p.axis],
                               stride(x, g), C(0, I), stride(y, g), stride(x, p.axis),
                               stride(y, p.axis), C(flag, I)]):
            L.emit(N.Store(array=buf, indices=[C(3 + k, I)], value=v))
        L.emit(N.Store(array=buf, indices=[C(1, I)], value=N.ArrayAttr(fct, "data", 0, I)))
        data = N.BinOp("add", at, C(88, I), I) if names[0] in fft_loops.DIRECTION \
            else C(0, I)
        ptrs = [L.let(v) for v in (at, N.BinOp("add", at, C(24, I), I),
                                   N.BinOp("add", at, C(48, I), I), data)]

        def calls():
            if len(names) == 1:
                return [N.ForeignCall(symbol=fft_loops.symbol(names[0], single), args=ptrs)]
            even = N.Cmp("eq", N.BinOp("srem", n, C(2, I), I), C(0, I), T.BOOL)
            return [N.If(cond=even, then=[N.ForeignCall(
                symbol=fft_loops.symbol(names[0], single), args=ptrs)], orelse=[
                N.ForeignCall(symbol=fft_loops.symbol(names[1], single), args=ptrs)])]

        counters = [L.temp(I, "o") for _ in rest]
        ox, oy = N.ArrayAttr(x, "data", 0, I), N.ArrayAttr(y, "data", 0, I)
        for c, k in zip(counters, rest):
            ox = N.BinOp("add", ox, N.BinOp("mul", N.Var(c, I), stride(x, k), I), I)
            oy = N.BinOp("add", oy, N.BinOp("mul", N.Var(c, I), stride(y, k), I), I)
        body = [N.Store(array=buf, indices=[C(0, I)], value=ox),
                N.Store(array=buf, indices=[C(2, I)], value=oy)] + calls()
        for c, k in reversed(list(zip(counters, rest))):
            body = [N.ForCount(counter=c, count=dims[k], body=body)]
        # (NumPy's iterator calls no loop for an empty outer loop)
        L.emit(N.If(cond=N.Cmp("gt", count, C(0, I), T.BOOL), then=body))


def _contiguous(shape, strides, size, reverse):
    """NumPy's C (``reverse``) or Fortran contiguity flag of an array."""
    flag = C(True, T.BOOL)
    expect = C(size, I)
    order = range(len(shape) - 1, -1, -1) if reverse else range(len(shape))
    empty = C(False, T.BOOL)
    for k in order:
        d = shape[k]
        empty = ops.bor(empty, N.Cmp("eq", d, C(0, I), T.BOOL))
        fits = ops.bor(N.Cmp("eq", d, C(1, I), T.BOOL), N.Cmp("eq", strides[k], expect,
                                                              T.BOOL))
        flag = ops.band(flag, fits)
        expect = N.Select(N.Cmp("eq", d, C(1, I), T.BOOL), expect,
                          N.BinOp("mul", expect, d, I), I)
    return ops.bor(empty, flag)


def output(L, a, rt, dims):
    """``empty_like(a, shape=dims)``: C order for a C-contiguous (or 1-D) ``a``,
    else Fortran order for a Fortran-contiguous one, else (2-D) by the sizes of
    its strides, as NumPy's order K (``a`` of more dimensions is C- or
    Fortran-contiguous: ``FFT.plan``)."""
    if rt.layout == "C":
        return allocate(L, rt, dims)
    nd = len(dims)
    size = rt.dtype.bits // 8
    shape = [N.ArrayAttr(a, "shape", k, I) for k in range(nd)]
    strides = [N.ArrayAttr(a, "stride", k, I) for k in range(nd)]
    it = a.type.dtype.bits // 8 if not a.type.dtype.is_bool else 1
    c_order = _contiguous(shape, strides, it, True)
    f_like = _contiguous(shape, strides, it, False)
    if nd == 2:
        mag = [N.Select(N.Cmp("lt", s, C(0, I), T.BOOL), N.BinOp("sub", C(0, I), s, I),
                        s, I) for s in strides]
        f_like = ops.bor(f_like, N.Cmp("gt", mag[1], mag[0], T.BOOL))
    fortran = L.let(ops.band(ops.logical_not(c_order), f_like))
    total = C(1, I)
    for d in dims:
        total = N.BinOp("mul", total, d, I)
    flat = allocate(L, T.ArrayType(rt.dtype, 1, "C"), [L.let(total)])
    # NumPy's strides of a new array: an empty axis counts as one
    one = [N.Select(N.Cmp("eq", d, C(0, I), T.BOOL), C(1, I), d, I) for d in dims]
    cs, fs = [None] * nd, [None] * nd
    step = C(size, I)
    for k in range(nd - 1, -1, -1):
        cs[k] = L.let(step)
        step = N.BinOp("mul", step, one[k], I)
    step = C(size, I)
    for k in range(nd):
        fs[k] = L.let(step)
        step = N.BinOp("mul", step, one[k], I)
    st = [L.let(N.Select(fortran, f, c, I)) for c, f in zip(cs, fs)]
    return L.let(N.ArrayView(flat, C(0, I), list(dims), st, rt))


TRANSFORMS = {}        # name -> its template (``fft_nd`` chains them)
for _name, _real, _forward in (("fft", False, True), ("ifft", False, False),
                               ("rfft", True, True), ("irfft", True, False)):
    TRANSFORMS[_name] = register(FFT(_name, _real, _forward))
