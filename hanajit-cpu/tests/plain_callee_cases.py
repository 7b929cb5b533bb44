"""Plain (undecorated) functions called by name from jitted ones
(test_cpu_plain_callees.py)."""
import statistics

import numpy as np


def squared(x):
    return x * x


def scaled(x, k=2, offset=0.0):
    return x * k + offset


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def clamp(i, n):
    return min(max(0, i), n - 1)


def smooth(a, i):
    n = a.shape[0]
    return (a[clamp(i - 1, n)] + a[i] + a[clamp(i + 1, n)]) / 3.0


def normalised(a):
    return (a - a.mean()) / a.std()


def inverse(x):
    return 1 / x


def with_dict(x):
    d = {"k": x}
    return d["k"]


def counting(n):
    for i in range(n):
        yield i


# ---------------------------------------------------------------- callers
def sum_squares(a):
    s = 0.0
    for v in a:
        s += squared(v)
    return s


def keywords(x):
    return scaled(x) + scaled(x, 3) + scaled(x, offset=0.5) + scaled(x, k=-1, offset=1.0)


def fib_of(n):
    return fib(n)


def parity(n):
    return is_even(n), is_odd(n)


def smoothed(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = smooth(a, i)
    return out


def normalise_twice(a):
    return normalised(normalised(a))


def inverse_of(x):
    return inverse(x)


def narrow(a):
    acc = np.float32(0)
    for v in a:
        acc += squared(v)
    return acc


def calls_dict(x):
    return with_dict(x) + 1


def calls_generator(n):
    s = 0
    for v in counting(n):
        s += v
    return s


def calls_stdlib(a):
    return statistics.fmean([a[0], a[1]])


def product(v, w):
    return v * w


def negated(v):
    return -v if v < 2 else v


def element_times_float32(a, b):
    return product(a[0], b[0])            # np.float64 * np.float32: float64


def python_float_times_float32(b):
    return product(0.1, b[0])             # 0.1 * np.float32: float32 (NEP 50)


def negates_an_element(a):
    return negated(a[0])


def element_squared(a, i):
    return squared(a[i])                  # np.float64 * np.float64: np.float64


def root_of_sum(a):
    return normalised_sum(a)


def normalised_sum(a):
    return np.sqrt(np.sum(a * a))         # a NumPy scalar on every path
