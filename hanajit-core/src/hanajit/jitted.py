"""Jitted functions as the layers below the API see them.

``hanajit.api`` registers its ``JitFunction`` class here when it is imported
(nothing can be a jitted function before that), so the pipeline, the disk cache,
``narrow`` and ``evolve`` recognise and make jitted functions without importing
the API that calls them.
"""
from __future__ import annotations

from typing import Any

_classes: tuple = ()


def register_class(cls: type) -> type:
    """Record ``cls`` (``JitFunction``) as the class of jitted functions."""
    global _classes
    if cls not in _classes:
        _classes = _classes + (cls,)
    return cls


def is_jitted(obj: Any) -> bool:
    """Is ``obj`` a jitted function (what ``@jit`` returns)?"""
    return isinstance(obj, _classes)


def new_jitted(py_func, **options):
    """A new jitted function of ``py_func`` with ``options`` (as ``jit`` makes it)."""
    if not _classes:
        raise RuntimeError("hanajit.api is not imported: no jitted functions exist")
    return _classes[0](py_func, **options)
