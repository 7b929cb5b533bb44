"""``np.random.multinomial(n, pvals, size=None)`` and ``np.random.dirichlet(alpha,
size=None)`` on NumPy's global ``RandomState`` and, with ``method``, the
``RandomState`` methods (``random_state.py``): rows of ``len(pvals)`` (or
``len(alpha)``) items shaped ``size + (len,)``, drawn by
``legacy_vector_draws.py`` through the state's bit generator (and, for
``dirichlet``'s gammas, its cached Gaussian).

As ``more_methods.VectorMethod`` for the Generator: ``n`` an integer (a float
falls back: Cython's ``long`` refuses it), ``pvals``/``alpha`` a 1-D array of a
real dtype or a tuple of reals (float32 ``pvals`` fall back: NumPy's message for
their sum differs); the checks, then the array (NumPy's ValueError for a
negative dimension), then ``n < 0``, then the draws.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..registry import CallTemplate, bind_arguments, register
from . import legacy_vector_draws as lv
from .generator import call_void
from .legacy import OnState
from .more_methods import vector_call_type, vector_rows

I = T.INT64


class LegacyVector(OnState, CallTemplate):
    """``multinomial`` / ``dirichlet`` of a ``RandomState``; ``scalar`` names the
    integer parameter (or None)."""

    def __init__(self, name, params, vector, scalar, check, fill, result, method=False):
        self.name, self.params, self.method = name, params, method
        self.paths = () if method else (f"numpy.random.{name}",)
        self.vector, self.scalar, self.result = vector, scalar, result
        self.check, self.fill = check, fill

    def bind(self, args, kwargs):
        return bind_arguments(f"numpy.random.{self.name}", self.params, self.rest(args),
                              kwargs)

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        what = f"{'RandomState' if self.method else 'np.random'}.{self.name}()"
        return vector_call_type(self, self.bind(args, kwargs), what)

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        vec, out, flat = vector_rows(L, call, bound[self.vector], self.check,
                                     bound.get("size"))
        st = self.state(L, args)
        words = N.HostArray("", 4, T.ArrayType(I, 1, "C"), address=st)
        rng = L.let(N.MakeGenerator(words, T.GENERATOR, start=N.Const(0, I)))
        if self.scalar is None:
            call_void(L, self.fill, [rng, st, flat, vec])
        else:
            n = L.let(ops.convert(L, bound[self.scalar], I))
            call_void(L, self.fill, [rng, flat, n, vec])
        return out


def legacy_vectors(method=False):
    """The two templates (``RandomState`` methods with ``method``), by name."""
    return {"multinomial": LegacyVector("multinomial", ("n", "pvals", "size"), "pvals", "n",
                                        lv.check_pvals, lv.fill_multinomial, I, method),
            "dirichlet": LegacyVector("dirichlet", ("alpha", "size"), "alpha", None,
                                      lv.check_alpha, lv.fill_dirichlet, T.FLOAT64, method)}


for _call in legacy_vectors().values():
    register(_call)
