"""``np.linalg.norm(x, ord=2|-2|'nuc')`` of matrices and stacks, and
``np.linalg.matrix_norm`` with those orders, on the CPU target: the singular values
come from NumPy's own LAPACK (``?gesdd``) as NumPy's ``_multi_svd_norm`` gets
them, then ``amax``/``amin``/``sum``, so every result is NumPy's bit for bit
(bytes, dtype, shape).  ``fallback=False`` throughout."""
import numpy as np
import pytest
from hanajit.testing.jitted import jitted

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")
L = np.linalg
INF = float("inf")


def n2(x):
    return L.norm(x, 2)


def nm2(x):
    return L.norm(x, -2)


def nnuc(x):
    return L.norm(x, "nuc")


def stack_norms(x):
    return (L.norm(x, 2, axis=(1, 2)), L.norm(x, -2, axis=(2, 0), keepdims=True),
            L.norm(x, "nuc", axis=(-1, -3)))


def matrix_norms(x):
    return (L.matrix_norm(x, ord=2), L.matrix_norm(x, ord=-2, keepdims=True),
            L.matrix_norm(x, ord="nuc"))


KERNELS = (n2, nm2, nnuc)


def same(got, exp):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            same(g, e)
        return
    g, e = np.asarray(got), np.asarray(exp)
    assert type(got) is type(exp) or isinstance(exp, np.ndarray) == isinstance(got, np.ndarray)
    assert g.dtype == e.dtype and g.shape == e.shape, (got, exp)
    assert g.tobytes() == e.tobytes(), (got, exp)


def compare(fn, x):
    try:
        exp = fn(x)
    except Exception as e:                    # noqa: BLE001
        with pytest.raises(type(e)):
            jitted(fn, fallback=False)(x)
        return
    same(jitted(fn, fallback=False)(x), exp)


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    elif np.dtype(dtype).kind in "iu":
        a = np.round(a)
    return a.astype(dtype)


def layouts(a):
    """``a`` C-ordered, Fortran-ordered, reversed and strided.  float64 compiles
    each layout; other dtypes get the views of any layout first, and the C and
    Fortran arrays then run through that compilation (which accepts them: the
    singular values are computed on a Fortran-ordered copy of any layout)."""
    big = np.zeros(tuple(2 * d for d in a.shape), a.dtype)
    big[tuple(slice(None, None, 2) for _ in a.shape)] = a
    views = [a, np.asfortranarray(a), a[::-1, ::-1] if a.ndim == 2 else a[::-1, :, ::-1],
             big[tuple(slice(None, None, 2) for _ in a.shape)]]
    return views if a.dtype == np.float64 else views[2:] + views[:2]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64,
                                   np.int64, np.int32, np.uint8, np.bool_])
def test_matrices_every_dtype_and_layout(dtype):
    for shape in [(1, 1), (2, 3), (4, 4), (6, 5), (3, 6)]:
        for x in layouts(data(shape, dtype, sum(shape))):
            for fn in KERNELS:
                compare(fn, x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_stacks_axis_pairs_keepdims(dtype):
    for shape in [(2, 3, 4), (3, 1, 5), (4, 4, 2)]:
        for x in layouts(data(shape, dtype, 7)):
            compare(stack_norms, x)
            compare(matrix_norms, x)
    compare(matrix_norms, data((2, 2, 3, 4), dtype, 1))
    compare(matrix_norms, data((3, 5), dtype, 2))


def test_sizes_zero_to_six_and_nuc_pairwise():
    """Every size up to 6, and longer singular value lists (NumPy sums them
    pairwise: 8 accumulators from 8 values on)."""
    for m in range(7):
        for n in range(7):
            for fn in KERNELS:
                compare(fn, data((m, n), np.float64, 10 * m + n))
    for k in (8, 9, 17, 20):
        compare(nnuc, data((k, k), np.float64, k))
        compare(nnuc, data((k, k + 1), np.float32, k))


def test_empty_matrices_and_stacks():
    for shape in [(0, 3, 2), (2, 0, 3), (3, 2, 0), (0, 0, 0)]:
        x = np.zeros(shape)
        compare(stack_norms, x)
        compare(matrix_norms, x)


def test_special_values():
    """NaN: LinAlgError "SVD did not converge" (as NumPy's LAPACK); infinities give
    NaN singular values, and which NaN ``amin``/``amax`` keep is NumPy's SIMD
    loops' choice, so those calls re-run in the interpreter -- NumPy's bits."""
    a = np.arange(6.0).reshape(2, 3)
    a[1, 2] = np.nan
    for fn in KERNELS:
        with pytest.raises(L.LinAlgError, match="SVD did not converge"):
            jitted(fn, fallback=False)(a)
    b = np.array([[INF, -INF, INF], [INF, -INF, INF], [INF, INF, -INF]], np.float32)
    c = np.ones((3, 2, 2))
    c[1, 0, 0] = -INF
    for fn in KERNELS:
        compare(fn, b)
        compare(fn, b.astype(np.complex128))
    compare(stack_norms, c)
    compare(matrix_norms, c)
    d = np.array([[0.0, -0.0], [-0.0, 0.0]])
    huge = np.full((3, 3), 1e308)
    tiny = np.diag([5e-324, 1.0])
    for fn in KERNELS:
        for x in (d, huge, tiny, np.eye(3, dtype=bool)):
            compare(fn, x)


def test_errors():
    with pytest.raises(ValueError):             # amin of no singular values
        jitted(nm2, fallback=False)(np.zeros((0, 3)))
    with pytest.raises(ValueError):
        jitted(matrix_norms, fallback=False)(np.zeros((2, 3, 0)))
    compare(n2, np.zeros((0, 3)))
    compare(nnuc, np.zeros((3, 0)))
