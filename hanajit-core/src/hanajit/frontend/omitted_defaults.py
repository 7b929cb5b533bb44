"""An omitted argument's default as a constant of its specialisation.

A call leaving out a parameter whose default is a number passes the default
object itself, which the dispatchers key as ``ir.types.DefaultArg``; that
specialisation is built from the function with ``p = value`` first, so the value
is a constant the optimisers fold (``crc16(data)`` of ``def crc16(data,
poly=0x8408)`` xors a constant, as Numba's ``Omitted`` does), and the parameter
a local as before."""
from __future__ import annotations

import ast
import copy
import dataclasses

from .source import ParsedFunction


def folding(parsed: ParsedFunction, defaults: dict) -> ParsedFunction:
    """``parsed`` with ``p = value`` for each omitted argument's default
    (``ir.types.DefaultArg``) after the docstring and imports: the value is a
    constant the optimisers fold, the parameter a local as before."""
    node = copy.copy(parsed.node)
    body = list(node.body)
    k = 0
    while k < len(body) and (isinstance(body[k], (ast.Import, ast.ImportFrom)) or (
            isinstance(body[k], ast.Expr) and isinstance(body[k].value, ast.Constant)
            and isinstance(body[k].value.value, str))):
        k += 1
    at = body[min(k, len(body) - 1)]
    made = [ast.copy_location(ast.Assign(targets=[ast.Name(p, ast.Store())],
                                         value=ast.Constant(v)), at)
            for p, v in defaults.items()]
    for m in made:
        ast.fix_missing_locations(m)
    node.body = body[:k] + made + body[k:]
    return dataclasses.replace(parsed, node=node)
