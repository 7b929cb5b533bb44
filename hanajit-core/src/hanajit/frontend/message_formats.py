"""``%`` and ``str.format`` exception messages, as kernel message templates.

``raise ValueError("unknown mode %r" % mode)`` and ``raise ValueError("bad {}
for {}".format(kind, n))`` become the template an f-string would
(``"unknown mode {!r}"``, ``"bad {} for {}"``) and the expressions of its
fields; a str constant's field is formatted while compiling
(``infer/str_params.py``), a number's at run time.  Only ``%s``, ``%r`` and
``%%`` (printf's other conversions format numbers their own way) and ``{}``,
``{N}``, ``{!s}``, ``{!r}`` fields (no format specification, no names) are
taken; anything else returns None (the builder refuses the message).
"""
from __future__ import annotations

import ast
import re
import string

from ..errors import escape_braces

_PERCENT = re.compile(r"%(.)", re.S)


def value_message(b, node):
    """``raise KeyError(k)`` with a number, not a text: the template of one value
    field (``errors.Field``: the kernel raises the number itself, ``e.args ==
    (k,)``) and the expression, or None for what is written as a text (a str
    constant, an f-string, ``"..." % x``, ``"...".format(x)``).  Inference takes
    only Python ints and floats (``infer/message_fields.py``)."""
    def str_constant(e):
        return isinstance(e, ast.Constant) and isinstance(e.value, str)
    if str_constant(node) or isinstance(node, ast.JoinedStr) or isinstance(
            node, ast.BinOp) and str_constant(node.left) or isinstance(
            node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            str_constant(node.func.value):
        return None
    return "{!v}", [b.expr(node)]


def percent_message(b, node: ast.BinOp):
    """``"text %s" % value`` (or ``% (a, b)``): (template, args) or None."""
    if not (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
        return None
    text = node.left.value
    values = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
    parts, k, last = [], 0, 0
    for m in _PERCENT.finditer(text):
        parts.append(escape_braces(text[last:m.start()]))
        last = m.end()
        c = m.group(1)
        if c == "%":
            parts.append("%")
            continue
        if c not in "sr" or k >= len(values):
            return None
        parts.append("{!%s}" % c)
        k += 1
    if k != len(values) or any(isinstance(v, ast.Starred) for v in values):
        return None
    if not isinstance(node.right, ast.Tuple) and k != 1:
        return None
    parts.append(escape_braces(text[last:]))
    return "".join(parts), [b.expr(v) for v in values]


def format_message(b, node: ast.Call):
    """``"text {}".format(a, ...)``: (template, args) or None."""
    f = node.func
    if not (isinstance(f, ast.Attribute) and f.attr == "format" and isinstance(
            f.value, ast.Constant) and isinstance(f.value.value, str)) or node.keywords \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    try:
        fields = list(string.Formatter().parse(f.value.value))
    except ValueError:
        return None
    parts, order, auto, manual = [], [], 0, False
    for literal, name, spec, conversion in fields:
        parts.append(escape_braces(literal))
        if name is None:
            continue
        if spec or conversion not in (None, "s", "r"):
            return None
        if name == "":
            k, auto = auto, auto + 1
        elif name.isdigit():
            k, manual = int(name), True
        else:
            return None
        if auto and manual:     # (CPython's ValueError: automatic and manual numbering)
            return None
        if k >= len(node.args):
            return None
        order.append(k)
        parts.append("{}" if conversion is None else "{!%s}" % conversion)
    return "".join(parts), [b.expr(node.args[k]) for k in order]


def str_precision(v: ast.FormattedValue):
    """``N`` of an f-string field ``{x!r:.N}`` / ``{x!s:.N}`` (the text cut to
    ``N`` characters: inference takes it for a str built at run time only), else
    None."""
    spec = v.format_spec
    if v.conversion not in (ord("s"), ord("r")) or spec is None or len(spec.values) != 1:
        return None
    text = spec.values[0]
    if not (isinstance(text, ast.Constant) and isinstance(text.value, str)):
        return None
    m = re.fullmatch(r"\.(\d+)", text.value)
    return int(m.group(1)) if m else None
