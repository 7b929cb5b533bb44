"""Globals and closure variables are read when a function compiles, as Numba
reads them (docs/semantics.md, *Deliberate differences*): rebinding one later
does not change the compiled specialisation; a new ``jit()`` of the function,
or a new argument-type specialisation, reads the new value.  The disk cache
checks each frozen value (``test_cpu_cache.py``)."""
from hanajit import jit

SCALE = 2


def scaled(x):
    return x * SCALE


def make(k):
    def inner(x):
        return x + k
    return inner


def test_a_rebound_global_keeps_the_compiled_value():
    global SCALE
    f = jit(scaled, fallback=False)
    try:
        assert f(3) == 6
        SCALE = 5
        assert scaled(3) == 15
        assert f(3) == 6                          # frozen at the first compile
        assert f(3.0) == 15.0                     # a new specialisation reads 5
        assert jit(scaled, fallback=False)(3) == 15
    finally:
        SCALE = 2


def test_a_closure_value_is_read_when_compiled():
    f = jit(make(4), fallback=False)
    assert f(1) == 5
    g = jit(make(10), fallback=False)
    assert g(1) == 11 and f(1) == 5
