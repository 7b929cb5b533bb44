"""What a parsed ``def`` binds and which kinds of syntax it holds, in one walk."""
from __future__ import annotations

import ast


def survey(fn: ast.FunctionDef) -> tuple[set, set]:
    """``(kinds, names)``: the ``ast`` node classes in ``fn`` (the builder runs an
    analysis only where its construct is there) and :func:`assigned_names`."""
    kinds, names = set(), set()
    for node in ast.walk(fn):
        kinds.add(type(node))
        _bound(node, fn, names)
    return kinds, names


def assigned_names(fn: ast.FunctionDef) -> set:
    """The local names of ``fn``: assigned, deleted, defined or bound by ``except``."""
    names = set()
    for node in ast.walk(fn):
        _bound(node, fn, names)
    return names


def _bound(node, fn, names: set) -> None:
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        names.add(node.id)
    elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node is not fn:
        names.add(node.name)
    elif isinstance(node, ast.ExceptHandler) and node.name:
        names.add(node.name)
