"""Array sizes that overflow (issue 22, item 1): every array compiled code creates
passes NumPy's size check (``lib/arrays/sizes.py``) before memory is touched, so a
shape whose element count or byte count leaves int64 raises NumPy's ValueError
(same message where NumPy's is not an artefact of its own wrap-around), and a
size that passes but that ``malloc`` refuses raises MemoryError.  Before, the
byte count wrapped: ``np.zeros(2**61)`` built a bogus array and ``np.ones``
segfaulted."""
import ast
import pathlib
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.ir import nodes as N
from hanajit.lib.arrays.sizes import TOO_BIG
from hanajit.testing.sourcefile import load_module

X = np.arange(3.0)
E = np.zeros(0)


def _outcome(fn, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            r = fn(*args)
        return "ok", np.asarray(r)
    except Exception as exc:     # noqa: BLE001 - compare exception type and message
        return type(exc), str(exc)


def _compiled(body, params="n, x"):
    mod = load_module(f"import numpy as np\n\n\ndef f({params}):\n    {body}\n", "alloc")
    return mod.f, jit(mod.f)


def _both(body, *args, params="n, x"):
    py, jf = _compiled(body, params)
    want = _outcome(py, args)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = _outcome(jf, args)
    return got, want


# (body, n): NumPy raises ValueError with the same message in compiled code
SAME = [
    ("return np.zeros(n)", 2**61),
    ("return np.zeros(n)", 2**63 - 1),
    ("return np.zeros(n)", -1),
    ("return np.ones(n)", 2**61),
    ("return np.full(n, 1.0)", 2**61),
    ("return np.full(n, 7, np.int32)", 2**62),
    ("return np.empty(n)", 2**61),
    ("return np.empty((n, n), np.uint8)", 2**32),
    ("return np.empty((n, n, 4), np.uint8)", 2**31),
    ("return np.zeros((n, -1))", 2**62),          # "too big" first, as NumPy
    ("return np.zeros((0, n, 4))", 2**62),        # a zero axis does not save it
    ("return np.zeros((n, n, 0))", 2**40),
    ("return np.zeros((n, -1))", 3),
    ("return np.ones((2, n), np.bool_)", -5),
    ("return np.arange(0, n, 1)", 2**62),
    ("return np.arange(n)", 2**62),
    ("return np.arange(0, n, 1.0)", 2**62),
    ("return np.arange(0.0, n * 1e300)", 1),
    ("return np.arange(0.0, n * 1e19)", 1),
    ("return np.arange(0.0, n * -1e300)", 1),
    ("return np.arange(0.0, n * np.inf)", 1),
    ("return np.arange(0, n, 1, dtype=np.float32)", 2**62),
    ("return np.linspace(0, 1, n)", 2**61),
    ("return np.linspace(0, 1, n)", 2**62),
    ("return np.linspace(0, 1, n)", -1),
    ("return np.tile(x, n)", 2**61),
    ("return np.tile(x, n)", 2**62),
    ("return np.tile(x, n)", -1),
    ("return np.tile(x, (2, n))", -1),
    ("return np.tile(x, (n, 2))", 2**61),
    ("return np.repeat(x, n)", 2**61),
    ("return np.repeat(x, n)", -1),
    ("return np.eye(n)", 2**32),
    ("return np.identity(n)", 2**32),
    ("return np.eye(n, n)", 2**31),
    # lazily used: NumPy still allocates the array, and raises
    ("return np.arange(0, n, 1).sum()", 2**62),
    ("return np.linspace(0.0, 1.0, n)[5]", 2**61),
    ("return np.tile(x, n).sum()", 2**61),
    ("return np.repeat(x, n)[0]", 2**61),
    ("return np.zeros(n).sum()", 2**61),
    # the crash: a bogus array then written to
    ("a = np.zeros(n)\n    a[10**6] = 1.0\n    return a", 2**61),
    ("a = np.ones(n)\n    a[:] = 2.0\n    return a", 2**61),
]


@pytest.mark.parametrize("body,n", SAME)
def test_overflowing_sizes_raise_numpys_error(body, n):
    got, want = _both(body, n, X)
    assert want[0] is ValueError, want
    assert got == want


# sizes that fit and must still work (the checks must not misfire)
FITS = [
    ("return np.zeros(n)", 0), ("return np.zeros((n, 3))", 0), ("return np.tile(x, n)", 0),
    ("return np.tile(x, (n, 2))", 2), ("return np.repeat(x, n)", 0), ("return np.repeat(x, n)", 3),
    ("return np.tile(np.zeros(0), n)", -1), ("return np.repeat(np.zeros(0), n)", -1),
    ("return np.arange(0, n, 1)", 5), ("return np.linspace(0, 1, n)", 0),
    ("return np.empty((n, 0, n))", 2**20), ("return np.eye(n)", 3),
    ("return np.kron(x, np.ones(n))", 2), ("return np.outer(x, np.ones(n))", 2),
    ("return np.concatenate((x, np.ones(n)))", 2),
]


@pytest.mark.parametrize("body,n", FITS)
def test_sizes_that_fit_still_work(body, n):
    got, want = _both(body, n, X)
    assert want[0] == "ok"
    assert got[0] == "ok" and got[1].shape == want[1].shape and got[1].dtype == want[1].dtype
    assert np.array_equal(got[1], want[1])


# NumPy's own computation wraps here: the exception type is NumPy's, the message
# says what happened (NumPy: "negative dimensions are not allowed", from 3 * 2**62
# wrapping to a negative length; 4 * 2**62 wraps to 0 and segfaults NumPy)
@pytest.mark.parametrize("body,n", [("return np.repeat(x, n)", 2**62),
                                    ("return np.repeat(x, n)", 2**63 - 1),
                                    ("return np.tile(x, (n, n))", 2**32)])
def test_sizes_numpy_wraps_raise_too_big(body, n):
    py, jf = _compiled(body)
    with pytest.raises(ValueError, match="array is too big"):
        jf(n, X)


RESHAPES = [
    ("return x.reshape(n, n)", np.zeros(0), 2**32),      # wraps to 0 == size
    ("return x.reshape(n, n, 0)", np.zeros(0), 2**32),
    ("return x.reshape(-1, n)", np.zeros(0), 2**62),     # view too big
    ("return x.reshape(-1, n)", np.zeros(3), 2**62),
    ("return x.reshape((0, n, 4))", np.zeros(0), 2**62),
    ("return x.reshape(n, 0)", np.zeros(0), 2**62),
    ("return x.reshape(n, -1)", np.zeros(6), 3),
]


@pytest.mark.parametrize("body,a,n", RESHAPES)
def test_reshape_products_that_overflow(body, a, n):
    """A reshape's shape product is checked exactly (a product wrapping to the
    size must not build a bogus view), and the view passes the size check; the
    error is NumPy's own, text included (a pure call re-runs in the
    interpreter: ``errors.RERUN``)."""
    got, want = _both(body, n, a)
    assert got[0] == want[0]
    if want[0] == "ok":
        assert np.array_equal(got[1], want[1]) and got[1].shape == want[1].shape
    else:
        assert got == want


def test_views_whose_join_overflows():
    """Zero-stride views can be huge; joining them is checked."""
    a = np.broadcast_to(np.int16(1), (2**61,))
    got, want = _both("return np.concatenate((x, x))", 0, a)
    assert want == (ValueError, TOO_BIG) and got == want
    # NumPy's sum wraps to a negative length here ("negative dimensions")
    py, jf = _compiled("return np.concatenate((x, x, x))")
    with pytest.raises(ValueError, match="array is too big"):
        jf(0, np.broadcast_to(np.int8(1), (2**62,)))
    py, jf = _compiled("return np.kron(x, x)")
    with pytest.raises(ValueError):        # NumPy: "iterator is too large"
        jf(0, np.broadcast_to(np.int8(1), (2**32,)))


def test_malloc_refusing_a_representable_size_raises_memoryerror():
    got, want = _both("return np.zeros(n, np.int8)", 2**60, X)
    assert issubclass(want[0], MemoryError) and got[0] is MemoryError
    got, want = _both("return np.empty(n)", 2**59, X)
    assert issubclass(want[0], MemoryError) and got[0] is MemoryError


# ------------------------------------------------------ every allocation path
def test_only_allocate_builds_allocarray():
    """``creation.allocate`` is the one constructor of ``AllocArray`` (so no
    allocation can skip its size check)."""
    import hanajit
    root = pathlib.Path(hanajit.__file__).parent
    sites = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == "AllocArray":
                    sites.append((path.name, fn.name))
    assert set(sites) == {("creation.py", "allocate")}


KERNELS = [
    ("np.zeros(n)", "n"), ("np.ones((n, 2))", "n"), ("np.full((2, n), 1.5)", "n"),
    ("np.empty(n, np.int8)", "n"), ("np.zeros_like(a)", "a"), ("np.ones_like(a)", "a"),
    ("np.full_like(a, 2)", "a"), ("np.empty_like(a)", "a"), ("np.arange(n) * 2", "n"),
    ("np.linspace(0, 1, n) + 1", "n"), ("a + 1", "a"), ("a.copy()", "a"), ("a.T.copy()", "a"),
    ("a.reshape(-1) * 2", "a"), ("a.flatten()", "a"), ("np.sort(a)", "a"),
    ("np.argsort(a)", "a"), ("np.cumsum(a)", "a"), ("a.astype(np.float32)", "a"),
    ("np.concatenate((a, a))", "a"), ("np.stack((a, a))", "a"), ("np.vstack((a, a))", "a"),
    ("np.hstack((a, a))", "a"), ("np.tile(a, n)", "n, a"), ("np.repeat(a, n)", "n, a"),
    ("np.kron(a, a)", "a"), ("np.outer(a, a)", "a"), ("np.diag(a)", "a"), ("np.eye(n)", "n"),
    ("np.identity(n)", "n"), ("np.nonzero(a)[0]", "a"), ("a[a > 0]", "a"), ("a[[0, 1]]", "a"),
    ("np.diff(a)", "a"), ("np.roll(a, 1)", "a"), ("a @ a.T", "a"), ("np.abs(a)", "a"),
    ("np.sum(a, axis=0)", "a"), ("np.unique(a)", "a"), ("np.where(a > 0, a, 0.0)", "a"),
]


def _alloc_checked(fn) -> list:
    """AllocArray sites of ``fn`` whose non-constant dimensions were not checked
    against NumPy's "too big" limit earlier in the same statement list."""
    missing = []

    def block(stmts, checked):
        checked = set(checked)
        for s in stmts:
            if isinstance(s, N.If) and any(isinstance(t, N.Raise) and t.message == TOO_BIG
                                           for t in s.then):
                checked |= {e.name for e in N.walk_expr(s.cond) if isinstance(e, N.Var)}
            if isinstance(s, N.Assign) and isinstance(s.value, N.AllocArray):
                for d in s.value.shape:
                    if not isinstance(d, N.Const) and not (isinstance(d, N.Var)
                                                           and d.name in checked):
                        missing.append(s.target)
            for attr in ("then", "orelse", "body"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    block(sub, checked)
    block(fn.body, set())
    return missing


@pytest.mark.parametrize("expr,params", KERNELS)
def test_every_allocation_path_is_checked(expr, params):
    """Compiled kernels covering the ways compiled code allocates arrays: each
    allocation's dimensions pass the size check first."""
    a = np.arange(6.0).reshape(2, 3) - 2
    if expr.startswith(("np.tile", "np.repeat", "np.kron", "np.outer", "np.diag",
                        "np.concatenate", "np.hstack", "np.argsort", "np.sort", "np.unique",
                        "np.diff", "np.roll", "np.cumsum", "np.nonzero", "a[[")):
        a = a.ravel()
    py, jf = _compiled(f"return {expr}", params)
    args = {"n": (3,), "a": (a,), "n, a": (2, a)}[params]
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = jf(*args)
    want = py(*args)
    assert got.shape == want.shape and got.dtype == want.dtype
    if "empty" not in expr:
        np.testing.assert_array_equal(got, want)
    module = jf._pick(None).module
    allocs = [s for fn in module.functions.values() for s in N.walk_stmts(fn.body)
              if isinstance(s, N.Assign) and isinstance(s.value, N.AllocArray)]
    assert allocs, f"{expr}: no allocation in the IR"
    for fn in module.functions.values():
        assert not _alloc_checked(fn), (expr, fn.name)
