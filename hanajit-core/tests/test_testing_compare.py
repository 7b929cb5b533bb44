"""hanajit.testing.compare's helpers: copies that keep a view's layout."""
import numpy as np
import pytest

from hanajit.testing.compare import layout_copy

_A = np.arange(24.0).reshape(4, 6)


@pytest.mark.parametrize("view", [_A, _A.T, _A[::-1, ::2], _A[:, ::-3],
                                  np.asfortranarray(_A)[1:3], _A[:0], _A[1]],
                         ids=["c", "t", "rev-strided", "neg-step", "f-slice", "empty", "row"])
def test_layout_copy_keeps_strides_in_memory_of_its_own(view):
    c = layout_copy(view)
    assert c.dtype == view.dtype and c.shape == view.shape
    assert c.strides == view.strides or view.size == 0
    assert np.array_equal(c, view) and not np.shares_memory(c, view)
    c[...] = -1
    assert not (_A == -1).any()
