"""np.dot, @, np.matmul, .dot and np.vdot of float and complex arrays are NumPy's
results bit for bit: the same calls of NumPy's own BLAS, with the same copies of
layouts BLAS cannot take, and NumPy's own loops where NumPy uses them
(hanajit.lib.linalg.dot_algorithms)."""
import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]

DTYPES = (np.float64, np.float32, np.complex128, np.complex64)


def f_dot(a, b):
    return np.dot(a, b)


def f_matmul_op(a, b):
    return a @ b


def f_matmul(a, b):
    return np.matmul(a, b)


def f_method(a, b):
    return a.dot(b)


def f_vdot(a, b):
    return np.vdot(a, b)


def f_loop_of_dots(m, v):
    s = 0.0
    for i in range(m.shape[0]):
        s += np.dot(m[i], v)
    return s


PRODUCTS = (f_dot, f_matmul_op, f_matmul, f_method)


def same(got, want) -> bool:
    """Equal values, NaN where NumPy has NaN, and the signs of zeros (the sign
    of a NaN is not a result: neither NumPy nor LLVM keeps it)."""
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape or g.dtype != w.dtype and g.ndim:
        return False
    w = w.astype(g.dtype) if g.ndim == 0 else w
    if not np.array_equal(g, w, equal_nan=True):
        return False
    for p, q in ((g.real, w.real), (g.imag, w.imag)):
        num = ~np.isnan(q)
        if not np.array_equal(np.signbit(p[num]), np.signbit(q[num])):
            return False
    return True


