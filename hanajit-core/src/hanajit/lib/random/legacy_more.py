"""The legacy ``np.random`` distributions beyond ``legacy.py``'s uniform and
normal ones: ``exponential``, ``poisson``, ``binomial``, ``gamma`` ...
``hypergeometric``, on NumPy's global ``RandomState``.

Each call takes scalar parameters (floats as ``PyFloat_AsDouble`` reads them;
``binomial``'s ``n`` and ``hypergeometric``'s three an integer type) and
``size=None``, an int or a tuple of ints.  As ``mtrand.pyx``'s ``cont``/``disc``
it checks the parameters first (``check_constraint``'s rules and messages), then
allocates, then draws each element in order with the C function ``mtrand.pyx``
calls (``legacy_distributions.py``, or the Generator's port of a shared
``random_*``) through the global ``RandomState``'s bit generator and its cached
Gaussian.  Float results are float64 (a Python float without ``size``), counts
int64 (a Python int).  Array parameters and other argument types fall back to
the interpreter.  The same templates with ``method`` are the methods of a
``RandomState`` (``random_state.py``).
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import binomial_algorithm as hb
from . import distributions as hr
from . import legacy_distributions as ld
from . import more_distributions as md
from .generator import (call_void, is_absent_expr, is_integer_type, is_real_type,
                        new_array, sized)
from .legacy import OnState
from ..registry import CallTemplate, bind_arguments, register

F, I = T.FLOAT64, T.INT64


class LegacyDistribution(OnState, CallTemplate):
    """``np.random.<name>(*ints, *floats, size=None)`` (or, ``method``, the
    ``RandomState`` method): ``check(*values)`` once, then ``draw(rng, *values)``
    -- ``draw(rng, st, *values)`` for the ``GAUSSIAN`` ones -- once or for each
    element of a new array."""

    def __init__(self, name, floats, draw, check=None, defaults=None, result=F,
                 ints=(), fill=None, method=False):
        self.name, self.method = name, method
        self.paths = () if method else (f"numpy.random.{name}",)
        self.ints, self.floats = ints, floats
        self.params = ints + floats + ("size",)
        self.draw, self.check, self.fill = draw, check, fill
        self.defaults, self.result = defaults or {}, result

    def bind(self, args, kwargs):
        return bind_arguments(f"numpy.random.{self.name}", self.params, self.rest(args),
                              kwargs)

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        bound = self.bind(args, kwargs)
        for p in self.ints + self.floats:
            if p not in bound and p not in self.defaults:
                raise Incompatible(f"np.random.{self.name}() missing argument '{p}'")
            ok = is_integer_type if p in self.ints else is_real_type
            if p in bound and not ok(bound[p]):
                raise Incompatible(f"np.random.{self.name}() with {p} of type {bound[p]}")
        return sized(bound, self.result)

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        values = [L.let(ops.convert(L, bound[p], I)) for p in self.ints]
        values += [L.let(ops.convert(L, bound[p], F)) if p in bound
                   else ops.C(self.defaults[p], F) for p in self.floats]
        if self.check is not None:
            call_void(L, self.check, values)
        st = self.state(L, args)
        words = N.HostArray("", 4, T.ArrayType(I, 1, "C"), address=st)
        rng = L.let(N.MakeGenerator(words, T.GENERATOR, start=N.Const(0, I)))
        lead = [rng, st] if self.name in GAUSSIAN else [rng]
        if is_absent_expr(bound.get("size")):
            return L.call_helper(self.draw, lead + values)
        out, flat = new_array(L, call.type, bound["size"])
        if self.fill is not None:       # (a set-up made once for every element)
            call_void(L, self.fill, [rng, flat] + values)
            return out
        i = L.temp(I, "i")
        body, v = L.sub_block(lambda: L.call_helper(self.draw, lead + values))
        body.append(N.Store(array=flat, indices=[N.Var(i, I)], value=v))
        L.emit(N.ForCount(counter=i, count=N.ArrayAttr(flat, "shape", 0, I), body=body))
        return out


# the draws that take the state too: their Gaussians use its cached one
GAUSSIAN = {"gamma", "standard_gamma", "beta", "chisquare", "standard_t", "lognormal",
            "standard_cauchy", "f", "wald", "negative_binomial", "noncentral_chisquare",
            "noncentral_f"}
LOC_SCALE = {"loc": 0.0, "scale": 1.0}


def legacy_distributions(method=False):
    """The templates of the 29 distributions (or ``RandomState`` methods)."""
    def D(*args, **kwargs):
        return LegacyDistribution(*args, method=method, **kwargs)
    return [
        D("exponential", ("scale",), ld.exponential, md.check_scale,
          {"scale": 1.0}),
        D("standard_exponential", (), ld.standard_exponential),
        D("poisson", ("lam",), hr.poisson_draw, hr.check_poisson,
          {"lam": 1.0}, I),
        D("binomial", ("p",), ld.binomial, hb.check_binomial, result=I,
          ints=("n",), fill=hb.fill_binomial_drawn),
        D("geometric", ("p",), ld.geometric, md.check_p, result=I),
        D("gamma", ("shape", "scale"), ld.gamma, md.check_gamma,
          {"scale": 1.0}),
        D("standard_gamma", ("shape",), ld.standard_gamma, md.check_shape),
        D("beta", ("a", "b"), ld.beta, md.check_beta),
        D("chisquare", ("df",), ld.chisquare, md.check_df),
        D("standard_t", ("df",), ld.standard_t, md.check_df),
        D("lognormal", ("mean", "sigma"), ld.lognormal, md.check_sigma,
          {"mean": 0.0, "sigma": 1.0}),
        D("laplace", ("loc", "scale"), md.laplace_draw, md.check_loc_scale,
          LOC_SCALE),
        D("logistic", ("loc", "scale"), md.logistic_draw,
          md.check_loc_scale, LOC_SCALE),
        D("gumbel", ("loc", "scale"), md.gumbel_draw, md.check_loc_scale,
          LOC_SCALE),
        D("rayleigh", ("scale",), ld.rayleigh, md.check_scale,
          {"scale": 1.0}),
        D("weibull", ("a",), ld.weibull, md.check_a_non_negative),
        D("pareto", ("a",), ld.pareto, md.check_a_positive),
        D("power", ("a",), ld.power, md.check_a_positive),
        D("standard_cauchy", (), ld.standard_cauchy),
        D("triangular", ("left", "mode", "right"), md.triangular_draw,
          md.check_triangular),
        D("f", ("dfnum", "dfden"), ld.f, md.check_f),
        D("wald", ("mean", "scale"), ld.wald, md.check_wald),
        D("negative_binomial", ("n", "p"), ld.negative_binomial,
          ld.check_negative_binomial, result=I),
        D("noncentral_chisquare", ("df", "nonc"), ld.noncentral_chisquare,
          md.check_noncentral_chisquare),
        D("noncentral_f", ("dfnum", "dfden", "nonc"), ld.noncentral_f,
          md.check_noncentral_f),
        D("vonmises", ("mu", "kappa"), ld.vonmises, md.check_vonmises),
        D("logseries", ("p",), ld.logseries, md.check_logseries, result=I),
        D("zipf", ("a",), ld.zipf, md.check_zipf, result=I),
        D("hypergeometric", (), ld.hypergeometric,
          ld.check_hypergeometric, result=I,
          ints=("ngood", "nbad", "nsample"))]


for _call in legacy_distributions():
    register(_call)
