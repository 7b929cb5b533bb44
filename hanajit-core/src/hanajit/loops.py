"""``prange``, the loop that user code names (``from hanajit import prange``).

A leaf module: the frontend recognises ``prange`` by identity without importing
the API (``hanajit.api`` re-exports it).
"""
from __future__ import annotations


def prange(*args):
    """``range`` for loops whose iterations may run in parallel (serial when the
    function runs in the interpreter)."""
    return range(*args)
