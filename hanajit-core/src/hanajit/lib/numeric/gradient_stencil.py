"""The arithmetic of ``np.gradient`` along one axis (``gradient`` types the call):
NumPy's formulas for a uniform spacing and for coordinates, every operation in
the order and the type NumPy computes it (``numpy/lib/_function_base_impl.py``),
so every value is NumPy's.

The types, after NumPy 2 (NEP 50): ``o`` is the result's (the data's float type,
float64 for integers).  An array operation with a Python number stays in ``o``;
with a NumPy scalar or array of type ``d`` it is in ``promote(o, d)``.  A Python
float with a spacing (``2. * dx``, ``-1.5 / dx``) is a Python float for a Python
number, and of the spacing's type for a NumPy float (float64 for a NumPy int).

Complex data computes in complex arithmetic, as NumPy does: a real operand is
first made complex (imaginary part +0), ``-`` and ``+`` go part by part, ``/`` is
NumPy's complex division (``elementwise.np_complex_div``: Smith's method, not a
division of each part), ``*`` NumPy's complex product in the rounding NumPy uses
for it (``product_forms``): its array loop's (fused multiply-adds where its SIMD
code runs) for array operands, its scalar code's for the ends of 1-D data (NumPy
scalars there; a product that needs promoting, complex64 data with a NumPy
float64, goes through the array loop), the plain form for complex64 data read
backwards along a 1-D view, and the interpreter for complex64 views of more
dimensions read backwards (NumPy's iterator decides which loop runs there)."""
from __future__ import annotations

from ...typing_rules import promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays.creation import allocate
from ..arrays.reductions import loops
from ..python import operators as ops
from ..python.operators import C

I, F = T.INT64, T.FLOAT64


def _op(op, x, y, t):
    return N.BinOp(op, x, y, t)


def _arith(L, op, x, y, t):
    """``x op y`` ("add", "sub", "fdiv") of values of type ``t``, complex
    ones as NumPy computes them."""
    if not t.is_complex:
        return N.BinOp(op, x, y, t)
    if op == "fdiv":
        from ..arrays.elementwise import np_complex_div
        return np_complex_div(L, x, y, t)
    return ops.complex_arith(L, op, x, y, t)


def _neg(x):
    return N.UnOp("neg", x, x.type)


def _plus(k, e):
    return N.BinOp("add", e, C(k, I), I)


