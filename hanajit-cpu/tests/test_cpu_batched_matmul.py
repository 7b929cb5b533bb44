"""``@`` and ``np.matmul`` of stacks of matrices (``lib/linalg/batched.py``): each
product of the broadcast stack as NumPy's 2-D ``@`` computes it (its BLAS call or its
loops), bit for bit; stacks that do not broadcast re-run in the interpreter for
NumPy's error."""
import numpy as np
import pytest

from hanajit import jit

_RNG = np.random.default_rng(1)
A = _RNG.standard_normal((4, 5, 6))
B = _RNG.standard_normal((4, 6, 3))

CASES = {
    "stacks": (A, B), "stack @ matrix": (A, B[0]), "matrix @ stack": (A[0], B),
    "broadcast stack of one": (A, B[:1]), "stack @ vector": (A, _RNG.standard_normal(6)),
    "vector @ 4-D": (_RNG.standard_normal(5), _RNG.standard_normal((2, 3, 5, 4))),
    "transposed view": (A.transpose(0, 2, 1), A), "strided views": (A[:, ::2], B[:, ::-1]),
    "float32": (A.astype(np.float32), B.astype(np.float32)), "complex @ float": (A + 1j * A, B),
    "Fortran": (np.asfortranarray(A), np.asfortranarray(B)),
    "int64": (A.astype(np.int64), B.astype(np.int64)),
    "4-D @ 3-D": (_RNG.standard_normal((2, 1, 3, 4)), _RNG.standard_normal((5, 4, 2))),
    "empty stack": (np.zeros((0, 2, 3)), np.zeros((0, 3, 4))),
    "large (BLAS)": (_RNG.standard_normal((3, 120, 90)), _RNG.standard_normal((3, 90, 70))),
}


def mm(a, b):
    return a @ b


def np_matmul(a, b):
    return np.matmul(a, b)


@pytest.mark.parametrize("case", sorted(CASES))
def test_stacks_as_numpy(case):
    a, b = CASES[case]
    for fn in (mm, np_matmul) if case in ("stacks", "complex @ float") else (mm,):
        got, want = jit(fn, fallback=False)(a, b), fn(a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()


def test_stacks_that_do_not_broadcast_raise_numpys_error():
    with pytest.raises(ValueError, match="broadcast"):
        jit(mm)(A, B[:3])
    with pytest.raises(ValueError):
        jit(mm)(A, B.transpose(0, 2, 1))
