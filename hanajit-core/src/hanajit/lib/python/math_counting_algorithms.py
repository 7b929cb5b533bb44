"""``math.factorial``, ``math.comb`` and ``math.perm`` in Python source compiled by
hanajit (``math_counting.py`` types the calls): CPython's results and errors, and
a re-run in the interpreter (``Deopt``) where the result is an int beyond int64.
Library code's ints wrap, so every product is checked before it is made; each
intermediate product here is no larger than the result, so a result that fits
int64 never re-runs."""
from .helpers import Deopt

MAX64 = 2**63 - 1


def factorial(n):
    """``math.factorial(n)``: ``20!`` is the largest that fits int64."""
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    if n > 20:
        raise Deopt("math.factorial() beyond int64")
    r = 1
    for i in range(2, n + 1):
        r = r * i
    return r


def _out_of_range(n, k):
    """CPython's checks of ``comb``/``perm``: ValueError for a negative ``n`` (first)
    or ``k``; True when ``k > n`` (the result is 0)."""
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    return k > n


def comb(n, k):
    """``math.comb(n, k)``: the multiplicative formula from the smaller side,
    ``r = C(n - k + i, i)`` after step ``i``; each step divides exactly before it
    multiplies (``r * m / i`` as ``(r / g) * (m / (i / g))`` with ``g = gcd(r, i)``),
    so the only product made is the next ``C(n - k + i, i)`` itself."""
    if _out_of_range(n, k):
        return 0
    if n - k < k:
        k = n - k
    base = n - k
    r = 1
    for i in range(1, k + 1):
        m = base + i
        a = r
        b = i
        while b != 0:           # g = gcd(r, i)
            a, b = b, a % b
        r = r // a
        m = m // (i // a)
        if r > MAX64 // m:
            raise Deopt("math.comb() beyond int64")
        r = r * m
    return r


def perm(n, k):
    """``math.perm(n, k)``: ``n * (n - 1) * ... * (n - k + 1)``, growing at each
    step (every factor is at least 1), so a step beyond int64 means the result is."""
    if _out_of_range(n, k):
        return 0
    r = 1
    for i in range(k):
        if r > MAX64 // (n - i):
            raise Deopt("math.perm() beyond int64")
        r = r * (n - i)
    return r
