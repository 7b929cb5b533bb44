"""Wrong behaviour found and not fixed yet, kept as strict expected failures so
that a fix (ours or LLVM's) shows: each test asserts the interpreter's answer.

LLVM 22's IndVarSimplify (``optimizeLoopExitWithUnknownExitCount``, the
``.first_iter`` rewrite; found by bisecting ``-opt-bisect-limit``) replaces the
exit test of the inner ``for c in range(cap + 1)`` loop below with its
first-iteration value, so the loop runs on past its end until a check inside it
fails: the call raises where CPython returns.  LLVM 19's ``-O3`` leaves the test
alone.  None of LLVM's options for that pass avoids it (docs/limitations.md)."""
import pytest

from hanajit import jit


def checked(n, c):
    if c >= n:
        raise ValueError(f"bad {n} {c}")
    return c


def two_stores(cap):
    a = [0.0] * 9
    s = []
    n = []
    for k in range(3):
        s.append(3 * k)
        n.append(3)
    for i in range(1, 3):
        for c in range(cap + 1):
            a[s[i] + checked(n[i], c)] = 3.0
            a[s[i] + checked(n[i], c)] = 2.0
    return a


@pytest.mark.xfail(strict=True, raises=ValueError,
                   reason="LLVM 22 IndVarSimplify rewrites the inner loop's exit test")
def test_an_inner_loop_ends_where_its_range_ends():
    assert jit(two_stores, fallback=False)(1) == two_stores(1)
