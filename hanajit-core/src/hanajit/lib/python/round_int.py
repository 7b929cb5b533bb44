"""``round(int, ndigits)`` in Python source, compiled by hanajit (see helpers)."""


def int_round(x, ndigits):
    if ndigits >= 0:
        return x
    if ndigits < -18:
        return 0
    p = 1
    for _ in range(-ndigits):
        p = p * 10
    q = x // p
    r = x - q * p
    twice = 2 * r
    if twice > p or (twice == p and q & 1 == 1):
        q = q + 1
    return q * p


def numpy_power_of_ten(n):
    """NumPy's ``power_of_ten`` (``round`` of a NumPy scalar, ``np.round``): a table
    to 1e8, then 1e9 multiplied by ten (exact to 1e22; inf from 1e309)."""
    r = 1.0
    if n < 9:
        for _ in range(n):
            r = r * 10.0
        return r
    r = 1e9
    while n > 9 and r <= 1e308:
        r = r * 10.0
        n -= 1
    return r
