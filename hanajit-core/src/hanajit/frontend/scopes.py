"""What a parsed ``def`` binds and which kinds of syntax it holds, in one walk."""
from __future__ import annotations

import ast


def survey(fn: ast.FunctionDef) -> tuple[set, set, bool]:
    """``(kinds, names, sorted_named)``: the ``ast`` node classes in ``fn`` (the
    builder runs an analysis only where its construct is there),
    :func:`assigned_names` and whether ``fn`` names ``sorted`` at all (its
    ``sorted(...)`` lists: ``frontend.sorted_lists``)."""
    kinds, names, sorted_named = set(), set(), False
    for node in ast.walk(fn):
        kinds.add(type(node))
        if isinstance(node, ast.Name) and node.id == "sorted":
            sorted_named = True
        _bound(node, fn, names)
    return kinds, names, sorted_named


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
