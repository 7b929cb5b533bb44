"""``np.einsum`` (``lib/linalg/einsum.py``): NumPy's iterator order and loops
over the operands' memory, so float results are NumPy's bit for bit -- checked
on random shapes (labels of length 1 included), layouts (C, Fortran, reversed,
strided), dtypes (complex too) and signed zeros, on pieces past NumPy's
8192-value buffer, generated subscripts of one to four operands (several
dtypes and booleans too), ellipses, NumPy's views for one operand with nothing summed, its
errors and the forms that fall back."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.jitted import jitted, jitted_for

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")]


def matmul(a, b):
    return np.einsum("ij,jk->ik", a, b)


def matvec(a, x):
    return np.einsum("ij,j->i", a, x)


def vecmat(x, a):
    return np.einsum("i,ij->j", x, a)


def inner(x, y):
    return np.einsum("i,i->", x, y)


def row_dots(a, b):
    return np.einsum("ij,ij->i", a, b)


def transposed_product(a, b):
    return np.einsum("ij,jk->ki", a, b)


def outer(x, y):
    return np.einsum("i,j->ij", x, y)


def batched(a, b):
    return np.einsum("bij,bjk->bik", a, b)


def contract3(a, b):
    return np.einsum("ijk,ik->ij", a, b)


def implicit(a, b):
    return np.einsum("ij,jk", a, b)


def sums(a):
    return (np.einsum("ij->i", a), np.einsum("ij->j", a), np.einsum("ij->", a),
            np.einsum("ij", a) + 0, np.einsum("ji->j", a))


def diagonal(m):
    return np.einsum("ii", m), np.einsum("ii->", m), np.einsum("ii->i", m) * 1


TWO = {"ij,jk->ik": matmul, "ij,j->i": matvec, "i,ij->j": vecmat, "i,i->": inner,
       "ij,ij->i": row_dots, "ij,jk->ki": transposed_product, "i,j->ij": outer,
       "bij,bjk->bik": batched, "ijk,ik->ij": contract3, "ij,jk": implicit}


def _operand(rng, shape, dtype, layout, zeros):
    if np.dtype(dtype).kind == "b":
        return _laid_out(rng.random(shape) < (0.05 if zeros else 0.4), layout)
    a = rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)
    if zeros:
        a[a < 0.2] = -0.0
    if np.dtype(dtype).kind == "c":
        b = rng.standard_normal(shape)
        if zeros:
            b[b > 0.5] = 0.0
        a = a + 1j * b
    if np.dtype(dtype).kind in "iu":
        a = np.trunc(a * 7) % (100 if np.dtype(dtype).itemsize == 1 else 1000)
    return _laid_out(a.astype(dtype), layout)


def _laid_out(a, layout):
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "reversed" and a.ndim:
        return np.flip(a, 0)
    if layout == "strided" and a.ndim:
        return np.repeat(a, 2, axis=-1)[..., ::2]
    return a


def _shapes(spec, sizes):
    lhs = spec.split("->")[0]
    return [tuple(sizes[c] for c in term) for term in lhs.split(",")]


LAYOUTS = st.sampled_from(["C", "F", "reversed", "strided"])


@settings(max_examples=24, deadline=None)
@given(st.sampled_from(sorted(TWO)), st.dictionaries(st.sampled_from("bijk"),
                                                     st.sampled_from([1, 2, 3, 5, 9, 17, 40]),
                                                     min_size=4, max_size=4),
       st.sampled_from(["f8", "f4", "i8", "c16", "c8"]), LAYOUTS, LAYOUTS, st.booleans(),
       st.integers(0, 2**32 - 1))
def test_two_operands_as_numpy(spec, sizes, dtype, la, lb, zeros, seed):
    """NumPy's result, value and type, whatever the lengths (1 broadcasts and
    changes which label is innermost), layouts and dtypes."""
    rng = np.random.default_rng(seed)
    sa, sb = _shapes(spec, sizes)
    a, b = _operand(rng, sa, dtype, la, zeros), _operand(rng, sb, dtype, lb, zeros)
    fn = TWO[spec]
    assert_same_bits(jitted(fn)(a, b), fn(a, b))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128,
                                   np.complex64])
def test_one_operand_sums_and_diagonals(dtype):
    rng = np.random.default_rng(1)
    for shape in ((1, 1), (3, 1), (1, 7), (6, 5), (40, 33)):
        for layout in ("C", "F", "reversed", "strided"):
            a = _operand(rng, shape, dtype, layout, layout == "F")
            assert_same_bits(jitted(sums)(a), sums(a))
            m = a[:min(shape), :min(shape)]
            assert_same_bits(jitted(diagonal)(m), diagonal(m))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_row_sums_two_rows_at_a_time(dtype):
    """``'ij->i'`` sums contiguous rows two at a time: odd and even row counts,
    row lengths around the vector steps, three merged labels (a stepped middle
    axis), rows of signed zeros only; each row NumPy's bits."""
    rng = np.random.default_rng(5)
    rows = lambda a: np.einsum("ij->i", a)          # noqa: E731
    middle = lambda a: np.einsum("ijk->ij", a)      # noqa: E731
    rows_f, middle_f = jit(rows), jit(middle)       # each layout compiled once
    for n1 in (1, 2, 3, 8, 9):
        for n in (1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 64, 100):
            a = _operand(rng, (n1, n), dtype, "C", True)
            assert_same_bits(rows_f(a), rows(a))
            a[-1] = -0.0
            assert_same_bits(rows_f(a), rows(a))
    for shape in ((2, 6, 17), (3, 5, 16), (1, 3, 33)):
        t = _operand(rng, shape, dtype, "C", True)
        assert_same_bits(middle_f(t[:, ::2]), middle(t[:, ::2]))
        assert_same_bits(middle_f(t), middle(t))


