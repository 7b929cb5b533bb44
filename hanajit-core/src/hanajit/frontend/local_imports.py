"""Imports inside a function: ``import numpy as np`` or ``from math import sqrt``
among the first statements of the body bind the module (or its attribute) as a
constant name -- the same object on every call, as the interpreter's import
gives.  Anywhere else a name could be read before its import runs, so such an
import falls back with the reason."""
from __future__ import annotations

import ast
import importlib
import sys

from .node_names import plain_name


def bind(builder, s) -> list:
    """Bind the names of import statement ``s`` in ``builder.injected``; no IR."""
    _check_leading(builder, s)
    if isinstance(s, ast.ImportFrom):
        if s.level:
            builder.fail(s, "from ... import statement", "a relative import")
        module = _module(builder, s, s.module)
        for alias in s.names:
            if alias.name == "*" or not hasattr(module, alias.name):
                builder.fail(s, "from ... import statement",
                             f"cannot import {alias.name!r} from {s.module!r}")
            builder.injected[alias.asname or alias.name] = getattr(module, alias.name)
        return []
    for alias in s.names:
        module = _module(builder, s, alias.name)
        if alias.asname:            # import a.b as c: c is a.b
            builder.injected[alias.asname] = module
        else:                       # import a.b: a is bound
            top = alias.name.split(".")[0]
            builder.injected[top] = sys.modules[top]
    return []


def _check_leading(builder, s) -> None:
    body = [x for x in builder.fnode.body if not (
        isinstance(x, ast.Expr) and isinstance(x.value, ast.Constant)
        and isinstance(x.value.value, str))]
    lead = []
    for x in body:
        if not isinstance(x, (ast.Import, ast.ImportFrom)):
            break
        lead.append(x)
    if s not in lead:
        builder.fail(s, plain_name(s), "only imports at the top of the function body "
                     "compile (elsewhere a name could be used before it)")
    names = [a.asname or a.name.split(".")[0] for a in s.names]
    if any(n in builder.locals or n in builder.params for n in names):
        builder.fail(s, plain_name(s), "the imported name is also assigned")


def _module(builder, node, name):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        builder.fail(node, plain_name(node), str(exc))
