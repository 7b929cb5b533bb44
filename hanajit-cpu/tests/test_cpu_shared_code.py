"""Large callees compiled once per process and linked by symbol
(``hanajit.lowering.shared``, ``hanajit_cpu/shared_code.py``): a second function
calling the same library algorithm at the same types compiles only itself, every
result and exception is still NumPy's, and code that must stand alone (the disk
cache) holds everything."""
from __future__ import annotations

import re

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.jitted import jitted
from hanajit_cpu import engine as E
from hanajit_cpu import shared_code


def _compiled_texts(monkeypatch):
    texts = []
    real = E.Engine.compile_object

    def counted(self, ir_text, speed=3, **kw):
        texts.append(ir_text)
        return real(self, ir_text, speed, **kw)
    monkeypatch.setattr(E.Engine, "compile_object", counted)
    return texts


def quantile_plus(a, q):
    return np.quantile(a, q) + 1.0


def quantile_times(a, q):
    return np.quantile(a, q) * 2.0


def indexed_quantile(a, q, i):
    x = a[i]                        # a raise of its own before the quantile's
    return np.quantile(a, q) - x


def test_a_second_caller_links_the_helper_compiled_for_the_first(monkeypatch):
    a = np.random.default_rng(1).random(257)
    assert jitted(quantile_plus)(a, 0.3) == quantile_plus(a, 0.3)
    texts = _compiled_texts(monkeypatch)
    assert jit(quantile_times)(a, 0.3) == quantile_times(a, 0.3)
    assert len(texts) == 1                          # the caller only
    assert "hjs_" in texts[0]                       # calling the helper by symbol
    assert not re.search(r'^define[^\n]*@"?hjs_', texts[0], re.M)


@pytest.mark.parametrize("fn, args", [
    (quantile_plus, (1.5,)), (quantile_times, (-0.5,)), (indexed_quantile, (2.0, 0)),
    (indexed_quantile, (0.5, 10**6)),
])
def test_exceptions_raised_in_a_linked_helper_are_numpys(fn, args):
    a = np.random.default_rng(2).random(50)
    with pytest.raises(Exception) as want:
        fn(a, *args)
    with pytest.raises(type(want.value)) as got:
        jitted(fn)(a, *args)
    assert str(got.value) == str(want.value)


def test_results_match_numpy_across_callers_and_types():
    rng = np.random.default_rng(3)
    for dtype in (np.float64, np.float32, np.int64):
        a = (rng.random((9, 13)) * 100).astype(dtype)
        for fn in (lambda a: np.sort(a, axis=0), lambda a: np.median(a, axis=1),
                   lambda a: np.sort(a)[0] + 1, lambda a: np.quantile(a, 0.25, axis=0)):
            np.testing.assert_array_equal(jit(fn)(a), fn(a))


def test_code_for_the_disk_cache_stands_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path))
    a = np.random.default_rng(4).random(31)
    f = jit(cache=True)(quantile_plus)
    assert f(a, 0.7) == quantile_plus(a, 0.7)
    assert "hjs_" not in f.inspect_llvm()
    g = jit(quantile_plus)
    assert g(a, 0.7) == quantile_plus(a, 0.7)
    assert "hjs_" in g.inspect_llvm()


def test_it_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")
    a = np.random.default_rng(5).random(31)
    g = jit(quantile_times)
    assert g(a, 0.1) == quantile_times(a, 0.1)
    assert "hjs_" not in g.inspect_llvm()
    assert not shared_code.wanted(None, {})


def gradient_step(X, w, y):
    return X.T @ (X @ w - y) / len(y)      # two products whose helpers print alike


def test_two_callees_that_print_alike_are_one_symbol():
    rng = np.random.default_rng(6)
    X, w, y = rng.random((40, 5)), rng.random(5), rng.random(40)
    np.testing.assert_allclose(jit(gradient_step)(X, w, y), gradient_step(X, w, y),
                               rtol=1e-13)


def _externals(f):
    """The functions each specialisation's module took as compiled apart, as it
    was compiled (a module rebuilt for inspection later may link more)."""
    return [fn for s in f._compiled.values() for fn in s.module.functions.values()
            if fn.name in s.linked]


def test_a_later_caller_gets_the_linked_helper_without_compiling_it():
    """The pipeline gives a later caller the piece as a signature only
    (``Function.external``): neither inferred nor lowered again."""
    a = np.random.default_rng(7).random(64)
    first, later = jit(quantile_plus), jit(quantile_times)
    first(a, 0.4)
    assert later(a, 0.4) == quantile_times(a, 0.4)
    assert _externals(later)
    assert all(not fn.body for fn in _externals(later))
    other = jit(quantile_times, boundscheck=False)  # other options: its own pieces
    assert other(a, 0.4) == quantile_times(a, 0.4)
    assert not _externals(other)


def draw_choice(rng, a):
    return rng.choice(a, 7)


def draw_choice_again(rng, a):
    return rng.choice(a, 7) + 0


def legacy_choice(a):
    return np.random.choice(a, 7)


def legacy_choice_again(a):
    return np.random.choice(a, 7) + 0


def _entries(f):
    return [s.module.functions[s.module.entry] for s in f._compiled.values()]


@pytest.mark.parametrize("first, later, state", [
    (draw_choice, draw_choice_again, "generator"), (legacy_choice, legacy_choice_again, None)])
def test_helpers_that_draw_are_linked_and_their_callers_stay_impure(first, later, state):
    """A piece that draws random numbers is handed out as a signature too
    (``Function.draws_random``): a later caller is not lowered again, draws the
    interpreter's numbers, and is not pure (a call that has drawn is never re-run
    in the interpreter), as when it compiled the piece itself."""
    a = np.arange(50.0)

    def run(f, seed):
        if state is None:
            np.random.seed(seed)
            return f(a)
        return f(np.random.default_rng(seed), a)
    np.testing.assert_array_equal(run(jit(first), 8), run(first, 8))
    again = jit(later)
    np.testing.assert_array_equal(run(again, 9), run(later, 9))
    linked = _externals(again)
    assert linked and all(not fn.body and fn.draws_random for fn in linked)
    assert not any(fn.pure for fn in _entries(again))
