"""An executable whose recursion goes too deep prints CPython's RecursionError and
exits with status 1, instead of crashing (passes/stack_check.py)."""
from __future__ import annotations

import subprocess

import pytest

from hanajit import jit
from hanajit_exe.toolchain import find_host_cc


@jit
def depth(n):
    if n == 0:
        return 0
    return (depth(n - 1) * 3 + n) % 1000003


def py_depth(n):
    return 0 if n == 0 else (py_depth(n - 1) * 3 + n) % 1000003


@pytest.mark.skipif(find_host_cc() is None, reason="no host C compiler")
def test_deep_recursion_exits_with_recursion_error(tmp_path):
    out = depth.export_executable(tmp_path / "depth", sig="i64")
    ok = subprocess.run([str(out.executable), "500"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.strip() == str(py_depth(500))
    deep = subprocess.run([str(out.executable), "1000000"], capture_output=True, text=True,
                          timeout=60)
    assert deep.returncode == 1, (deep.returncode, deep.stderr)
    assert deep.stderr.strip() == "RecursionError: maximum recursion depth exceeded"