def _vector(rng, n, dtype, special=False):
    x = rng.standard_normal(n) * 10 ** rng.uniform(-3, 3, n)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(n)
    x = x.astype(dtype)
    if special and n:
        pool = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-310, -1e300], dtype=dtype)
        k = rng.integers(0, n, max(1, n // 8))
        x[k] = pool[rng.integers(0, len(pool), len(k))]
    return x


def _views(x, n):
    """Ways a length-``n`` vector is laid out: contiguous, every second element,
    backwards, and a broadcast element (stride 0)."""
    out = [x[:n], x[: 2 * n: 2], x[n - 1:: -1][:n] if n else x[:0]]
    if n:
        out.append(np.broadcast_to(x[:1], (n,)))
    return out


# the four products share one lowering of two vectors: each takes two of the
# dtypes (every dtype twice), np.vdot all four
VECTOR_CASES = ([(f, DTYPES[(k + j) % 4]) for k, f in enumerate(PRODUCTS) for j in (0, 2)]
                + [(f_vdot, d) for d in DTYPES])
# The layout is tested at run time (``dot._blas_vv``, ``dot_algorithms``), whatever
# the arguments' types: np.dot, ``@`` and np.vdot compile every layout type (C,
# any, read-only) of two dtypes each; np.matmul, ``.dot`` (the lowerings of ``@``
# and np.dot) and np.vdot's other two dtypes run the same views through the
# any-layout specialisations alone, compiled first (``jit`` runs a contiguous
# array through an any-layout specialisation made before).
ANY_LAYOUT_ONLY = {(f_matmul, np.complex128), (f_matmul, np.float64),
                   (f_method, np.complex64), (f_method, np.float32),
                   (f_vdot, np.float32), (f_vdot, np.complex128)}


def _any_layout_first(jf, f, *arg_lists):
    """Compile ``jf`` for any-layout arrays (``arg_lists``: strided, not contiguous)
    first, checking those calls too, so that later contiguous calls run them."""
    for args in arg_lists:
        with np.errstate(all="ignore"):
            assert same(jf(*args), f(*args))


@pytest.mark.parametrize("f, dtype", VECTOR_CASES,
                         ids=lambda x: getattr(x, "__name__", None) or np.dtype(x).name)
def test_vectors_every_layout(f, dtype):
    rng = np.random.default_rng(11)
    if (f, dtype) in ANY_LAYOUT_ONLY:
        x, y = _vector(rng, 8, dtype), _vector(rng, 8, dtype)
        _any_layout_first(jitted(f, fallback=False), f, (x[::2], y[::2]),
                          (np.broadcast_to(x[:1], (4,)), y[::2]))
    for n in (0, 1, 2, 3, 7, 15, 16, 17, 31, 64, 100, 1001):
        x = _vector(rng, 3 * n + 2, dtype)
        y = _vector(rng, 3 * n + 2, dtype)
        for a in _views(x, n):
            for b in _views(y, n)[:2]:
                want = f(a, b)
                got = jitted(f, fallback=False)(a, b)
                assert same(got, want), (f.__name__, n, a.strides, b.strides, got, want)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("step", [1, 2, -1])
def test_one_element_complex_matmul_is_numpys_plain_product(dtype, step):
    """``@`` of one-element complex vectors: NumPy's loop without BLAS (found by
    the hypothesis test below: ``cblas_zdotu_sub`` gives NaN where the product is
    infinite)."""
    x = np.full(3, 1.5798e-4 + 1.304j, dtype)[::step][:1]
    for y in (np.array([complex(-np.inf, 0.0)], dtype), np.array([complex(0.0, np.inf)], dtype),
              np.array([complex(np.nan, 1.0)], dtype), np.array([2 - 3j], dtype)):
        with np.errstate(all="ignore"):
            want = x @ y
        got = jitted(f_matmul_op, fallback=False)(x, y)
        assert same(got, want), (x, y, got, want)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("step", [1, 2, -1])
def test_one_element_complex_vdot_is_numpys(dtype, step):
    """``np.vdot`` of one-element complex vectors: through BLAS whatever the
    element's stride, as NumPy's ravel gives it a fresh one (found by the
    hypothesis test below)."""
    x = np.full(3, 1.5798e-4 + 1.304j, dtype)[::step][:1]
    for y in (np.array([complex(-np.inf, 0.0)], dtype), np.array([2 - 3j], dtype)):
        with np.errstate(all="ignore"):
            want = np.vdot(x, y)
        got = jitted(f_vdot, fallback=False)(x, y)
        assert same(got, want), (x, y, got, want)


@settings(max_examples=90, deadline=None)
@given(st.integers(0, 300), st.sampled_from(DTYPES), st.integers(0, 2 ** 32 - 1),
       st.sampled_from(PRODUCTS + (f_vdot,)), st.booleans(), st.sampled_from([1, 2, -1, -3]))
def test_vectors_hypothesis(n, dtype, seed, f, special, step):
    rng = np.random.default_rng(seed)
    x = _vector(rng, abs(step) * n + 1, dtype, special)
    y = _vector(rng, n, dtype, special)
    a = x[::step][:n]
    want = f(a, y)
    got = jitted(f, fallback=False)(a, y)
    assert same(got, want), (n, step, got, want)


def test_vdot_flattens_and_conjugates():
    rng = np.random.default_rng(5)
    for dtype in DTYPES:
        a = _vector(rng, 24, dtype).reshape(4, 6)
        b = _vector(rng, 24, dtype).reshape(6, 4)
        pairs = [(a, b), (a.T, b), (a[:, ::2], b[::2]), (a.ravel(), b)]
        if dtype in (np.float32, np.complex128):    # (the flattening is at run time:
            pairs.insert(0, pairs.pop(2))           # these two through the any layout)
        for x, y in pairs:
            assert same(jitted(f_vdot, fallback=False)(x, y), np.vdot(x, y))
        c = _vector(rng, 6, dtype).reshape(2, 3, 1)
        d = _vector(rng, 6, dtype)
        assert same(jitted(f_vdot, fallback=False)(c, d), np.vdot(c, d))
    for dtype in (np.int8, np.int64, np.uint16):     # (one loop: narrow, wide, unsigned)
        a = rng.integers(-100, 100, 50).astype(dtype)
        b = rng.integers(-100, 100, 50).astype(dtype)
        assert same(jitted(f_vdot, fallback=False)(a, b), np.vdot(a, b))
        assert same(jitted(f_vdot, fallback=False)(a.reshape(5, 10), b[::-1]),
                    np.vdot(a.reshape(5, 10), b[::-1]))
    with pytest.raises(ValueError, match="different lengths"):
        jitted(f_vdot, fallback=False)(np.ones(3), np.ones(4))


def test_mismatched_lengths_raise_numpys_error():
    with pytest.raises(ValueError, match="not aligned"):
        jitted(f_dot, fallback=False)(np.ones(3), np.ones(4))


def test_dots_in_a_loop():
    rng = np.random.default_rng(2)
    m = rng.standard_normal((500, 3))
    v = rng.standard_normal(3)
    assert same(jitted(f_loop_of_dots, fallback=False)(m, v), f_loop_of_dots(m, v))
    m = rng.standard_normal((50, 40))
    v = rng.standard_normal(40)
    f = jit(f_loop_of_dots, fallback=False)
    assert same(f(m, v), f_loop_of_dots(m, v))
    assert "cblas_ddot" in f.inspect_llvm()


# -- matrices ---------------------------------------------------------------------
def _matrix(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _layouts(x):
    """C, Fortran, rows reversed, every second column, a window of a wider array."""
    yield x
    yield np.asfortranarray(x)
    yield x[::-1]
    wide = np.zeros((x.shape[0], 2 * x.shape[1] + 1), x.dtype)
    wide[:, : 2 * x.shape[1]: 2] = x
    yield wide[:, : 2 * x.shape[1]: 2]
    window = np.zeros((x.shape[0], x.shape[1] + 3), x.dtype)
    window[:, : x.shape[1]] = x
    yield window[:, : x.shape[1]]


SHAPES = [(1, 1, 1), (1, 5, 1), (5, 1, 1), (1, 1, 5), (3, 4, 5), (7, 1, 6), (1, 6, 7),
          (6, 7, 1), (2, 2, 2), (20, 30, 25), (40, 3, 40), (0, 3, 2), (3, 0, 2)]


# (the layouts are tested at run time, in ``dot_algorithms``: two of the four
# cases compile every layout type, the others run every layout through the
# any-layout specialisations, compiled first)
ANY_LAYOUT_ONLY_MATRICES = {(f_dot, np.complex64), (f_matmul_op, np.float32)}


@pytest.mark.parametrize("f, dtype", [(f_dot, np.float64), (f_dot, np.complex64),
                                      (f_matmul_op, np.float32), (f_matmul_op, np.complex128)],
                         ids=lambda x: getattr(x, "__name__", None) or np.dtype(x).name)
def test_matrices_every_layout(f, dtype):
    """Matrix @ matrix, matrix @ vector and vector @ matrix, every shape class NumPy
    treats apart (1x1 scalars, rows, columns, empty) in five layouts.  ``np.dot``
    and ``@`` of these shapes are one lowering: each dtype is run once, the real
    and the complex ones through each."""
    rng = np.random.default_rng(3)
    jf = jitted(f, fallback=False)
    if (f, dtype) in ANY_LAYOUT_ONLY_MATRICES:
        x, y = _matrix(rng, (4, 6), dtype), _matrix(rng, (6, 4), dtype)
        _any_layout_first(jf, f, (x[:, ::2], y[::2]), (x[:, ::2], y[::2, 1]),
                          (x[1, ::2], y[::2]))
    for (L, M, N) in SHAPES:
        x = _matrix(rng, (L, M), dtype)
        y = _matrix(rng, (M, N), dtype)
        for a in _layouts(x):
            for b in list(_layouts(y))[:3]:
                cases = [(a, b)]
                if N:
                    cases.append((a, b[:, 0]))
                if L:
                    cases.append((a[0], b))
                for args in cases:
                    want = f(*args)
                    got = jf(*args)
                    assert same(got, want), (f.__name__, [t.shape for t in args],
                                             [t.strides for t in args])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_matrix_times_its_transpose(dtype):
    """NumPy computes ``a @ a.T`` with ?syrk and mirrors the upper triangle."""
    x = _matrix(np.random.default_rng(4), (30, 20), dtype)
    for f in (f_dot, f_matmul_op):
        jf = jitted(f, fallback=False)
        for args in ((x, x.T), (x.T, x), (np.asfortranarray(x), np.asfortranarray(x).T)):
            assert same(jf(*args), f(*args))


def test_matrix_products_match_with_special_values():
    rng = np.random.default_rng(8)
    jf = jitted(f_matmul_op, fallback=False)
    for dtype in DTYPES:
        a = _matrix(rng, (9, 17), dtype)
        b = _matrix(rng, (17, 8), dtype)
        a[2, 3] = np.nan
        a[4, :] = 0.0
        b[:, 5] = -0.0
        b[1, 1] = np.inf
        assert same(jf(a, b), a @ b)
        assert same(jitted(f_dot, fallback=False)(a, b), np.dot(a, b))


# -- np.convolve / np.correlate -------------------------------------------------------
def f_convolve_full(a, v):
    return np.convolve(a, v)


def f_convolve_same(a, v):
    return np.convolve(a, v, "same")


def f_convolve_valid(a, v):
    return np.convolve(a, v, mode="valid")


def f_correlate_valid(a, v):
    return np.correlate(a, v)


def f_correlate_same(a, v):
    return np.correlate(a, v, "same")


def f_correlate_full(a, v):
    return np.correlate(a, v, mode="full")


CORRELATIONS = (f_convolve_full, f_convolve_same, f_convolve_valid, f_correlate_valid,
                f_correlate_same, f_correlate_full)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_convolve_and_correlate(dtype):
    """Every mode, either operand the longer, kernels around NumPy's 11-tap unrolled
    path, reversed inputs: NumPy's bits."""
    rng = np.random.default_rng(6)
    jfs = {f: jit(f, fallback=False) for f in CORRELATIONS}
    for na in (1, 2, 5, 11, 12, 30):
        for nv in (1, 3, 11, 12, 40):
            a = _vector(rng, na, dtype)
            v = _vector(rng, nv, dtype)
            for x in (a, a[::-1]):
                for f, jf in jfs.items():
                    assert same(jf(x, v), f(x, v)), (f.__name__, na, nv)


def test_convolve_of_empty_arrays_raises_numpys_error():
    with pytest.raises(ValueError, match="a cannot be empty"):
        jitted(f_convolve_full, fallback=False)(np.ones(0), np.ones(3))
    with pytest.raises(ValueError, match="v cannot be empty"):
        jitted(f_convolve_full, fallback=False)(np.ones(3), np.ones(0))
    with pytest.raises(ValueError, match="second array argument cannot be empty"):
        jitted(f_correlate_valid, fallback=False)(np.ones(3), np.ones(0))


def test_helpers_run_in_the_interpreter_too():
    """The helpers' prims.blas_* have Python bodies (ctypes calls of the same CBLAS
    functions): run uncompiled, the helpers give NumPy's results as well."""
    from hanajit.lib.linalg import dot_algorithms as hb
    rng = np.random.default_rng(9)
    for dtype in DTYPES:
        a = _matrix(rng, (6, 5), dtype)
        b = _matrix(rng, (5, 4), dtype)
        z = np.zeros(1, dtype)[0]
        out = np.empty((6, 4), dtype)
        assert hb.matmul_mm(a, b, out, z) == 1 and same(out, a @ b)
        out = np.empty((6, 4), dtype)
        assert hb.np_dot_mm(np.asfortranarray(a), b, out, z) == 1
        assert same(out, np.dot(np.asfortranarray(a), b))
        out = np.empty((6, 6), dtype)
        assert hb.matmul_mm(a, a.T, out, z) == 1 and same(out, a @ a.T)
        v = _vector(rng, 40, dtype)
        assert same(hb.np_dot_vv_complex(v, v[::-1]) if v.dtype.kind == "c"
                    else hb.np_dot_vv_real(v, v[::-1]), np.dot(v, v[::-1]))


def f_inner(a, b):
    return np.inner(a, b)


MIXED = [(np.float64, np.float32), (np.complex128, np.float64), (np.float32, np.int32),
         (np.bool_, np.float64), (np.complex64, np.float32), (np.int64, np.float32)]
# the cast (``dot._cast_copy``) is one element-wise conversion whatever the pair:
# the product decides only the copy's order (``np.dot`` and ``np.inner`` keep it,
# ``@`` makes C).  ``np.dot`` runs every pair; ``@`` and ``np.inner`` half of them
# each, between them every pair, each a float, a complex and an int/bool one
MIXED_CASES = ([(f_dot, da, db) for da, db in MIXED]
               + [(f_matmul_op, *MIXED[k]) for k in (0, 3, 4)]
               + [(f_inner, *MIXED[k]) for k in (1, 2, 5)])


@pytest.mark.parametrize("f, da, db", MIXED_CASES,
                         ids=lambda x: getattr(x, "__name__", None) or np.dtype(x).name)
def test_operands_of_two_dtypes_are_cast_as_numpy_casts_them(f, da, db):
    """NumPy casts both operands to the result's dtype (``np.dot`` keeping each
    one's memory order, ``matmul`` in C order), then calls its BLAS."""
    rng = np.random.default_rng(5)
    g = jitted(f)
    # the cast is the same conversion whatever the layouts, and the layouts' copies
    # are the same whatever the pair: each product's pairs take every other layout
    # case in turn (np.dot runs each case with a complex result, a real one and an
    # int or bool operand), the matrix times matrix one every pair
    half = MIXED_CASES.index((f, da, db)) % 2
    for k in (1, 7, 40):
        a2, b2 = (rng.standard_normal((3, k)) * 3).astype(da), (rng.standard_normal((k, 4)) * 3)
        b2 = b2.astype(db)
        cases = [(a2[0], b2[:, 0]), (a2, b2[:, 0]), (a2[0], b2), (a2, b2),
                 (np.asfortranarray(a2), b2[:, 0]), (a2, np.asfortranarray(b2)),
                 (a2[:, ::-1], b2[::-1])]
        cases = [c for j, c in enumerate(cases) if j % 2 == half or j == 3]
        for a, b in cases:
            if f is f_inner:
                b = b.T
            with np.errstate(all="ignore"):
                assert same(g(a, b), f(a, b)), (a.shape, a.strides, b.shape, b.strides)