class Stencil:
    """The gradient along ``axis`` of the data ``f`` being written into ``out``
    (of ``f``'s shape ``dims``): the data's values as the result type, and the
    loops over the inside and over the two ends."""

    def __init__(self, L, f, out, dims, axis, edge):
        self.L, self.f, self.out, self.dims, self.axis = L, f, out, dims, axis
        self.edge, self.t = edge, out.type.dtype
        self.n = dims[axis]
        self.last = L.let(_plus(-1, self.n))
        self.forms = {}

    def products(self, where, t):
        """Prepare NumPy's rounding of complex products in ``t`` for the inside
        (``where`` "inside": views of all axes) or the ends ("ends": views
        without the axis; NumPy scalars for 1-D data): the form, and a run-time
        flag for the plain form (or None).  Before the loops: a complex64 view
        of more than one dimension read backwards re-runs the call in the
        interpreter when NumPy's loops round differently read backwards."""
        if not t.is_complex:      # (computed again in each block that multiplies)
            return
        from ..complex.product_forms import cmul_form
        L, f, bits = self.L, self.f, t.bits
        axes = [k for k in range(len(self.dims)) if where == "inside" or k != self.axis]
        if not axes:                # NumPy scalars: its scalar code, unless promoting
            self.forms[where, t] = cmul_form("operator" if t == self.t else "array", bits), None
            return
        form = cmul_form("array", bits)
        if form == cmul_form("array_reversed", bits) or f.type.layout == "C":
            self.forms[where, t] = form, None
            return
        back = None
        for k in axes:
            c = N.Cmp("lt", N.ArrayAttr(f, "stride", k, I), C(0, I), T.BOOL)
            back = c if back is None else ops.bor(back, c)
        back = L.let(back)
        if len(axes) > 1 or t != self.t:
            L.emit(N.If(cond=back, then=[N.Raise(
                exc=ValueError, deopt=True, line=L.line,
                message="np.gradient(): complex products of a view read backwards: "
                        "NumPy's iterator picks how they are rounded here")]))
            back = None
        self.forms[where, t] = form, back

    def mul(self, where, x, y, t):
        """``x * y`` in ``t`` (complex: NumPy's product, see :meth:`products`)."""
        if not t.is_complex:
            return _op("mul", x, y, t)
        from ..complex.product_forms import cmul_plain_if
        form, plain_if = self.forms[where, t]
        return cmul_plain_if(self.L, x, y, t, form, plain_if)

    def at(self, idx, k):
        """``f`` at ``idx`` with ``k`` along the axis, in the result type (NumPy
        converts integer data to float64 first)."""
        at = list(idx)
        at[self.axis] = k
        return self.L.let(ops.convert(self.L, N.Load(self.f, at, self.f.type.dtype), self.t))

    def sum3(self, where, coefs, values, t):
        """``a * x + b * y + c * z`` in ``t`` (NumPy's order), as the result type."""
        L = self.L
        terms = [self.mul(where, ops.convert(L, a, t), ops.convert(L, x, t), t)
                 for a, x in zip(coefs, values)]
        return ops.convert(L, _arith(L, "add", _arith(L, "add", terms[0], terms[1], t),
                                     terms[2], t), self.t)

    def inside(self, value):
        """``out[..., i, ...] = value(idx, i)`` for ``0 < i < n - 1``."""
        L, axis = self.L, self.axis
        dims = list(self.dims)
        dims[axis] = _plus(-2, self.n)

        def body(idx):
            at = list(idx)
            at[axis] = i = L.let(_plus(1, idx[axis]))
            L.emit(N.Store(array=self.out, indices=at, value=value(at, i)))
        loops(L, dims, body)

    def ends(self, first, last):
        """``out[..., 0, ...] = first(idx)`` and ``out[..., n - 1, ...] = last(idx)``."""
        L, axis = self.L, self.axis
        others = [d for k, d in enumerate(self.dims) if k != axis]

        def body(idx):
            at = list(idx)
            at.insert(axis, C(0, I))
            L.emit(N.Store(array=self.out, indices=list(at), value=first(at)))
            at[axis] = self.last
            L.emit(N.Store(array=self.out, indices=at, value=last(at)))
        loops(L, others, body, short=True)

    def one_sided(self, h0, h1, t):
        """First order: ``(f[1] - f[0]) / h0`` and ``(f[-1] - f[-2]) / h1``, the
        differences in the result type, the quotients in ``t``."""
        L = self.L

        def quotient(idx, hi, lo, h):
            d = _arith(L, "sub", self.at(idx, hi), self.at(idx, lo), self.t)
            return ops.convert(L, _arith(L, "fdiv", ops.convert(L, d, t), h, t), self.t)
        self.ends(lambda idx: quotient(idx, C(1, I), C(0, I), h0),
                  lambda idx: quotient(idx, self.last, _plus(-2, self.n), h1))

    def three_point(self, start, end, t):
        """Second order: ``a * f[0] + b * f[1] + c * f[2]`` with ``start``'s
        ``(a, b, c)``, ``a * f[-3] + b * f[-2] + c * f[-1]`` with ``end``'s, in ``t``."""
        def at(idx, ks):
            return [self.at(idx, k) for k in ks]
        n = self.n
        self.products("ends", t)
        self.ends(lambda idx: self.sum3("ends", start, at(idx, [C(k, I) for k in (0, 1, 2)]), t),
                  lambda idx: self.sum3("ends", end, at(idx, [_plus(-k, n) for k in (3, 2, 1)]),
                                        t))


def uniform(st: Stencil, s, strong: bool):
    """NumPy's formulas for the spacing ``s``, a Python number unless ``strong``
    (a NumPy scalar): ``(f[i + 1] - f[i - 1]) / (2. * s)`` inside; at the ends
    ``(f[1] - f[0]) / s`` or ``(-1.5 / s) * f[0] + (2. / s) * f[1] + (-0.5 / s) *
    f[2]`` (and ``0.5``, ``-2.``, ``1.5`` at the end)."""
    L, o = st.L, st.t
    k = s.type if strong and s.type.is_float else F     # of ``2. * s``
    q = promote(o, k) if strong else o                   # of the data with such a number
    sk = L.let(ops.convert(L, s, k))

    def scaled(c, op):                          # ``c op s`` (in k), as q
        return L.let(ops.convert(L, _op(op, C(c, k), sk, k), q))
    two = scaled(2.0, "mul")

    def central(idx, i):
        d = _arith(L, "sub", st.at(idx, _plus(1, i)), st.at(idx, _plus(-1, i)), o)
        return ops.convert(L, _arith(L, "fdiv", ops.convert(L, d, q), two, q), o)
    st.inside(central)
    if st.edge == 1:
        # ``array / s``: a Python number converted to the data's type (an int
        # through float64, as NumPy converts it), a NumPy scalar promoting
        e = promote(o, s.type) if strong else o
        h = L.let(ops.convert(L, s if strong else sk, e))
        st.one_sided(h, h, e)
        return
    if not strong:          # (Python's float division)
        L.raise_if(N.Cmp("eq", sk, C(0.0, F), T.BOOL), ZeroDivisionError,
                   "float division by zero")
    st.three_point([scaled(c, "fdiv") for c in (-1.5, 2.0, -0.5)],
                   [scaled(c, "fdiv") for c in (0.5, -2.0, 1.5)], q)


