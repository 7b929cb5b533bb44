"""NumPy spellings that ran in the interpreter: ``a.transpose(axes)``, ``a.mT``,
``a.conj()``, ``np.ascontiguousarray``/``np.asfortranarray``, and the ufunc
methods ``np.add.reduce``, ``np.maximum.reduce``, ``np.add.accumulate`` ...
Each compiles (no fallback) and gives NumPy's values, types, layouts and
aliasing (a view where NumPy returns the array itself)."""
import functools

import numpy as np
import pytest

from hanajit import jit


@functools.lru_cache(maxsize=None)
def _compiled(fn):
    """``jit(fn)`` that raises where it would run in the interpreter."""
    return jit(fn, fallback=False)


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


X = np.arange(24.0).reshape(2, 3, 4) * 1.5 - 7
Z = X + 1j * X[::-1]


def t_varargs(a):
    return a.transpose(2, 0, 1)


def t_tuple(a):
    return a.transpose((1, 2, 0))


def t_none(a):
    return a.transpose(None)


def t_function(a):
    return np.transpose(a, (0, 2, 1))


def t_keyword(a):
    return np.transpose(a, axes=(2, 1, 0))


def t_negative(a):
    return a.transpose(-1, 0, -2)


@pytest.mark.parametrize("fn", [t_varargs, t_tuple, t_none, t_function, t_keyword,
                                t_negative])
@pytest.mark.parametrize("layout", ["C", "F", "stepped"])
def test_transpose_with_axes_is_numpys_view(fn, layout):
    a = {"C": X, "F": np.asfortranarray(X), "stepped": X[:, ::2, ::-1]}[layout]
    got, want = _compiled(fn)(a), fn(a)
    _same(got, want)
    assert got.strides == want.strides


def matrix_transpose(a):
    return a.mT


def matrix_transpose_written(a):
    a.mT[0, 1] = 100.0
    return a


@pytest.mark.parametrize("a", [X, np.asfortranarray(X), X[:, ::2, ::-1], X[0],
                               np.asfortranarray(X[0]), Z[1]], ids=range(6))
def test_mT_swaps_the_last_two_axes_as_a_view(a):
    got, want = _compiled(matrix_transpose)(a), matrix_transpose(a)
    _same(got, want)
    assert got.strides == want.strides and np.shares_memory(got, a)
    _same(_compiled(matrix_transpose_written)(a.copy()), matrix_transpose_written(a.copy()))


def test_mT_of_one_dimension_runs_in_the_interpreter_for_its_error():
    with pytest.warns(Warning, match="mT"), pytest.raises(ValueError):
        jit(matrix_transpose)(X[0, 0])


def transpose_then_write(a):
    v = a.transpose(1, 0, 2)
    v[0, 1, 2] = 100.0
    return a


def test_a_transposed_view_writes_into_its_array():
    _same(_compiled(transpose_then_write)(X.copy()), transpose_then_write(X.copy()))


def conj(a):
    return a.conj()


def conjugate_product(a):
    return (a.conjugate() * a).real.sum()


def conj_written(a):
    b = a.conj()
    b[0, 0, 0] = -1.0
    return a


@pytest.mark.parametrize("fn", [conj, conjugate_product])
@pytest.mark.parametrize("a", [X, Z, Z.astype(np.complex64), Z[:, ::-1]],
                         ids=["float", "complex", "complex64", "reversed"])
def test_conj_methods(fn, a):
    _same(_compiled(fn)(a), fn(a))


def test_conj_of_a_real_array_is_the_array_itself():
    _same(_compiled(conj_written)(X.copy()), conj_written(X.copy()))
    # a complex array's is a new one
    _same(_compiled(conj_written)(Z.copy()), conj_written(Z.copy()))


def c_order(a):
    b = np.ascontiguousarray(a)
    b[0, 0] = -1.0
    return b


def f_order(a):
    b = np.asfortranarray(a)
    b[0, 0] = -2.0
    return b


def c_of_expression(a):
    return np.ascontiguousarray(a * 2.0)


def f_of_expression(a):
    return np.asfortranarray(a + 1.0)


M = np.arange(12.0).reshape(3, 4)
LAYOUTS = {"C": lambda: M.copy(), "F": lambda: np.asfortranarray(M),
           "transposed": lambda: M.copy().T, "stepped": lambda: M.copy()[:, ::2],
           "one row": lambda: M.copy()[:1], "one column": lambda: M.copy()[:, 1:2]}


@pytest.mark.parametrize("fn", [c_order, f_order])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_contiguous_arrays_are_returned_themselves_others_copied(fn, layout):
    a, b = LAYOUTS[layout](), LAYOUTS[layout]()
    got, want = _compiled(fn)(a), fn(b)
    _same(got, want)
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
        want.flags.c_contiguous, want.flags.f_contiguous)
    _same(a, b)             # written through where NumPy returned the array itself


@pytest.mark.parametrize("fn", [c_of_expression, f_of_expression])
def test_contiguous_copies_of_expressions(fn):
    for a in (M, M.T):
        got, want = _compiled(fn)(a), fn(a)
        _same(got, want)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous


UFUNC_METHODS = [
    lambda a: np.add.reduce(a),
    lambda a: np.add.reduce(a, axis=1),
    lambda a: np.add.reduce(a, 2),
    lambda a: np.add.reduce(a, axis=None),
    lambda a: np.add.reduce(a, keepdims=True),
    lambda a: np.multiply.reduce(a, axis=0),
    lambda a: np.maximum.reduce(a),
    lambda a: np.minimum.reduce(a, axis=(0, 2)),
    lambda a: np.logical_and.reduce(a > 0),
    lambda a: np.logical_or.reduce(a > 1, axis=1),
    lambda a: np.add.reduce(a > 0),
    lambda a: np.add.accumulate(a),
    lambda a: np.multiply.accumulate(a, axis=2),
]


