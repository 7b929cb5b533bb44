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