def differences(L, x, n, d):
    """NumPy's ``np.diff`` of the coordinates ``x`` (``n`` >= 2 of them) in ``d``
    (integers converted to float64 first), a new array."""
    h = L.let(allocate(L, T.ArrayType(d, 1, "C"), [_plus(-1, n)]))

    def body(idx):
        (j,) = idx
        hi, lo = (ops.convert(L, N.Load(x, [k], x.type.dtype), d) for k in (_plus(1, j), j))
        L.emit(N.Store(array=h, indices=[j], value=_op("sub", hi, lo, d)))
    loops(L, [_plus(-1, n)], body, short=True)
    return h


def all_equal(L, h):
    """NumPy's ``(diffx == diffx[0]).all()`` (False with a NaN) of the
    differences ``h`` (at least one)."""
    d = h.type.dtype
    first = L.let(N.Load(h, [C(0, I)], d))
    flag = L.temp(T.BOOL, "uniform")
    L.emit(N.Assign(target=flag, value=C(True, T.BOOL)))
    loops(L, [N.ArrayAttr(h, "shape", 0, I)], lambda idx: L.emit(N.Assign(
        target=flag, value=ops.band(N.Var(flag, T.BOOL),
                                    N.Cmp("eq", N.Load(h, idx, d), first, T.BOOL)))),
          short=True)
    return N.Var(flag, T.BOOL)


def coordinates(st: Stencil, h):
    """NumPy's formulas for coordinates with the differences ``h`` (type ``d``):
    inside ``a * f[i - 1] + b * f[i] + c * f[i + 1]`` with ``dx1, dx2 = h[i - 1],
    h[i]``, ``a = -(dx2) / (dx1 * (dx1 + dx2))``, ``b = (dx2 - dx1) / (dx1 *
    dx2)``, ``c = dx1 / (dx2 * (dx1 + dx2))`` (computed in ``d`` for the whole
    axis first, as NumPy does); at the ends ``(f[1] - f[0]) / h[0]`` or NumPy's
    second-order coefficients from ``h[0], h[1]`` (``h[-2], h[-1]``)."""
    L, o, n = st.L, st.t, st.n
    d = h.type.dtype
    p = promote(o, d)
    m = _plus(-2, n)
    abc = L.let(allocate(L, T.ArrayType(d, 2, "C"), [C(3, I), m]))

    def coefficients(idx):
        (j,) = idx
        dx1, dx2 = (L.let(N.Load(h, [k], d)) for k in (j, _plus(1, j)))
        for r, v in enumerate((
                _op("fdiv", _neg(dx2), _op("mul", dx1, _op("add", dx1, dx2, d), d), d),
                _op("fdiv", _op("sub", dx2, dx1, d), _op("mul", dx1, dx2, d), d),
                _op("fdiv", dx1, _op("mul", dx2, _op("add", dx1, dx2, d), d), d))):
            L.emit(N.Store(array=abc, indices=[C(r, I), j], value=v))
    loops(L, [m], coefficients, short=True)
    st.products("inside", p)
    st.inside(lambda idx, i: st.sum3("inside",
        [N.Load(abc, [C(r, I), _plus(-1, i)], d) for r in range(3)],
        [st.at(idx, _plus(k, i)) for k in (-1, 0, 1)], p))
    if st.edge == 1:
        st.one_sided(L.let(ops.convert(L, N.Load(h, [C(0, I)], d), p)),
                     L.let(ops.convert(L, N.Load(h, [_plus(-2, n)], d), p)), p)
        return
    dx1, dx2 = (L.let(N.Load(h, [C(k, I)], d)) for k in (0, 1))
    two = _op("mul", C(2.0, d), dx1, d)
    start = [_op("fdiv", _neg(_op("add", two, dx2, d)),
                 _op("mul", dx1, _op("add", dx1, dx2, d), d), d),
             _op("fdiv", _op("add", dx1, dx2, d), _op("mul", dx1, dx2, d), d),
             _op("fdiv", _neg(dx1), _op("mul", dx2, _op("add", dx1, dx2, d), d), d)]
    dx1, dx2 = (L.let(N.Load(h, [_plus(-k, n)], d)) for k in (3, 2))
    two = _op("mul", C(2.0, d), dx2, d)
    end = [_op("fdiv", dx2, _op("mul", dx1, _op("add", dx1, dx2, d), d), d),
           _op("fdiv", _neg(_op("add", dx2, dx1, d)), _op("mul", dx1, dx2, d), d),
           _op("fdiv", _op("add", two, dx1, d), _op("mul", dx2, _op("add", dx1, dx2, d), d), d)]
    st.three_point([L.let(c) for c in start], [L.let(c) for c in end], p)