def test_long_inner_loops_in_numpys_pieces():
    """One merged label is walked in NumPy's 8192-value pieces, two or three
    whole, four or more in pieces again: each changes a float sum's rounding."""
    rng = np.random.default_rng(2)
    for dtype in (np.float64, np.float32):
        x = _operand(rng, (30001,), dtype, "C", False)
        y = x[::-1].copy()
        assert_same_bits(jitted_for(inner, (x, y))(x, y), inner(x, y))
        a = _operand(rng, (3, 20011), dtype, "C", False)
        assert_same_bits(jitted_for(matvec, (a, a[0]))(a, a[0]), matvec(a, a[0]))
        assert_same_bits(jitted_for(row_dots, (a, a))(a, a), row_dots(a, a))
        a1 = a[:1]                  # a label of length 1: one merged label again
        assert_same_bits(jitted_for(matvec, (a1, a[0]))(a1, a[0]), matvec(a1, a[0]))
        t = _operand(rng, (2, 3, 2, 9000), dtype, "C", False)
        b = _operand(rng, (3, 9000), dtype, "C", False)

        def four(t, b):
            return np.einsum("abcd,bd->ac", t, b)
        assert_same_bits(jit(four)(t, b), four(t, b))


def test_one_operand_without_a_sum_is_numpys_view():
    @jit
    def views(a):
        return np.einsum("ij->ji", a), np.einsum("ii->i", a)

    a = np.arange(16.0).reshape(4, 4)
    t, d = views(a)
    assert np.shares_memory(t, a) and np.shares_memory(d, a)
    assert_same_bits((t, d), (a.T, np.diagonal(a)))


def test_numpys_errors():
    # (the specialisations other tests compiled: each is built once in the process)
    a, b = np.ones((2, 3)), np.ones((4, 2))
    with pytest.raises(ValueError, match="could not be broadcast"):
        jitted_for(matmul, (a, b))(a, b)
    with pytest.raises(ValueError, match="collapsing index 'i' don't match \\(2 != 3\\)"):
        jitted_for(diagonal, (a,))(a)
    a, b = np.ones((2, 1)), np.ones((2, 5))
    assert_same_bits(jitted_for(row_dots, (a, b))(a, b), row_dots(a, b))


def chain(a, b, c):
    return np.einsum("ij,jk,kl->il", a, b, c)


def bilinear(x, a, y):
    return np.einsum("i,ij,j->", x, a, y)


def weighted(t, u, v):
    return np.einsum("ijk,i,j->k", t, u, v)


def triple(x, y, z):
    return np.einsum("i,i,i->", x, y, z), np.einsum("i,j,k->ijk", x, y, z)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([chain, bilinear, weighted, triple]),
       st.lists(st.sampled_from([1, 2, 7, 16, 33, 130]), min_size=4, max_size=4),
       st.sampled_from(["i8", "i4", "i2", "f8", "f4"]), LAYOUTS, st.booleans(),
       st.integers(0, 2**32 - 1))
