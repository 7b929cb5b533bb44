"""``math.gcd``, ``math.lcm``, ``math.isqrt`` and ``math.isclose`` in Python source
compiled by hanajit (``math_ints.py`` types the calls): CPython's results, its
errors, and a re-run in the interpreter (``Deopt``) where the result is an int
beyond int64 (``gcd(-2**63, 0)`` is ``2**63``)."""
from .helpers import Deopt

MIN64 = -(2**63)


def gcd2(a, b):
    """``math.gcd(a, b)`` of two int64: Euclid on the absolute values."""
    if a == MIN64 or b == MIN64:
        if a == MIN64 and (b == 0 or b == MIN64):
            raise Deopt("math.gcd() beyond int64")
        if b == MIN64 and a == 0:
            raise Deopt("math.gcd() beyond int64")
        # |MIN64| = 2**63: its gcd with b is gcd(2**63 mod |b|, |b|)
        if a == MIN64:
            a = a % b if b > 0 else a % -b
        else:
            b = b % a if a > 0 else b % -a
    a = abs(a)
    b = abs(b)
    while b != 0:
        a, b = b, a % b
    return a


def lcm2(a, b):
    """``math.lcm(a, b)``: ``|a // gcd(a, b) * b|``, 0 when either is 0; a
    result beyond int64 re-runs in the interpreter (library code's ints wrap:
    the check is explicit)."""
    if a == 0 or b == 0:
        return 0
    q = a // gcd2(a, b)
    if q == MIN64 or b == MIN64:
        raise Deopt("math.lcm() beyond int64")
    q = abs(q)
    m = abs(b)
    if q > (2**63 - 1) // m:
        raise Deopt("math.lcm() beyond int64")
    return q * m


def isqrt(n):
    """``math.isqrt(n)``: the floor of the exact square root."""
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    if n == 0:
        return 0
    r = int(float(n) ** 0.5)
    # the float root is within a few units: step to the exact floor, comparing
    # by division so no square can pass int64
    while r > 0 and r > n // r:
        r -= 1
    while r + 1 <= n // (r + 1):
        r += 1
    return r


def isclose(a, b, rel_tol, abs_tol):
    """``math.isclose``: CPython's ``math_isclose_impl`` step by step."""
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a == b:
        return True
    if a == float("inf") or a == -float("inf") or b == float("inf") or b == -float("inf"):
        return False
    diff = abs(b - a)
    return ((diff <= abs(rel_tol * b)) or (diff <= abs(rel_tol * a))) or diff <= abs_tol
