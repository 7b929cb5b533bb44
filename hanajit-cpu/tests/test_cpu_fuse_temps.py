"""Fusion across local temporaries (passes/fuse_temps.py): an array local assigned
once and read once later in the same block stays lazy -- unless anything in
between could change what it would have computed."""
import numpy as np
import pytest

from hanajit import jit
from hanajit.typing_rules import typeof
from hanajit.ir import nodes as N
from hanajit.pipeline import compile_ir


def _allocs(jf, *args):
    """Arrays the entry allocates on the path where no operand broadcasts (the
    copy for a broadcasting call may sum a temporary, as NumPy does: what a
    fused sum costs in compile time is its leaves' unrolled code, once)."""
    module, _ = compile_ir(jf.py_func, tuple(typeof(a) for a in args), dict(jf.options))
    fn = module.functions[module.entry]
    return sum(isinstance(s, N.Assign) and isinstance(s.value, N.AllocArray)
               for s in _fast_path(fn.body))


def _fast_path(body):
    for s in body:
        yield s
        if isinstance(s, N.If) and getattr(s, "versioned", False):
            yield from _fast_path(s.then)
            continue
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                yield from _fast_path(sub)


@jit
def five_op(a, b):
    t = np.exp(-a * a) * b
    u = np.where(a > 0, a, 2 * a)
    c = np.clip(b, 0.2, 1.5)
    return np.sum(t + u - c)


@jit
def chain(a, b):
    t = a * 2.0
    u = t + b
    return u


A = np.linspace(-2, 2, 37)
B = np.linspace(0, 3, 37)


@jit
def five_cheap(a, b):
    t = (1.0 - a * a) * b
    u = np.where(a > 0, a, 2 * a)
    c = np.clip(b, 0.2, 1.5)
    return np.sum(t + u - c)


def test_temporaries_fuse_into_one_loop():
    assert _allocs(five_cheap, A, B) == 0
    assert np.isclose(five_cheap(A, B), np.sum((1.0 - A * A) * B + np.where(A > 0, A, 2 * A)
                                               - np.clip(B, 0.2, 1.5)), rtol=1e-13)
    # with a costly function (np.exp) the sum reads one temporary the whole
    # expression is computed into, in one loop, as NumPy's (elementwise.whole_first):
    # NumPy makes five
    assert _allocs(five_op, A, B) == 1
    assert np.isclose(five_op(A, B), np.sum(np.exp(-A * A) * B + np.where(A > 0, A, 2 * A)
                                            - np.clip(B, 0.2, 1.5)), rtol=1e-13)
    assert _allocs(chain, A, B) == 1            # only the returned array
    np.testing.assert_array_equal(chain(A, B), A * 2.0 + B)


@jit
def written_between(a):
    t = a * 2.0
    a[0] = 100.0
    return t


@jit
def rebound_between(a, b):
    t = a * 2.0
    a = b
    return t + a


@jit
def bump(a):
    a[0] += 1.0
    return 0


@jit
def called_between(a):
    t = a * 2.0
    k = bump(a)
    return t + k


@jit
def read_twice(a):
    t = a * 2.0
    return t + t


@jit
def read_in_loop(a):
    t = a * 2.0
    s = 0.0
    for i in range(3):
        s += np.sum(t)
    return s


@pytest.mark.parametrize("f,args", [
    (written_between, (A,)), (rebound_between, (A, B)), (called_between, (A,)),
    (read_twice, (A,)), (read_in_loop, (A,)),
], ids=lambda x: getattr(x, "__name__", ""))
def test_never_changes_results(f, args):
    got = f(*[a.copy() for a in args])
    want = f.py_func(*[a.copy() for a in args])
    np.testing.assert_array_equal(got, want)


def test_blocked_cases_materialise():
    assert _allocs(written_between, A) == 1
    assert _allocs(called_between, A) >= 1


@jit
def ramp_sum(n):
    return np.sum(np.arange(n) * 2.0 + np.linspace(0, 1, n))


@jit
def ramp_parts(n):
    return (np.arange(n)[::2], np.linspace(-1, 1, n)[1:], np.arange(0.5, n, 0.25).sum(),
            np.arange(1, 2 * n + 1).reshape(2, -1), np.linspace(0, 1, n, endpoint=False))


@pytest.mark.parametrize("n", [0, 1, 2, 6, 33])
def test_arange_linspace_never_materialised_inside_expressions(n):
    assert _allocs(ramp_sum, n) == 0
    assert np.isclose(ramp_sum(n), np.sum(np.arange(n) * 2.0 + np.linspace(0, 1, n)))
    got, want = ramp_parts(n), ramp_parts.py_func(n)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


# -- a cheap temporary read up to three times, each read consumed ---------------
@jit
def rescale(z):
    re = z.real - z.real.min()
    return re / re.max()


@jit
def rescale_two_statements(a):
    t = a * 2.0 - 1.0
    m = t.max()
    return t / m


@jit
def returned_twice(a):
    t = a * 2.0
    return t, t


@jit
def costly_twice(a):
    t = np.exp(a)
    return t / t.sum()


@jit
def written_after_first_read(a):
    t = a * 2.0
    m = t.max()
    a[0] = 100.0
    return t / m


@jit
def rebound_after_first_read(a, b):
    t = a * 2.0
    m = t.max()
    a = b
    return t / m + a


Z = A + 1j * B[::-1]


def _arrays(jf, *args):
    """Allocations of arrays of values (not counting the 16 elements a vector
    min/max stores its accumulators in, ``fused_extreme``)."""
    module, _ = compile_ir(jf.py_func, tuple(typeof(a) for a in args), dict(jf.options))
    fn = module.functions[module.entry]
    return sum(isinstance(s, N.Assign) and isinstance(s.value, N.AllocArray)
               and not (len(s.value.shape) == 1 and isinstance(s.value.shape[0], N.Const)
                        and s.value.shape[0].value == 16)
               for s in N.walk_stmts(fn.body))


def test_cheap_temporaries_read_twice_stay_lazy():
    assert _arrays(rescale, Z) == 1                     # only the returned array
    assert rescale(Z).tobytes() == rescale.py_func(Z).tobytes()
    assert _arrays(rescale_two_statements, A) == 1
    assert rescale_two_statements(A).tobytes() == rescale_two_statements.py_func(A).tobytes()


def test_reads_that_hand_out_the_array_or_cost_more_materialise():
    got = returned_twice(A)
    assert np.shares_memory(got[0], got[1])             # one array, as in Python
    assert _arrays(returned_twice, A) == 1
    assert _arrays(costly_twice, A) == 2                # np.exp computed once
    # (np.exp is vector math: within its documented ulps of NumPy's)
    np.testing.assert_allclose(costly_twice(A), costly_twice.py_func(A), rtol=1e-15)


@pytest.mark.parametrize("f,args", [
    (written_after_first_read, (A,)), (rebound_after_first_read, (A, B)),
], ids=lambda x: getattr(x, "__name__", ""))
def test_changes_between_reads_materialise(f, args):
    got = f(*[a.copy() for a in args])
    want = f.py_func(*[a.copy() for a in args])
    np.testing.assert_array_equal(got, want)
    assert _arrays(f, *args) == 2
