"""``z.real`` / ``z.imag`` of complex arrays inside expressions read each element
as the part of the complex one, through the complex array's own layout
(``elementwise.to_lazy``, ``attributes.lower_attr``): the same values as NumPy,
bit for bit, for every layout and for writes through the parts; for a C array the
loop is vector code."""
import re

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.compare import assert_same_bits
from hypothesis import given, settings
from hypothesis import strategies as st


def shifted(z, m):
    return (z.real - m) / 3.0


def both(z):
    return z.real * z.imag - z.imag


def rescale(z):
    re = z.real - z.real.min()
    im = z.imag - z.imag.min()
    return re / re.max(), im / im.max()


def swap_parts(z):
    w = z.copy()
    w.real[...] = z.imag * 2.0
    w.imag[...] = z.real
    return w


def parts_into_own(z):
    z.imag[...] = z.real + z.imag
    return z


FUNCS = {f: jit(f, fallback=False) for f in (shifted, both, rescale, swap_parts,
                                             parts_into_own)}


def layouts(z):
    yield z
    yield z[::-1]
    yield z[::3]
    if z.ndim == 2:
        yield np.asfortranarray(z)
        yield z.T
        yield z[:, ::2]


def run(f, *args):
    with np.errstate(all="ignore"):
        want = f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        got = FUNCS[f](*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            assert_same_bits(g, w)
    else:
        assert_same_bits(got, want)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (100,), (5, 6), (1, 9)])
def test_layouts(dtype, shape):
    rng = np.random.default_rng(sum(shape))
    z = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    for x in layouts(z):
        run(shifted, x, 0.25)
        run(both, x)
        run(swap_parts, x)
        run(parts_into_own, x)
        if x.size and x.ndim == 1:
            run(rescale, x)


parts = st.floats(allow_nan=True, allow_infinity=True, width=64)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(parts, parts), min_size=1, max_size=70),
       st.sampled_from([np.complex128, np.complex64]))
def test_hypothesis(pairs, dtype):
    with np.errstate(all="ignore"):
        z = np.array([complex(a, b) for a, b in pairs]).astype(dtype)
    for x in (z, z[::-2]):
        run(shifted, x, -1.5)
        run(both, x)


def test_parts_are_read_through_the_complex_array():
    """The lowered loop loads ``z``'s complex elements and takes their parts, not
    elements of a view with a run-time stride."""
    from hanajit.ir import nodes as N
    from hanajit.pipeline import compile_ir
    from hanajit.typing_rules import typeof
    z = np.arange(64.0) + 1j
    module, _ = compile_ir(shifted, (typeof(z), typeof(0.5)), {})
    fn = module.functions[module.entry]
    parts = [e for s in N.walk_stmts(fn.body) for x in N.stmt_exprs(s) if x is not None
             for e in N.walk_expr(x) if isinstance(e, N.ComplexPart)]
    assert parts and all(isinstance(p.operand, N.Load) and p.operand.array.name == "z"
                         for p in parts), parts


def test_a_c_array_reads_whole_vectors():
    """Where the CPU has AVX2, LLVM loads the complex array as whole vectors (an
    interleaved group), and takes the real parts apart by shuffles."""
    from hanajit_cpu.engine import get_engine
    if "+avx2" not in get_engine().isa_features:
        pytest.skip("the CPU compiled for has no AVX2: LLVM reads the parts one by one")
    z = np.arange(64.0) + 1j
    FUNCS[shifted](z, 0.5)
    ir = FUNCS[shifted].inspect_llvm()
    assert re.search(r"= load <\d+ x double>", ir), "no vector load of the complex array"
