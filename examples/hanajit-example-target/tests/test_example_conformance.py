"""The example target passes the host conformance suite through its own compile()."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.conformance import HostConformance


class TestExampleConformance(HostConformance):
    target = "example"


def _index(a, i):
    return a[i]


def _narrow(n):
    return np.int8(n)


def test_exceptions_carry_the_integers_their_messages_name():
    """A raise passes its message's integers (``err[1..3]``) up through the C
    source: the same words as the interpreter, values included."""
    index = jit(_index, target="example", fallback=False)
    narrow = jit(_narrow, target="example", fallback=False)
    a = np.arange(3.0)
    with pytest.raises(IndexError) as got:
        index(a, 5)
    with pytest.raises(IndexError) as want:
        _index(a, 5)
    assert str(got.value) == str(want.value)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        narrow(300)
