"""Chained native dispatchers (``Target.chains_dispatchers``): a function compiled
for new types generates a dispatcher for the new specialisations only, which
passes every other call on to the previous one.  Whatever the order the types
arrive in, each call returns what the interpreter returns -- values, types,
exceptions, views of an argument -- and runs no Python frame once the chain
covers its types; a chain never grows past ``api.MAX_LINKS``."""
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import api, jit
from hanajit.dispatch.heaptype import interpreter_supports_native

pytestmark = pytest.mark.skipif(not interpreter_supports_native()[0],
                                reason=str(interpreter_supports_native()[1]))


def pick(a, i):
    return a[i] * 2


def tail(a, i):
    return a[i:]


ARRAYS = [np.arange(6, dtype=t) for t in ("int8", "int16", "int32", "int64", "uint8",
                                             "uint16", "float32", "float64", "complex128")]
INDICES = [0, 5, -1, 6, -7, np.int64(2), np.int32(-2)]


def outcome(f, *args):
    try:
        r = f(*args)
    except Exception as exc:          # the exception's kind and text, compared
        return ("raise", type(exc), str(exc))
    return ("ok", type(r), r.dtype if isinstance(r, np.ndarray) else None,
            r.tolist() if isinstance(r, np.ndarray) else r)


def run_natively(jf, args) -> list:
    """The outcomes of ``jf(*a)`` for each ``a``, with any Python frame the calls
    ran (the chain's handlers for raises and views included) recorded."""
    frames, out = [], []
    sys.setprofile(lambda frame, event, arg: frames.append(frame.f_code.co_name)
                   if event == "call" else None)
    try:
        for a in args:
            try:
                out.append(("ok", jf(*a)))
            except Exception as exc:
                out.append(("raise", exc))
    finally:
        sys.setprofile(None)
    return out, frames


@pytest.fixture
def hot_at_once(monkeypatch):
    """A dispatcher (or a link) after every compile's next call."""
    monkeypatch.setenv("HANAJIT_NATIVE_DISPATCH", "1")
    monkeypatch.setattr(api, "HOT_CALLS", 1)


_JITTED = {}


@settings(max_examples=8, deadline=None)
@given(order=st.permutations(range(5)), func=st.sampled_from([pick, tail]))
def test_any_arrival_order_matches_the_interpreter(order, func):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HANAJIT_NATIVE_DISPATCH", "1")
        mp.setattr(api, "HOT_CALLS", 1)
        jf = jit(func)                      # (fresh: the chain grows from nothing)
        seen = []
        for k in order:                     # (int8, int16, int32, int64, uint8)
            seen.append(ARRAYS[k])
            for _ in range(2):              # compiled, then a dispatcher made
                assert outcome(jf, ARRAYS[k], 1) == outcome(func, ARRAYS[k], 1)
            assert 0 <= jf._dispatch_links <= api.MAX_LINKS
            for a in seen:                  # every older type, through the chain
                for i in INDICES:
                    assert outcome(jf, a, i) == outcome(func, a, i)


def test_old_types_run_natively_through_the_chain(hot_at_once, monkeypatch):
    monkeypatch.setattr(api, "MAX_LINKS", 100)      # (a long chain: every type a link)
    jf = jit(pick)
    calls = [(a, i) for a in ARRAYS for i in (0, 5, -1, np.int64(2))]
    for c in calls:                         # compiled, then a link made
        jf(*c)
        jf(*c)
    while jf._native_stale:                 # (the newest, once called on)
        jf(*calls[-1])
    assert jf._dispatch_links > 10          # links were made, not whole dispatchers
    out, frames = run_natively(jf, calls)
    assert frames == [], frames
    for (a, i), (kind, got) in zip(calls, out):
        want = pick(a, i)
        assert kind == "ok" and got == want and type(got) is type(want)


def test_raises_and_views_of_older_entries_reach_their_own_handlers(hot_at_once):
    """The raise and view handlers get the entry's index in the whole list, so a
    specialisation in the oldest link raises its own IndexError text and boxes its
    own view."""
    for func in (pick, tail):
        jf = jit(func)
        for a in ARRAYS:
            for _ in range(2):
                jf(a, 1)
        for a in ARRAYS:
            assert outcome(jf, a, 6) == outcome(func, a, 6)
            got = outcome(jf, a, 3)
            assert got == outcome(func, a, 3)
            if func is tail:
                view = jf(a, 3)
                assert view.base is a or view.base is a.base


@pytest.fixture
def made(monkeypatch):
    """Whether each dispatcher the CPU target generates is a link (``previous``)."""
    from hanajit import plugins
    target = plugins.get_target("cpu")
    out, real = [], target.native_dispatcher

    def counting(shape, entries, handlers, previous=None):
        out.append(previous is not None)
        return real(shape, entries, handlers, previous=previous)
    monkeypatch.setattr(target, "native_dispatcher", counting)
    return out


def test_a_chain_is_made_whole_again_past_max_links(hot_at_once, made):
    jf = jit(pick)
    for a in ARRAYS:
        for _ in range(2):
            jf(a, 1)
    # whole, then at most MAX_LINKS links on it, then whole again
    assert made[0] is False
    run = 0
    for link in made:
        run = run + 1 if link else 0
        assert run <= api.MAX_LINKS
    assert False in made[1:] and True in made


def test_any_layout_and_folded_defaults_make_whole_dispatchers(hot_at_once, made):
    """Where trying a newer entry first could pick another specialisation than a
    whole dispatcher's order does, no link is made."""
    def first(a, k=1):
        return a[0] * k
    jf = jit(first)
    for a in ARRAYS[:4]:
        for _ in range(2):
            assert jf(a) == first(a)
    assert made and not any(made)
    made.clear()
    jg = jit(pick)
    c = np.arange(12.0).reshape(3, 4)
    for a in (c[0], c[:, 0], c.T[0]):       # C, then any-layout columns
        for _ in range(2):
            assert jg(a, 1) == pick(a, 1)
    assert made[-1] is False

