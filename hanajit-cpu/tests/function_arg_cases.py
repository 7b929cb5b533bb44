"""Functions passed as arguments, for test_cpu_function_args (their sources must
be in a file)."""
from hanajit import jit


@jit
def tripled(x):
    return x * 3


def minus_one(x):
    return x - 1


def squares(a):
    return a * a


def no_source_dict(x):
    return {x: 1}[x]


def divides(x):
    return 10 // x


def apply(f, x):
    return f(x)


def twice(f, x):
    g = f
    return g(g(x))


@jit
def japply(f, x):
    return f(x)


def through_a_jitted_callee(f, x):
    return japply(f, x) + 1


def on_array(f, a):
    return f(a).sum()


def two_functions(f, g, x):
    return f(x) - g(x)


def returns_it(f):
    return f


def calls_a_number(f, x):
    return f(x)


def lam_add(x):
    return x + 0.5


def default_function(x, f=minus_one):
    return f(x)


def keeps_order(f, a):
    # the argument is evaluated before the call: np.float64 from a[0]
    return f(a[0]) + f(a[1])


def indexing(a):
    return a[5]


def through_index(f, a):
    return f(a)


def unused(f, x):
    return x * 2


def passes_a_global(x):
    return japply(minus_one, x) * 2 + japply(tripled, x)