def test_three_operands_as_numpy(fn, lengths, dtype, layout, zeros, seed):
    """Three operands: integers wrapping as NumPy's, floats bit for bit (NumPy's
    buffered iterator decides which products each inner loop sums)."""
    rng = np.random.default_rng(seed)
    i, j, k, m = lengths
    shapes = {chain: [(i, j), (j, k), (k, m)], bilinear: [(i,), (i, j), (j,)],
              weighted: [(i, j, k), (i,), (j,)], triple: [(i,), (i,), (i,)]}[fn]
    ops = [_operand(rng, s, dtype, layout, zeros) for s in shapes]
    assert_same_bits(jitted(fn, fallback=False)(*ops), fn(*ops))


def row_weights(m, x, y):
    return np.einsum("ij,j,i->i", m, x, y), np.einsum("ij,i,j->j", m, y, x)


def dot3(x, y, z):
    return np.einsum("i,i,i->", x, y, z)


@pytest.mark.parametrize("rows, cols", [(3, 9000), (2, 20000), (9000, 2), (100, 300)])
@pytest.mark.parametrize("dtype", ["f8", "f4"])
def test_three_float_operands_past_the_buffer(rows, cols, dtype):
    """Lanes longer than NumPy's 8192-item buffer: each inner loop's sum starts
    from zero, as NumPy's ``sum_of_products_outstride0_three`` does."""
    rng = np.random.default_rng(rows + cols)
    m = _operand(rng, (rows, cols), dtype, "C", False)
    x = _operand(rng, (cols,), dtype, "C", False)
    y = _operand(rng, (rows,), dtype, "C", False)
    # (one specialisation of each per dtype, for every size)
    assert_same_bits(jitted_for(row_weights, (m, x, y), fallback=False)(m, x, y),
                     row_weights(m, x, y))
    v = _operand(rng, (rows * cols,), dtype, "strided", False)
    w = v[::-1]
    assert_same_bits(jitted_for(dot3, (v, v, w), fallback=False)(v, v, w), dot3(v, v, w))


def four_labels(a, b):
    return np.einsum("jlki,jlk->l", a, b)


@pytest.mark.parametrize("dtype", ["f4", "f8"])
def test_a_buffered_operand_is_summed_as_a_contiguous_one(dtype):
    """Four merged labels: NumPy's buffered iterator spans two labels a loop and
    copies the reversed operand into its buffer, so the loop it sums with is
    the contiguous one (a SIMD sum times the other's value), not the strided
    one its own stride would choose (a wrong answer before, 1 case in 150)."""
    rng = np.random.default_rng(0)
    big = rng.standard_normal((15, 6, 8, 286)).astype(dtype)
    a = big[1:, 1:, 1:, 1:][..., ::-1]
    b = rng.standard_normal((14, 5, 7)).astype(dtype)
    assert_same_bits(jit(four_labels, fallback=False)(a, b), four_labels(a, b))


@settings(max_examples=16, deadline=None)
@given(st.sampled_from([1, 2]), st.sampled_from(["f8", "f4"]), st.integers(0, 2**32 - 1))
def test_generated_float_einsums_of_one_or_two_operands(nop, dtype, seed):
    """Generated subscripts of one or two float operands (four merged labels
    and more go through NumPy's buffered iterator)."""
    _generated(nop, dtype, seed)


