"""Running a test under both dispatchers: the ``mode`` fixture and ``jitted``.

``mode`` (a pytest fixture, imported into a test module by name) runs the test once
with the native dispatcher (``HANAJIT_NATIVE_DISPATCH=1``, generated at the second
call: ``api.HOT_CALLS`` is 1; skipped with the reason where the interpreter cannot
have it) and once with the Python one.  ``jitted``
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


def _at_once(monkeypatch):
    from .. import api
    monkeypatch.setattr(api, "HOT_CALLS", 1)


@pytest.fixture
def native_at_once(monkeypatch):
    """The native dispatcher generated at a function's second call (and again
    at the next call after each compile), not once it is called on (``api.HOT_CALLS``
    calls): for tests that check the native path calling a function a few times."""
    _at_once(monkeypatch)


@pytest.fixture(params=["native", "python"])
def mode(request, monkeypatch):
    if request.param == "native" and not interpreter_supports_native()[0]:
        pytest.skip(interpreter_supports_native()[1])
    monkeypatch.setenv("HANAJIT_NATIVE_DISPATCH", "1" if request.param == "native" else "0")
    if request.param == "native":
        _at_once(monkeypatch)
    return request.param
