"""``np.random.Generator`` methods on a generator passed as an argument.

A ``Generator`` argument has the IR type ``GeneratorType``: four int64 words,
its bit generator's state pointer and ``next_uint64``/``next_uint32``/
``next_double`` C functions, taken from the documented ``bit_generator.ctypes``
interface at the call (``hanajit_cpu.cwrapper`` on the Python path,
``hanajit_cpu.nativerandom`` in the generated dispatcher).  A draw is one
``RandomBits`` (``prims.rng_next_*``); the distributions are NumPy's C
algorithms written in Python (``distributions.py``), so a seeded program
draws the same numbers compiled and interpreted and leaves the same
``bit_generator.state``.

Supported: ``random`` (float64 and float32), ``standard_normal``, ``normal``,
``uniform``, ``exponential``, ``standard_exponential``, ``integers`` (every
integer dtype and bool, ``endpoint=``), ``poisson`` and the sixteen of
``more_distributions.py`` (gamma, beta, geometric ...), scalar and ``size=``
forms (an int or a tuple of ints); ``choice``, ``shuffle`` and ``permutation`` are in ``choice.py``;
float32 ``standard_normal``/``standard_exponential``/``standard_gamma``, ``method='inv'``,
``hypergeometric``, ``multinomial``, ``dirichlet`` and
``multivariate_hypergeometric`` in ``more_methods.py``;
``multivariate_normal`` in ``multivariate_normal.py``.
Other methods and forms fall back to the interpreter naming the method.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import distributions as hr
from . import narrow_draws as nd
from ..registry import CallTemplate, bind_arguments, register

F, I = T.FLOAT64, T.INT64


# ------------------------------------------------------------------ primitives
class Draw(CallTemplate):
    """``prims.rng_next_<kind>(rng)``: one ``RandomBits`` assigned to a temporary
    (a draw has effects, so it is a statement of its own)."""

    def __init__(self, kind, rtype):
        self.kind, self.rtype = kind, rtype
        self.paths = (f"hanajit.lib.prims.rng_next_{kind}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or not isinstance(args[0], T.GeneratorType):
            raise Incompatible(f"prims.rng_next_{self.kind}(generator)")
        return self.rtype

    def lower(self, L, call, args, kwargs):
        name = L.temp(self.rtype, "draw")
        L.emit(N.Assign(target=name, value=N.RandomBits(args[0], self.kind, self.rtype)))
        return N.Var(name, self.rtype)


class Reinterpret(CallTemplate):
    """``prims.as_uint64(x)`` / ``prims.as_int64(x)``: the same 64 bits read with
    the other signedness (a ``Cast`` between 64-bit integers)."""

    def __init__(self, name, to):
        self.name, self.to = name, to
        self.paths = (f"hanajit.lib.prims.{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or not (isinstance(args[0], T.Scalar)
                                            and args[0].is_int and args[0].bits == 64):
            raise Incompatible(f"prims.{self.name}(a 64-bit integer)")
        return self.to

    def lower(self, L, call, args, kwargs):
        a = args[0]
        return a if a.type == self.to else N.Cast(a, self.to)


register(Draw("uint64", T.UINT64))
register(Draw("uint32", T.UINT32))
register(Draw("double", T.FLOAT64))
register(Reinterpret("as_uint64", T.UINT64))
register(Reinterpret("as_int64", T.INT64))


# --------------------------------------------------------------------- methods
def is_real_type(t) -> bool:
    """Is ``t`` a non-complex scalar (a real distribution parameter)?"""
    return isinstance(t, T.Scalar) and not t.is_complex


def is_integer_type(t) -> bool:
    """Is ``t`` a bool or integer scalar other than uint64 (an integer
    distribution parameter)?"""
    return isinstance(t, T.Scalar) and (t.is_bool or t.is_int) and t != T.UINT64


def is_absent(t) -> bool:
    """Is the argument type absent (not passed, or None)?"""
    return t is None or t == T.NONE


def _const(t, *values) -> bool:
    return t is None or (isinstance(t, T.ConstType) and any(
        t.value is v or (isinstance(v, str) and t.value == v) for v in values))


class Method(CallTemplate):
    """One ``Generator`` method: its parameters (after ``self``) with NumPy's
    defaults, which of them are floats (``PyFloat_AsDouble``), the helper of
    the scalar form and, for ``size=``, the check made before anything is
    allocated and either the helper filling the new array or ``draw``, the
    helper of one value without the checks, called for each element."""

    result = F

    def __init__(self, name, params, helper=None, floats=(), defaults=None,
                 fill=None, check=None, result=None, draw=None):
        self.name, self.params, self.helper = name, params, helper
        self.floats, self.defaults = floats, defaults or {}
        self.fill, self.check, self.draw = fill, check, draw
        self.result = result or self.result

    def bind(self, args, kwargs):
        return bind_arguments(f"Generator.{self.name}", self.params, args[1:], kwargs)

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        if not is_absent(bound.get("out")):
            raise Incompatible(f"Generator.{self.name}() with out=")
        if not _const(bound.get("dtype"), *_float64_dtypes()):
            raise Incompatible(f"Generator.{self.name}() with a dtype other than float64")
        if not _const(bound.get("method"), "zig"):
            raise Incompatible(f"Generator.{self.name}() with method other than 'zig'")
        for p in self.floats:
            if p not in bound and p not in self.defaults:
                raise Incompatible(f"Generator.{self.name}() missing argument '{p}'")
            if p in bound and not is_real_type(bound[p]):
                raise Incompatible(f"Generator.{self.name}() with {p} of type {bound[p]}")
        return sized(bound, self.result)

    def values(self, L, bound):
        return [ops.convert(L, bound[p], F) if p in bound else ops.C(self.defaults[p], F)
                for p in self.floats]

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        values = [L.let(v) for v in self.values(L, bound)]
        if is_absent_expr(bound.get("size")) and self.helper is not None:
            return L.call_helper(self.helper, [args[0]] + values)
        if self.check is not None:
            call_void(L, self.check, values)
        if is_absent_expr(bound.get("size")):          # (the checks, then one draw)
            return L.call_helper(self.draw, [args[0]] + values)
        out, flat = new_array(L, call.type, bound["size"])
        if self.fill is not None:
            call_void(L, self.fill, [args[0], flat] + values)
            return out
        i = L.temp(I, "i")
        body, v = L.sub_block(lambda: L.call_helper(self.draw, [args[0]] + values))
        body.append(N.Store(array=flat, indices=[N.Var(i, I)], value=v))
        L.emit(N.ForCount(counter=i, count=N.ArrayAttr(flat, "shape", 0, I), body=body))
        return out


class Random(Method):
    """``rng.random()``: ``next_double`` itself; with ``dtype=np.float32``,
    ``next_float`` (a Python float without a size, as NumPy's Cython gives it)."""

    def __init__(self):
        super().__init__("random", ("size", "dtype", "out"), fill=hr.fill_random)

    @staticmethod
    def single(t) -> bool:
        """Is the ``dtype=`` argument's type float32's constant?"""
        return not is_absent(t) and _const(t, *_float32_dtypes())

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        if not self.single(bound.get("dtype")):
            return super().typer(inf, call, args, kwargs)
        if not is_absent(bound.get("out")):
            raise Incompatible("Generator.random() with out=")
        return F if is_absent(bound.get("size")) else sized(bound, T.FLOAT32)

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        scalar = is_absent_expr(bound.get("size"))
        single = self.single(getattr(bound.get("dtype"), "type", None))
        if single and scalar:
            return L.call_helper(nd.random_float, [args[0]])
        if single:
            out, flat = new_array(L, call.type, bound["size"])
            call_void(L, nd.fill_random_float, [args[0], flat])
            return out
        if scalar:
            return Draw("double", F).lower(L, call, args[:1], {})
        return super().lower(L, call, args, kwargs)


class Integers(Method):
    """``rng.integers(low, high=None, size=None, dtype=np.int64, endpoint=False)``:
    int64 and uint64 by ``bounded_uint64``, the narrower dtypes by NumPy's
    buffered draws (``narrow_draws.py``), after the checks against the dtype's
    bounds that ``_rand_<type>`` makes first."""

    def __init__(self):
        super().__init__("integers", ("low", "high", "size", "dtype", "endpoint"))

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        if "low" not in bound:
            raise Incompatible("Generator.integers() missing argument 'low'")
        dt = integers_dtype(bound.get("dtype"))
        for p in ("low", "high"):
            t = bound.get(p)
            if not (is_integer_type(t) or (p == "high" and is_absent(t))):
                raise Incompatible(f"Generator.integers() with {p} of type {t}")
        end = bound.get("endpoint")
        if not (end is None or end == T.BOOL):
            raise Incompatible("Generator.integers() with a non-bool endpoint")
        return sized(bound, dt)

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        low, high = int_bounds(L, bound)
        low, high = L.let(low), L.let(high)
        end = L.let(bound.get("endpoint", ops.C(False, T.BOOL)))
        dt = draws_dtype(call, bound.get("size"))
        table = {"int64": (hr.integers, hr.fill_integers, [end]),
                 "uint64": (nd.uint64, nd.fill_uint64, [end]),
                 "narrow": (nd.narrow, nd.fill_narrow32 if dt.bits == 32 else nd.fill_narrow,
                            [end] + narrow_args(dt) + [ops.C(False, T.BOOL)],
                            [end] + narrow_args(dt)[:1 if dt.bits < 32 else 0]
                            + [ops.C(False, T.BOOL)])}
        return integer_draws(L, call, bound.get("size"), [args[0]], low, high, end,
                             table)


def draws_dtype(call, size):
    """The dtype of integer draws: the call's type, or its array's."""
    return call.type if is_absent_expr(size) else call.type.dtype


def integer_draws(L, call, size, lead, low, high, end, table):
    """Integer draws of ``integers``/``randint``: the dtype's bound checks (for a
    size, only when it is not empty), then the scalar helper or the fill helper
    of ``table[kind]`` -- ``(one, fill, trailing args)`` for the kinds "int64",
    "uint64" and "narrow" (which has the fill's trailing args fourth) -- called
    with ``lead`` (the generator or state, if any), the new 1-D array (fill; a
    narrow dtype's as the unsigned integers of its width, whose bits the draws
    are), ``low``, ``high`` and the trailing arguments."""
    dt = draws_dtype(call, size)
    kind = "int64" if dt == I else "uint64" if dt == T.UINT64 else "narrow"
    one, fill, tail, *fill_tail = table[kind]
    if is_absent_expr(size):
        bound_checks(L, dt, low, high, end, None)
        v = L.call_helper(one, lead + [low, high] + tail)
        return N.Cast(v, dt) if kind == "narrow" else v
    # the bound checks unless the size has no items (NumPy's np.prod(size) == 0),
    # before a negative dimension is reported
    def before(n):
        bound_checks(L, dt, low, high, end, n)
        call_void(L, hr.check_integers, [low, high, end, n])
    out, flat = new_array(L, call.type, size, before=before)
    if kind == "narrow":
        bits = max(8, dt.bits)
        flat = L.let(N.ArrayView(flat, ops.C(0, I), [N.ArrayAttr(flat, "shape", 0, I)],
                                 [ops.C(bits // 8, I)],
                                 T.ArrayType(T.Scalar("u", bits), 1, "C")))
        tail = fill_tail[0]
    call_void(L, fill, lead + [flat, low, high] + tail)
    return out


def narrow_args(dt):
    """The ``bits`` and ``signed`` arguments of ``narrow_draws`` for dtype ``dt``."""
    return [ops.C(max(dt.bits, 1), I), ops.C(dt.kind == "i", T.BOOL)]


def dtype_name(t, what, kinds: str) -> str:
    """The NumPy name of a constant ``dtype=`` argument's dtype (a NumPy type,
    its name or code, ``int``, ``bool``) of one of the dtype ``kinds``; another
    falls back (NumPy raises TypeError)."""
    if not isinstance(t, T.ConstType):
        raise Incompatible(f"{what} with a dtype that is not a constant")
    import numpy as np
    try:
        name = np.dtype(t.value).name
    except TypeError:
        raise Incompatible(f"{what} with dtype {t.value!r}") from None
    if np.dtype(name).kind not in kinds:
        raise Incompatible(f"{what} with dtype {name} (NumPy raises TypeError)")
    return name


def integers_dtype(t, what="Generator.integers()"):
    """The scalar type of ``integers``' / ``randint``'s ``dtype=``."""
    return I if is_absent(t) else T.BY_NAME[dtype_name(t, what, "biu")]


def bound_checks(L, dt, low, high, end, count):
    """``_rand_<type>``'s checks of ``low`` and the inclusive ``high`` against the
    dtype, made only when ``count`` (the product of the size's dimensions, if
    any) is not 0."""
    checks = dtype_bounds(L, dt, low, high, end)
    if checks and count is not None:
        checks = [N.If(cond=N.Cmp("ne", count, ops.C(0, I), T.BOOL), then=checks,
                       line=L.line)]
    for c in checks:
        L.emit(c)


def dtype_bounds(L, dt, low, high, end):
    """``_rand_<type>``'s checks of ``low`` and the inclusive ``high`` against the
    dtype (int64 arguments: only what can fail), as statements."""
    if dt.kind == "b":
        lb, ub = 0, 1
    elif dt.kind == "u":
        lb, ub = 0, (1 << dt.bits) - 1
    else:
        lb, ub = -(1 << (dt.bits - 1)), (1 << (dt.bits - 1)) - 1
    out = []
    if lb > -(1 << 63):
        out.append(N.If(cond=N.Cmp("lt", low, ops.C(lb, I), T.BOOL), then=[N.Raise(
            exc=ValueError, message=f"low is out of bounds for {dt.name}", line=L.line)],
            line=L.line))
    if ub < (1 << 63) - 1:          # high > ub, or high - 1 > ub when open
        limit = N.BinOp("sub", ops.C(ub + 1, I), N.Cast(end, I), I)
        out.append(N.If(cond=N.Cmp("gt", high, limit, T.BOOL), then=[N.Raise(
            exc=ValueError, message=f"high is out of bounds for {dt.name}", line=L.line)],
            line=L.line))
    return out


class Poisson(Method):
    """``rng.poisson(lam=1.0, size=None)``: int64 counts."""

    result = I

    def __init__(self):
        super().__init__("poisson", ("lam", "size"), hr.poisson, ("lam",), {"lam": 1.0},
                         fill=hr.fill_poisson, check=hr.check_poisson)


class Binomial(Method):
    """``rng.binomial(n, p, size=None)``: int64 counts (``binomial_algorithm``);
    ``n`` an integer, ``p`` a real."""

    result = I

    def __init__(self):
        from . import binomial_algorithm as hb
        super().__init__("binomial", ("n", "p", "size"), None, ("p",),
                         draw=hb.binomial_draw, check=hb.check_binomial,
                         fill=hb.fill_binomial)

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        if not is_integer_type(bound.get("n")):
            raise Incompatible(f"Generator.binomial() with n of type {bound.get('n')}")
        return super().typer(inf, call, args, kwargs)

    def values(self, L, bound):
        return [ops.convert(L, bound["n"], I)] + super().values(L, bound)


def sized(bound, t):
    """The result type: a scalar without ``size``, else a C-contiguous array of
    as many dimensions as the size has (an int or a tuple of ints)."""
    size = bound.get("size")
    if is_absent(size):
        return t
    from ..arrays.creation import shape_types
    return T.ArrayType(t, shape_types(size), "C")


def int_bounds(L, bound):
    """``low`` and ``high`` as int64 (``integers``, ``randint``): ``high`` absent
    means ``[0, low)``, as NumPy reads it."""
    low = ops.convert(L, bound["low"], I)
    high = bound.get("high")
    if high is None or high.type == T.NONE:
        return ops.C(0, I), low
    return low, ops.convert(L, high, I)


def is_absent_expr(e) -> bool:
    """Is the lowered argument absent (not passed, or None)?"""
    return e is None or e.type == T.NONE


def new_array(L, t: T.ArrayType, size, before=None):
    """A new array of type ``t`` with the shape ``size`` (NumPy's ValueError for a
    negative dimension), and a 1-D view of all its elements in order.  With
    ``before``, ``before(n)`` first emits what comes before the array is made
    (``_rand_int64``'s bound checks), ``n`` the product of the dimensions."""
    from ..arrays.creation import allocate, shape_values
    dims = shape_values(L, size, check=before is None)
    n = dims[0] if dims else ops.C(1, I)          # size=(): a 0-d array of one item
    for d in dims[1:]:
        n = N.BinOp("mul", n, d, I)
    if before is not None:
        n = L.let(n)
        before(n)
    out = allocate(L, t, dims)
    flat_t = T.ArrayType(t.dtype, 1, "C")
    itemsize = max(1, t.dtype.bits // 8)
    flat = L.let(N.ArrayView(out, ops.C(0, I), [L.let(n)], [ops.C(itemsize, I)], flat_t))
    return out, flat


def call_void(L, helper, args):
    """A helper called for its effects (it returns None)."""
    sym, _ = L.ctx.helper(helper, tuple(a.type for a in args))
    L.emit(N.ExprStmt(value=N.Call(sym, list(args), T.NONE)))


def _float64_dtypes():
    import numpy as np
    return (np.float64, float, "float64", "d", "f8")


def _float32_dtypes():
    import numpy as np
    return (np.float32, "float32", "f", "f4")


METHODS = {
    "random": Random(),
    "standard_normal": Method("standard_normal", ("size", "dtype", "out"),
                              hr.standard_normal, fill=hr.fill_standard_normal),
    "standard_exponential": Method("standard_exponential",
                                   ("size", "dtype", "method", "out"),
                                   hr.standard_exponential,
                                   fill=hr.fill_standard_exponential),
    "normal": Method("normal", ("loc", "scale", "size"), hr.normal, ("loc", "scale"),
                     {"loc": 0.0, "scale": 1.0}, fill=hr.fill_normal,
                     check=hr.check_scale2),
    "exponential": Method("exponential", ("scale", "size"), hr.exponential, ("scale",),
                          {"scale": 1.0}, fill=hr.fill_exponential,
                          check=hr.check_scale),
    "uniform": Method("uniform", ("low", "high", "size"), hr.uniform, ("low", "high"),
                      {"low": 0.0, "high": 1.0}, fill=hr.fill_uniform,
                      check=hr.check_uniform),
    "integers": Integers(),
    "poisson": Poisson(),
    "binomial": Binomial(),
}


def _more(name, floats, defaults=None, result=None):
    """A method of ``more_distributions``: ``name_draw(rng, *floats)`` and, when
    it has parameters, its ``check_*`` (called first, once)."""
    from . import more_distributions as md
    checks = {"gamma": md.check_gamma, "standard_gamma": md.check_shape,
              "beta": md.check_beta, "chisquare": md.check_df, "standard_t": md.check_df,
              "lognormal": md.check_sigma, "laplace": md.check_loc_scale,
              "logistic": md.check_loc_scale, "gumbel": md.check_loc_scale,
              "rayleigh": md.check_scale, "weibull": md.check_a_non_negative,
              "pareto": md.check_a_positive, "power": md.check_a_positive,
              "triangular": md.check_triangular, "geometric": md.check_p,
              "f": md.check_f, "wald": md.check_wald, "zipf": md.check_zipf,
              "noncentral_chisquare": md.check_noncentral_chisquare,
              "noncentral_f": md.check_noncentral_f, "vonmises": md.check_vonmises,
              "logseries": md.check_logseries,
              "negative_binomial": md.check_negative_binomial}
    return Method(name, floats + ("size",), None, floats, defaults,
                  draw=getattr(md, f"{name}_draw"), check=checks.get(name), result=result)


METHODS.update({
    "gamma": _more("gamma", ("shape", "scale"), {"scale": 1.0}),
    "standard_gamma": _more("standard_gamma", ("shape",)),
    "beta": _more("beta", ("a", "b")),
    "chisquare": _more("chisquare", ("df",)),
    "standard_t": _more("standard_t", ("df",)),
    "lognormal": _more("lognormal", ("mean", "sigma"), {"mean": 0.0, "sigma": 1.0}),
    "laplace": _more("laplace", ("loc", "scale"), {"loc": 0.0, "scale": 1.0}),
    "logistic": _more("logistic", ("loc", "scale"), {"loc": 0.0, "scale": 1.0}),
    "gumbel": _more("gumbel", ("loc", "scale"), {"loc": 0.0, "scale": 1.0}),
    "rayleigh": _more("rayleigh", ("scale",), {"scale": 1.0}),
    "weibull": _more("weibull", ("a",)),
    "pareto": _more("pareto", ("a",)),
    "power": _more("power", ("a",)),
    "standard_cauchy": _more("standard_cauchy", ()),
    "triangular": _more("triangular", ("left", "mode", "right")),
    "geometric": _more("geometric", ("p",), result=I),
    "f": _more("f", ("dfnum", "dfden")),
    "wald": _more("wald", ("mean", "scale")),
    "negative_binomial": _more("negative_binomial", ("n", "p"), result=I),
    "noncentral_chisquare": _more("noncentral_chisquare", ("df", "nonc")),
    "noncentral_f": _more("noncentral_f", ("dfnum", "dfden", "nonc")),
    "vonmises": _more("vonmises", ("mu", "kappa")),
    "logseries": _more("logseries", ("p",), result=I),
    "zipf": _more("zipf", ("a",), result=I),
})


def method_template(name):
    """The template of ``Generator.<name>``, or None (the call falls back)."""
    if name == "bytes":
        from .random_state import ReturnsBytes
        return ReturnsBytes("Generator")
    if name in ("choice", "shuffle", "permutation"):
        from .choice import GENERATOR_METHODS
        return GENERATOR_METHODS[name]
    if name == "multivariate_normal":
        from .multivariate_normal import GENERATOR_METHOD
        return GENERATOR_METHOD
    from .more_methods import MORE_METHODS
    return MORE_METHODS.get(name) or METHODS.get(name)
