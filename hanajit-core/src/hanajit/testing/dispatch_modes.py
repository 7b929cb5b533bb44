"""Running a test under both dispatchers: the ``mode`` fixture and ``jitted``.

``mode`` (a pytest fixture, imported into a test module by name) runs the test once
with the native dispatcher (``HANAJIT_NATIVE_DISPATCH=1``; skipped with the reason
where the interpreter cannot have it) and once with the Python one.  ``jitted``
keeps one jitted function per kernel and mode, so property-based tests that call
the same check many times compile it once.
"""
from __future__ import annotations

import pytest

from ..dispatch.heaptype import interpreter_supports_native
from .jitted import jitted as _jitted


def jitted(py):
    """The jitted ``py`` for the current dispatch mode, compiled once."""
    return _jitted(py)


@pytest.fixture(params=["native", "python"])
def mode(request, monkeypatch):
    if request.param == "native" and not interpreter_supports_native()[0]:
        pytest.skip(interpreter_supports_native()[1])
    monkeypatch.setenv("HANAJIT_NATIVE_DISPATCH", "1" if request.param == "native" else "0")
    return request.param