@pytest.mark.parametrize("k", range(len(UFUNC_METHODS)))
def test_ufunc_reduce_and_accumulate_as_numpy(k):
    fn = UFUNC_METHODS[k]
    for a in (X, np.asfortranarray(X), (X * 3).astype(np.int8)):
        got, want = _compiled(fn)(a), fn(a)
        assert type(got) is type(want)
        _same(got, want)


def real_times_imag(a):
    return np.real(a) * np.imag(a)


def real_written(a):
    r = np.real(a)
    r[0, 0, 0] = 5.0
    return a


@pytest.mark.parametrize("a", [X, Z, Z.astype(np.complex64)[:, ::-1]],
                         ids=["float", "complex", "complex64 reversed"])
def test_np_real_and_imag_are_the_attributes(a):
    _same(_compiled(real_times_imag)(a), real_times_imag(a))
    _same(_compiled(real_written)(a.copy()), real_written(a.copy()))    # a view


def _outcome(fn, *args):
    try:
        r = fn(*args)
    except (ValueError, IndexError) as e:
        return type(e), str(e)
    return type(r), r


def item_of_one(a):
    return a.item()


def item_flat(a):
    return a.item(3)


def item_last(a):
    return a.item(-1)


def item_per_axis(a):
    return a.item(1, 2)


def sum_of_items(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i].item()
    return s


@pytest.mark.parametrize("fn,a", [
    (item_of_one, np.array([2.5])), (item_of_one, np.array([[7]], np.int32)),
    (item_of_one, np.array(True)), (item_of_one, np.array([1 + 2j], np.complex64)),
    (item_of_one, np.arange(3.0)), (item_flat, M), (item_flat, np.arange(3)),
    (item_flat, np.arange(6, dtype=np.uint8)), (item_last, M.T), (item_per_axis, M),
    (item_per_axis, np.arange(6).reshape(3, 2)), (sum_of_items, np.arange(5.0, dtype=np.float32)),
])
def test_item_gives_python_numbers_and_numpys_errors(fn, a):
    assert _outcome(_compiled(fn), a) == _outcome(fn, a)


def copy_f(a):
    return a.copy(order="F")


def copy_c(a):
    return a.copy(order="C")


def copy_k(a):
    return a.copy(order="K")


def np_copy(a):
    return np.copy(a)


@pytest.mark.parametrize("fn", [copy_f, copy_c, copy_k, np_copy])
@pytest.mark.parametrize("layout", ["C", "F", "transposed"])
def test_copies_in_the_order_asked(fn, layout):
    a = LAYOUTS[layout]()
    got, want = _compiled(fn)(a), fn(a)
    _same(got, want)
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
        want.flags.c_contiguous, want.flags.f_contiguous)


def divmod_of(a, b):
    return np.divmod(a, b)


def divmod_parts(a):
    q, r = np.divmod(a, 3)
    return q * 10 + r


@pytest.mark.parametrize("a,b", [(np.arange(-5, 6), 3), (np.arange(-5.0, 6.0), -2.5),
                                 (np.float32(7.5), 2), (7, 2), (-7.5, 2.0),
                                 (np.arange(6).reshape(2, 3), np.array([1, 2, -4])),
                                 (np.arange(4, dtype=np.uint8), np.uint8(3))])
def test_divmod_is_floor_divide_and_remainder(a, b):
    with np.errstate(all="ignore"):
        got, want = _compiled(divmod_of)(a, b), divmod_of(a, b)
    assert type(got) is type(want) and len(got) == 2
    for g, w in zip(got, want):
        assert type(g) is type(w)
        _same(g, w)
    _same(_compiled(divmod_parts)(np.arange(-9, 10)), divmod_parts(np.arange(-9, 10)))


def sinc(a):
    return np.sinc(a)


@pytest.mark.parametrize("a", [np.linspace(-3, 3, 13), np.arange(-3, 4),
                               np.linspace(-2, 2, 9, dtype=np.float32), np.float32(0.5), 0.0])
def test_sinc_as_numpy_computes_it(a):
    got, want = _compiled(sinc)(a), sinc(a)
    assert type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype
    # sin in a vectorised loop is vector math (docs/semantics.md): within 4 ulp
    np.testing.assert_array_max_ulp(np.asarray(got), np.asarray(want), maxulp=4)


def tolist(a):
    return a.tolist()


def tolist_of_expression(a):
    return (a * 2)[1:].tolist(), a.shape[0]


def _same_python(got, want):
    """Equal, with the same Python types all the way down (lists, tuples, numbers)."""
    assert type(got) is type(want)
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same_python(g, w)
    else:
        assert got == want


@pytest.mark.parametrize("a", [np.arange(5.0), np.arange(6, dtype=np.int32).reshape(2, 3),
                               np.arange(4, dtype=np.float32)[::-1], np.array([True, False]),
                               np.array(2.5), np.zeros((2, 0))], ids=range(6))
def test_returned_tolist_gives_python_lists_of_python_numbers(a):
    _same_python(_compiled(tolist)(a), tolist(a))
    if a.ndim:
        _same_python(_compiled(tolist_of_expression)(a), tolist_of_expression(a))