def _random_spec(rng, nop):
    labels = "ijkl"[:int(rng.integers(1, 5))]
    sizes = {c: int(rng.choice([1, 2, 3, 7, 40, 300, 2000, 9000])) for c in labels}
    while np.prod(list(sizes.values())) > 60000:
        c = labels[rng.integers(0, len(labels))]
        sizes[c] = max(1, sizes[c] // 7)
    terms = ["".join(rng.permutation(list(labels))[:int(rng.integers(1, len(labels) + 1))])
             for _ in range(nop)]
    used = sorted(set("".join(terms)))
    out = "".join(rng.permutation([c for c in used if rng.random() < 0.5]))
    return ",".join(terms) + "->" + out, sizes


@settings(max_examples=16, deadline=None)
@given(st.sampled_from([3, 3, 4]), st.sampled_from(["f8", "f4"]), st.integers(0, 2**32 - 1))
def test_generated_float_einsums_of_three_operands_or_more(nop, dtype, seed):
    """Generated subscripts of three or four float operands over labels of
    lengths from 1 to past the buffer, each operand C, Fortran, reversed or
    strided: NumPy's bits, shape and strides."""
    _generated(nop, dtype, seed)


@settings(max_examples=13, deadline=None)
@given(st.sampled_from([1, 2, 2, 3, 4]), st.sampled_from(["c16", "c8"]),
       st.integers(0, 2**32 - 1))
def test_generated_complex_einsums(nop, dtype, seed):
    """Complex operands: NumPy's complex loops (a product part by part, sums
    in order, four values a step for one contiguous operand) in the inner
    loops of its iterator."""
    _generated(nop, dtype, seed)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([1, 2, 2, 3, 4]), st.integers(0, 2**32 - 1))
def test_generated_einsums_of_several_dtypes(nop, seed):
    """Operands of float32, float64, integer and complex dtypes: NumPy casts
    each to the promoted dtype and buffers it (a cast operand always is),
    which decides the inner loops; values, dtype, shape and strides as
    NumPy's."""
    rng = np.random.default_rng(seed)
    dtypes = list(rng.choice(["f4", "f8", "i1", "i4", "i8", "u8", "c8", "c16", "?"], nop))
    if all(d[0] != "f" for d in dtypes):
        dtypes[0] = "f4"
    _generated(nop, dtypes, seed)


def _generated(nop, dtype, seed):
    from hanajit.testing.sourcefile import load_module
    rng = np.random.default_rng(seed)
    spec, sizes = _random_spec(rng, nop)
    args = ", ".join(f"x{k}" for k in range(nop))
    fn = load_module(f"import numpy as np\n\n\ndef f({args}):\n"
                     f"    return np.einsum({spec!r}, {args})\n", "einsum").f
    layouts = ["C", "F", "reversed", "strided"]
    dtypes = dtype if isinstance(dtype, list) else [dtype] * nop
    ops = [_operand(rng, _shapes(spec, sizes)[k], dtypes[k], layouts[rng.integers(0, 4)],
                    rng.random() < 0.3) for k in range(nop)]
    want = fn(*ops)
    got = jit(fn, fallback=False)(*ops)
    assert_same_bits(got, want)
    if isinstance(want, np.ndarray):
        assert got.strides == want.strides, spec


def chain4(a, b, c, d):
    return np.einsum("ij,jk,kl,lm->im", a, b, c, d)


def outer4(a, b, c, d):
    return np.einsum("i,j,k,l->lkji", a, b, c, d), np.einsum("i,i,i,i", a, a, a, a)


def mixed_pair(a, b):
    return np.einsum("ij,jk", a, b), np.einsum("ij,ij->j", a, a), np.einsum("ij,jk->", a, b)


INT_DTYPES = ["i1", "u1", "i2", "u2", "i4", "u4", "i8"]


def _int_operand(rng, shape, dtype, layout):
    info = np.iinfo(dtype)
    a = rng.integers(max(info.min, -1000), min(info.max, 1000), shape, endpoint=True)
    return _laid_out(a.astype(dtype), layout)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([chain4, outer4, mixed_pair, chain, weighted]),
       st.lists(st.sampled_from([1, 2, 3, 7, 16]), min_size=5, max_size=5),
       st.lists(st.sampled_from(INT_DTYPES), min_size=4, max_size=4),
       st.lists(LAYOUTS, min_size=4, max_size=4), st.integers(0, 2**32 - 1))
def test_integers_of_several_dtypes_and_four_operands(fn, lengths, dtypes, layouts, seed):
    """Integers of different dtypes are computed in NumPy's promoted dtype
    (each operand cast to it first; wrapping as NumPy's), four operands or
    more in NumPy's generic loop (``einsum_many``); values, dtypes, shapes and
    strides as NumPy's."""
    rng = np.random.default_rng(seed)
    i, j, k, m, n = lengths
    shapes = {chain4: [(i, j), (j, k), (k, m), (m, n)], outer4: [(i,), (j,), (k,), (m,)],
              mixed_pair: [(i, j), (j, k)], chain: [(i, j), (j, k), (k, m)],
              weighted: [(i, j, k), (i,), (j,)]}[fn]
    ops = [_int_operand(rng, s, d, lay) for s, d, lay in zip(shapes, dtypes, layouts)]
    want = fn(*ops)
    got = jitted(fn, fallback=False)(*ops)
    assert_same_bits(got, want)
    for g, w in zip(got if isinstance(got, tuple) else [got],
                    want if isinstance(want, tuple) else [want]):
        if isinstance(w, np.ndarray):
            assert g.strides == w.strides


