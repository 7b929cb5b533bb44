"""``Generator.multinomial(n, pvals, size=None)`` and ``Generator.dirichlet(alpha,
size=None)``: the loops of NumPy 2's ``_generator.pyx`` and ``random_multinomial``
(``distributions.c``), compiled by hanajit.

Each fills a new C-contiguous array, seen as one row of ``d`` (or ``k``) items
after another; NumPy's array starts zeroed (``np.zeros``), so the rows are
zeroed here before their draws.  ``multinomial`` draws a binomial for each item
but the last, of the probability left (``binomial_algorithm``).  ``dirichlet``
breaks a stick with beta variates when every ``alpha`` is below 0.1, else
normalises gamma variates; divisions are C's (``prims.fdiv``: 0/0 is NaN).
"""
from .. import prims
from .binomial_algorithm import binomial_draw
from .more_distributions import beta_draw, standard_gamma_draw


def kahan_sum(p, n):
    """``kahan_sum`` of the first ``n`` items (0.0 for ``n <= 0``)."""
    if n <= 0:
        return 0.0
    total = p[0]
    c = 0.0
    for i in range(1, n):
        y = p[i] - c
        t = total + y
        c = (t - total) - y
        total = t
    return total


def check_pvals(p):
    """``multinomial``'s checks of a 1-D float64 ``pvals``, in its order."""
    d = p.shape[0]
    if d == 0:
        raise ValueError("pvals must have at least 1 dimension and the last dimension "
                         "of pvals must be greater than 0.")
    for i in range(d):
        if not (p[i] >= 0.0) or not (p[i] <= 1.0):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if kahan_sum(p, d - 1) > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")


def fill_multinomial(rng, out, n, p):
    """The rows of ``out`` (1-D, rows of ``len(p)`` int64) after ``n``'s check:
    ``random_multinomial`` each."""
    if n < 0:
        raise ValueError("n < 0")
    d = p.shape[0]
    for offset in range(0, out.shape[0], d):
        for j in range(d):
            out[offset + j] = 0
        remaining_p = 1.0
        dn = n
        for j in range(d - 1):
            x = binomial_draw(rng, dn, prims.fdiv(p[j], remaining_p))
            out[offset + j] = x
            dn = dn - x
            if dn <= 0:
                break
            remaining_p -= p[j]
        if dn > 0:
            out[offset + d - 1] = dn


def check_alpha(alpha):
    """``dirichlet``'s check of a 1-D float64 ``alpha``."""
    for j in range(alpha.shape[0]):
        if alpha[j] < 0.0:
            raise ValueError("alpha < 0")


def fill_dirichlet(rng, out, alpha):
    """The rows of ``out`` (1-D, rows of ``len(alpha)`` float64)."""
    k = alpha.shape[0]
    for i in range(out.shape[0]):
        out[i] = 0.0
    if k == 0:
        return
    small = k > 0
    for j in range(k):
        if not alpha[j] < 0.1:            # (alpha.max() < 0.1: NaN is not)
            small = False
    if small:
        csum = alpha.copy()
        total = 0.0
        for j in range(k - 1, -1, -1):
            total += alpha[j]
            csum[j] = total
        if not total > 0.0:
            return
        for i in range(0, out.shape[0], k):
            acc = 1.0
            for j in range(k - 1):
                v = beta_draw(rng, alpha[j], csum[j + 1])
                out[i + j] = acc * v
                acc *= 1.0 - v
                if csum[j + 1] == 0.0:
                    break
            out[i + k - 1] = acc
        return
    for i in range(0, out.shape[0], k):
        acc = 0.0
        for j in range(k):
            out[i + j] = standard_gamma_draw(rng, alpha[j])
            acc = acc + out[i + j]
        invacc = prims.fdiv(1.0, acc)
        for j in range(k):
            out[i + j] = out[i + j] * invacc
