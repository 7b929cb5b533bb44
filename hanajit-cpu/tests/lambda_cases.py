"""Functions with lambdas for test_cpu_lambdas (lambdas need their source in a file;
several on one line are told apart by their positions)."""
from hanajit import jit

inc = lambda x: x + 1                                  # noqa: E731
two = lambda x: x * 2; three = lambda x: x * 3         # noqa: E702, E731
pair = [lambda x: x + 1.5, lambda x: x - 1.5]
scaled = lambda a, k: (a * k).sum()                    # noqa: E731


def make_adder(n):
    return lambda x: x + n


def local_call(x):
    g = lambda y: y * 2                                # noqa: E731
    return g(x) + 1


def late_binding(x, k):
    g = lambda y: y * k + x                            # noqa: E731
    a = g(1)
    k = k + 10                                         # seen by the next call
    b = g(2)
    return a, b


def on_arrays(a):
    sq = lambda v: v * v                               # noqa: E731
    return sq(a).sum(), sq(a[0])


def chained(x):
    f = lambda a, b: a - b                             # noqa: E731
    g = lambda a: f(a, 1) * 2                          # noqa: E731
    return g(x) + f(x, x)


def raising(x):
    inv = lambda v: 1 // v                             # noqa: E731
    return inv(x)


def passed_on(x):
    g = lambda y: y + 1                                # noqa: E731
    h = g
    return h(x)


def in_a_loop(n):
    s = 0
    for i in range(n):
        f = lambda j: j * i                            # noqa: E731
        s += f(2)
    return s


two_same = [lambda x: x, lambda x: x][0]


@jit
def japply(f, x):
    return f(x)


def lambda_as_argument(x):
    return japply(lambda y: y * 10 + 1, x)


def bound_lambda_passed_on(x):
    g = lambda y: y - 0.5                              # noqa: E731
    return japply(g, x) + g(x)


def closure_passed_on(x, k):
    g = lambda y: y + k                                # noqa: E731
    return japply(g, x)


def lambda_reading_a_local_passed(x, k):
    return japply(lambda y: y + k, x)