def ellipses(a, b):
    return (np.einsum("...ij,...jk->...ik", a, b), np.einsum("...ij,...jk", a, b),
            np.einsum("...i,...i->...", a, a), np.einsum("i...->...", b))


def traces(m):
    return np.einsum("...ii->...i", m) * 1, np.einsum("...ii", m)


def test_ellipses_broadcast_as_numpys():
    """An ellipsis stands for the broadcast axes, aligned on the right; in
    implicit mode they come first in the output."""
    rng = np.random.default_rng(3)
    a = _operand(rng, (4, 3, 5, 6), np.float64, "C", False)
    for b in (_operand(rng, (3, 6, 2), np.float64, "F", False),
              _operand(rng, (1, 6, 2), np.float64, "C", False),
              _operand(rng, (6, 2), np.float64, "reversed", False)):
        assert_same_bits(jitted_for(ellipses, (a, b))(a, b), ellipses(a, b))
    m = _operand(rng, (2, 5, 5), np.float32, "strided", True)
    assert_same_bits(jit(traces)(m), traces(m))


def test_other_forms_fall_back_with_the_reason():
    def ellipsis(a):
        return np.einsum("...i->i", a)

    def half(a, b):
        return np.einsum("i,i->", a, b)

    x = np.arange(4.0)
    with pytest.raises(ValueError):             # NumPy's error, from the interpreter
        with pytest.warns(HanaJitFallbackWarning, match="ellipsis summed away"):
            jit(ellipsis)(x[None])
    for fn, args, why in ((half, (x, x.astype(np.float16)), "float16"),):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            assert_same_bits(jit(fn)(*args), fn(*args))
        assert any(issubclass(w.category, HanaJitFallbackWarning) and why in str(w.message)
                   for w in seen), why


def logical(a, b):
    return (np.einsum("ij,jk->ik", a, b), np.einsum("ij,ij->", a, a), np.einsum("ij->j", b),
            np.einsum("ij,j->i", a, b[:, 0]), np.einsum("ii->i", a[:2, :2]))


@pytest.mark.parametrize("layout", ["C", "F", "reversed", "strided"])
def test_booleans_are_numpys_or_of_ands(layout):
    """Boolean operands: true where any product is (NumPy's ``||`` of
    ``&&``, here a float32 sum of products), a bool array or ``np.bool_``;
    all false, all true and sparse."""
    rng = np.random.default_rng(4)
    for p in (0.0, 0.05, 0.5, 1.0):
        a = _laid_out(rng.random((6, 9)) < p, layout)
        b = _laid_out(rng.random((9, 5)) < p, layout)
        # (one specialisation per argument types, for every p and layout)
        assert_same_bits(jitted_for(logical, (a, b), fallback=False)(a, b), logical(a, b))


def any_true(x):
    return np.einsum("i,i->", x, x), np.einsum("i->", x)


def test_boolean_sums_never_wrap_to_false():
    """Many true products: 256 (a count in 8 bits wraps to 0) and past 2**24
    (a float32 count stops growing there)."""
    f = jit(any_true, fallback=False)
    for n in (256, 512, 2**24 + 3):
        x = np.ones(n, np.bool_)
        assert_same_bits(f(x), any_true(x))


def test_a_sparse_view_of_another_dtype_runs_in_the_interpreter():
    """An operand cast to the promoted dtype is copied over the memory it
    spans; a view spanning far more than it holds re-runs in the interpreter
    instead (same values)."""
    def dot(a, b):
        return np.einsum("i,i->", a, b)
    big = np.arange(10**6, dtype=np.int32)
    y = np.arange(1000, dtype=np.int64)
    f = jit(dot)
    for x in (big[::1000], big[:1000], big[:2000:2]):
        assert_same_bits(f(x, y), dot(x, y))
