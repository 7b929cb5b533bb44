"""``RandomState.multinomial(n, pvals, size=None)`` and ``RandomState.dirichlet(alpha,
size=None)`` (and the ``np.random`` functions): the loops of NumPy 2's
``mtrand.pyx``, compiled by hanajit.

``multinomial`` is ``legacy_random_multinomial``, which is the Generator's
``random_multinomial`` (``vector_draws.fill_multinomial``: the shared
``random_binomial``, not the legacy one), but ``mtrand.pyx`` checks differently:
no error for an empty ``pvals`` (an array of no items; ``n < 0`` still raises).
``dirichlet`` always normalises ``legacy_standard_gamma`` variates (no stick
breaking), refuses ``alpha <= 0`` (NaN passes, as NumPy) and divides as C does
(``1 / 0`` is infinity, ``0 * inf`` NaN).
"""
from .. import prims
from .legacy_distributions import standard_gamma
from .vector_draws import fill_multinomial as fill_rows, kahan_sum


def check_pvals(p):
    """``mtrand.pyx``'s checks of a 1-D float64 ``pvals``, in its order."""
    d = p.shape[0]
    for i in range(d):
        if not (p[i] >= 0.0) or not (p[i] <= 1.0):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if d > 0 and kahan_sum(p, d - 1) > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")


def fill_multinomial(rng, out, n, p):
    """The rows of ``out`` after ``n``'s check (no rows of no items)."""
    if n < 0:
        raise ValueError("n < 0")
    if p.shape[0] > 0:
        fill_rows(rng, out, n, p)


def check_alpha(alpha):
    """``np.any(np.less_equal(alpha, 0))``."""
    for j in range(alpha.shape[0]):
        if alpha[j] <= 0.0:
            raise ValueError("alpha <= 0")


def fill_dirichlet(rng, st, out, alpha):
    """The rows of ``out`` (1-D, rows of ``len(alpha)`` float64)."""
    k = alpha.shape[0]
    i = 0
    total = out.shape[0]
    while i < total:
        acc = 0.0
        for j in range(k):
            out[i + j] = standard_gamma(rng, st, alpha[j])
            acc = acc + out[i + j]
        invacc = prims.fdiv(1.0, acc)
        for j in range(k):
            out[i + j] = out[i + j] * invacc
        i = i + k
