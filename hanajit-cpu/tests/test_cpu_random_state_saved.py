"""``get_state()``/``set_state(st)`` of ``RandomState`` objects and of the global
state where the state flows from one to the other inside the compiled function,
and array seeds (``RandomState(arr)``, ``rs.seed(arr)``, ``np.random.seed(arr)``):
NumPy's values, errors and the states after, bit for bit
(``test_cpu_random_state.compare``); what cannot be compiled falls back naming it.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.dispatch_modes import jitted
from hanajit.testing.random_pairs import same
from hanajit.testing.sourcefile import load_sibling
from hypothesis import given, settings
from hypothesis import strategies as st

base = load_sibling(__file__, "test_cpu_random_state.py", "hanajit_test_random_state")
compare, make, outcome, state = base.compare, base.make, base.outcome, base.state


def replay(rs, n):
    saved = rs.get_state()
    a = rs.randn(n)
    b = rs.gamma(0.5, size=n)
    rs.set_state(saved)
    return a, b, rs.randn(n), rs.gamma(0.5, size=n), rs.random()


def replay_global(n):
    saved = np.random.get_state()
    a = np.random.randn(n)
    np.random.set_state(saved)
    return a, np.random.randn(n), np.random.random()


def replay_made(seed, n):
    rs = np.random.RandomState(seed)
    x = rs.randn()                  # (a Gaussian cached in the saved state)
    saved = rs.get_state()
    a = rs.randn(n)
    rs.set_state(saved)
    return x, a, rs.randn(n)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 700),
       kind=st.sampled_from(["MT19937", "PCG64", "Philox"]), cached=st.booleans())
def test_saved_and_restored_states_many_seeds(seed, n, kind, cached):
    """A RandomState of another bit generator re-runs in the interpreter (its
    get_state is a dict), with NumPy's RuntimeWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        compare(JIT_REPLAY, replay, seed, n, kind=kind, cached=cached)
    np.random.seed(seed)
    np.random.randn()
    got, got_state = JIT_GLOBAL(n), state(np.random.mtrand._rand)
    np.random.seed(seed)
    np.random.randn()
    want = replay_global(n)
    assert same(got, want) and got_state == state(np.random.mtrand._rand)
    assert same(JIT_MADE(seed, n), replay_made(seed, n))


JIT_REPLAY, JIT_GLOBAL, JIT_MADE = jit(replay), jit(replay_global), jit(replay_made)


def replay_literal(rs, n):
    saved = rs.get_state(legacy=True)
    a = rs.random(n)
    rs.set_state(saved)
    return a, rs.random(n)


@pytest.mark.parametrize("kind", ["MT19937", "PCG64", "SFC64"])
def test_get_state_of_another_bit_generator_reruns_in_the_interpreter(mode, kind):
    """NumPy's get_state of a RandomState over PCG64 warns and returns a dict: the
    compiled call re-runs in the interpreter, warning as it does, states alike."""
    jf = jitted(replay_literal)
    for calls in range(3):              # (the native dispatcher from the second call)
        a, b = make(9 + calls, kind), make(9 + calls, kind)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = jf(a, 4)
        assert not any(w.category is HanaJitFallbackWarning for w in caught)
        assert [str(w.message) for w in caught if w.category is RuntimeWarning] == (
            [] if kind == "MT19937" else ["get_state and legacy can only be used with the "
                                          "MT19937 BitGenerator. To silence this warning, "
                                          "set `legacy` to False."])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = replay_literal(b, 4)
        assert same(got, want) and state(a) == state(b)


def into(a, b):
    b.set_state(a.get_state())
    return b.random()


