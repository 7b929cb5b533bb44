"""Plain words for Python syntax in fallback reasons.

A reason names the construct as a user would ("dict display", "f-string",
"list comprehension"), never the ``ast`` class behind it (``Dict``,
``JoinedStr``, ``ListComp``).  Every kind of node the builder may refuse is in
:data:`PLAIN`; one missing from the table is still described in words (its
class name split into lower-case words), so no ``ast`` name reaches a user."""
from __future__ import annotations

import ast
import re

PLAIN = {
    # expressions
    "Dict": "dict display", "Set": "set display", "List": "list display",
    "Tuple": "tuple display", "ListComp": "list comprehension",
    "SetComp": "set comprehension", "DictComp": "dict comprehension",
    "GeneratorExp": "generator expression", "JoinedStr": "f-string",
    "FormattedValue": "f-string field", "Lambda": "lambda expression",
    "Await": "await expression", "Yield": "yield expression",
    "YieldFrom": "yield from expression", "Starred": "starred expression (*x)",
    "NamedExpr": "assignment expression (:=)", "Slice": "slice",
    "Attribute": "attribute", "Subscript": "subscript", "Call": "call",
    "IfExp": "conditional expression", "BoolOp": "and/or expression",
    "BinOp": "binary operation", "UnaryOp": "unary operation", "Compare": "comparison",
    "Name": "name", "Constant": "constant", "TemplateStr": "t-string",
    "Interpolation": "t-string field",
    # statements
    "With": "with statement", "AsyncWith": "async with statement",
    "Try": "try statement", "TryStar": "try/except* statement",
    "ClassDef": "class definition", "FunctionDef": "nested function definition",
    "AsyncFunctionDef": "async function definition", "AsyncFor": "async for loop",
    "Global": "global statement", "Nonlocal": "nonlocal statement",
    "Delete": "del statement", "Import": "import statement",
    "ImportFrom": "from ... import statement", "Match": "match statement",
    "Raise": "raise statement", "Assert": "assert statement",
    "Return": "return statement", "Assign": "assignment", "AugAssign": "augmented assignment",
    "AnnAssign": "annotated assignment", "For": "for loop", "While": "while loop",
    "If": "if statement", "Expr": "expression statement", "Pass": "pass statement",
    "Break": "break statement", "Continue": "continue statement",
    "TypeAlias": "type alias statement",
}


def plain_name(node: ast.AST) -> str:
    """``node``'s kind in plain words (``ast.Dict()`` -> ``"dict display"``)."""
    name = type(node).__name__
    if name in PLAIN:
        return PLAIN[name]
    return " ".join(w.lower() for w in re.findall(r"[A-Z][a-z]*|[a-z]+", name)) or "construct"
