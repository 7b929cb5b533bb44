"""Functions with nested ``def``s (test_cpu_nested_defs.py)."""
import numpy as np


def clamped_sum(a, n):
    def clamp(i):
        return min(max(i, 0), n - 1)
    s = 0.0
    for i in range(-2, n + 2):
        s += a[clamp(i)]
    return s


def recursive(n):
    def fact(k):
        if k <= 1:
            return 1
        return k * fact(k - 1)
    return fact(n) + fact(3)


def statements(a):
    def sq_sum(x):
        t = np.float64(0.0)
        for v in x:
            t += v * v
        return t
    return sq_sum(a) + sq_sum(a[1:])


def either_kind_helper(a):
    def sq_sum(x):
        t = 0.0             # (a Python 0.0 for an empty x, else an np.float64)
        for v in x:
            t += v * v
        return t
    return sq_sum(a) + sq_sum(a[1:])


def reads_at_call(x):
    k = 2
    def scale(v):
        return v * k
    first = scale(x)
    k = 5
    return first, scale(x)


def calls_earlier(x):
    def inc(v):
        return v + 1
    def twice_inc(v):
        return inc(inc(v))
    return twice_inc(x)


def shadows(x):
    t = 100
    def f(v):
        t = v * 2                 # its own t
        return t + 1
    return f(x) + t


def raises(x):
    def inv(v):
        if v == 0:
            raise ValueError("zero")
        return 1.0 / v
    return inv(x)


def on_arrays(a):
    def norm(x):
        return np.sqrt(np.sum(x * x))
    return a / norm(a)


def apply(f, x):
    return f(x)


def passed_on(x):
    def cube(v):
        return v * v * v
    return apply(cube, x)


# ---------------------------------------------------------------- fall back
def closure_passed(x):
    k = 3
    def scale(v):
        return v * k
    return apply(scale, x)


def with_default(x):
    def f(v, w=2):
        return v * w
    return f(x)


def in_a_branch(x):
    if x > 0:
        def f(v):
            return v + 1
        return f(x)
    return x


def decorated(x):
    import functools

    @functools.lru_cache
    def f(v):
        return v + 1
    return f(x)