@pytest.mark.parametrize("kind", ["MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64"])
def test_set_state_into_another_bit_generator_raises_numpys_error(mode, kind):
    """NumPy writes the cached Gaussian, then the bit generator refuses the
    MT19937 state with its own message (SFC64's is not an f-string)."""
    jf = jitted(into)
    a1, b1 = make(3, cached=True), make(5, kind, cached=False)
    a2, b2 = make(3, cached=True), make(5, kind, cached=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = outcome(jf, a1, b1)
    want = outcome(into, a2, b2)
    assert got[0] == want[0] and (same(got[1], want[1]) if got[0] == "ok" else got == want)
    assert state(b1) == state(b2) and state(a1) == state(a2)


def drawn_first(rs):
    x = rs.random()
    saved = rs.get_state()
    rs.set_state(saved)
    return x


def returned(rs):
    return rs.get_state()


def indexed(rs):
    return rs.get_state()[2]


def copied(rs):
    saved = rs.get_state()
    other = saved
    rs.set_state(other)


def as_dict(rs):
    rs.set_state(rs.get_state(legacy=False))


@pytest.mark.parametrize("py, match", [
    (drawn_first, "get_state.. of a RandomState argument after random draws"),
    (returned, "return of a RandomState's get_state"), (indexed, "indexing"),
    (copied, "copied to another name"), (as_dict, "legacy other than True")])
def test_other_uses_of_the_state_fall_back(py, match):
    a, b = make(4), make(4)
    with pytest.warns(HanaJitFallbackWarning, match=match):
        got = jit(py)(a)
    want = py(b)
    assert state(a) == state(b)
    if py is returned:
        assert got[0] == want[0] and np.array_equal(got[1], want[1]) and got[2:] == want[2:]


def seeded(s, n):
    rs = np.random.RandomState(s)
    return rs.random(n), rs.randn(3)


def reseeded(rs, s):
    x = rs.randn()
    rs.seed(s)
    np.random.seed(s)
    return x, rs.randn(2), rs.randint(0, 100, 3), np.random.random()


SEEDS = [np.array([1, 2, 3]), np.array([5]), np.array([], np.int64),
         np.array([2**32 - 1, 0, 7]), np.array([2**32]), np.array([-1, 3]),
         np.arange(700, dtype=np.int32), np.array([7], np.int8), np.array([0, 2**32]),
         (1, 2, 3), (5,), (np.int16(-2), 4), (2**32 - 1, 2**31)]


@pytest.mark.parametrize("s", SEEDS)
def test_array_and_tuple_seeds(mode, s):
    """An array of one item is that int (NumPy squeezes it), a tuple is always
    ``init_by_array``; NumPy's ValueErrors for no items and values out of range,
    its TypeError re-seeding another bit generator."""
    got, want = outcome(jitted(seeded), s, 4), outcome(seeded, s, 4)
    assert got[0] == want[0] and (same(got[1], want[1]) if got[0] == "ok" else got == want)
    for kind in ("MT19937", "PCG64"):
        compare(jitted(reseeded), reseeded, 3, s, kind=kind, cached=True)


@settings(max_examples=30, deadline=None)
@given(values=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=1300))
def test_init_by_array_is_numpys(values):
    a = np.array(values, dtype=np.int64)
    assert same(JIT_SEEDED(a, 5), seeded(a, 5))


JIT_SEEDED = jit(seeded)


CACHED = """
import json
import warnings
import numpy as np
from hanajit import jit

@jit(cache=True)
def replay(rs, n):
    saved = rs.get_state()
    a = rs.multinomial(n, (0.5, 0.5), 2)
    rs.set_state(saved)
    return a, rs.multinomial(n, (0.5, 0.5), 2), rs.dirichlet((1.0, 2.0)), rs.tomaxint()

@jit(cache=True)
def made(seed):
    rs = np.random.RandomState(seed)
    np.random.seed(seed)
    return rs.random(3), np.random.random(), rs.random_integers(5, 9, 2)

def equal(x, y):
    return all(np.array_equal(a, b) for a, b in zip(x, y))

ok = []
for kind in ("MT19937", "PCG64"):
    a, b = (np.random.RandomState(getattr(np.random, kind)(3)) for _ in range(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # (PCG64's get_state)
        ok.append(equal(replay(a, 9), replay.py_func(b, 9)))
    ok.append(str(a.get_state(legacy=False)) == str(b.get_state(legacy=False)))
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    ok.append(equal(made(np.array([4, 5])), made.py_func(np.array([4, 5]))))
print(json.dumps(ok))
"""


def test_disk_cache_keeps_the_kernels(tmp_path):
    """The kernels hold no process address (MT19937's and the other bit
    generators' functions are linked afresh); the clean re-run of a PCG64
    RandomState's get_state works from the cache too."""
    from hanajit.testing.sourcefile import run_twice_cached
    lines = run_twice_cached(tmp_path, CACHED, "saved_state_kernels", "test-cpu-random-saved")
    assert lines == ["[true, true, true, true, true]"] * 2
