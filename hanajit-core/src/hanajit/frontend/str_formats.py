"""f-strings, ``format(x, spec)``, ``bin``/``hex``/``oct`` of a str built at run
time (``str_rewrite.py``): each field a call of a helper -- the str itself, or
``str(x)`` / ``repr(x)`` / ``format(x, spec)`` of a number
(``lib/python/strings.py``, which decides by the value's type) -- the parts
joined in one ``concat_of``.  Specs of fill, align, sign, ``#``, ``0``, width
and precision with the types ``d``/``x``/``X``/``o``/``b`` (ints and bools) and
``e``/``E``/``f``/``F``/``g``/``G``/``%`` (numbers) compile, and fill, align,
width and precision of a str; grouping, ``z``, other types and ``!r``/``!a`` of
a str fall back with a reason."""
from __future__ import annotations

import ast

from .str_locals import helper_call

_ALIGN = {"<": 0, ">": 1, "^": 2, "=": 3}
_NUMBER_KINDS = frozenset(("", "d", "x", "X", "o", "b", "e", "E", "f", "F", "g", "G", "%"))


def parse_spec(spec):
    """``(fill, align, sign, alt, zero, width, precision, type, fill_given)`` of a
    format spec (``precision`` None where it gives none), or None for one with
    grouping or ``z``."""
    i, fill, align, fill_given = 0, " ", None, False
    if len(spec) >= 2 and spec[1] in _ALIGN:
        fill, align, fill_given, i = spec[0], spec[1], True, 2
    elif spec[:1] and spec[0] in _ALIGN:
        align, i = spec[0], 1
    sign = None
    if spec[i:i + 1] and spec[i] in "+- ":
        sign, i = spec[i], i + 1
    alt = spec[i:i + 1] == "#"
    i += alt
    zero = spec[i:i + 1] == "0"
    i += zero
    j = _digits(spec, i)
    width = int(spec[i:j]) if j > i else 0
    precision = None
    if spec[j:j + 1] == ".":
        k = _digits(spec, j + 1)
        if k == j + 1:
            return None
        precision, j = int(spec[j + 1:k]), k
    kind = spec[j:]
    if len(kind) > 1:
        return None
    return fill, align, sign, alt, zero, width, precision, kind, fill_given


def _digits(spec, i):
    while i < len(spec) and spec[i].isdigit() and spec[i].isascii():
        i += 1
    return i


def fstring(r, e):
    """The code points of the f-string ``e`` (for the rewriter ``r``)."""
    parts = []
    for v in e.values:
        if isinstance(v, ast.Constant):
            parts.append(r.codes(v.value))
        else:
            parts.append(field(r, v))
    if not parts:
        return r.codes("")
    return parts[0] if len(parts) == 1 else helper_call("concat_of", *parts)


def field(r, v):
    """The code points of the f-string field ``v``."""
    spec = ""
    if v.format_spec is not None:
        if not all(isinstance(x, ast.Constant) for x in v.format_spec.values):
            r.fail(v, "f-string", "a format spec with fields in it")
        spec = "".join(x.value for x in v.format_spec.values)
    conv = chr(v.conversion) if v.conversion != -1 else ""
    parsed = parse_spec(spec)
    if parsed is None:
        r.fail(v, "f-string", f"the format spec {spec!r} (grouping or 'z')")
    fill, align, sign, alt, zero, width, precision, kind, fill_given = parsed
    if r.like(v.value):
        if conv in ("r", "a"):
            r.fail(v, "f-string", f"!{conv} of a str (its repr is not compiled)")
        body = r.sv(v.value)
    elif conv in ("r", "a"):        # (ascii of a number: its repr)
        body = helper_call("repr_of", r.expr(v.value))
    elif conv == "s":
        body = helper_call("str_of", r.expr(v.value))
    else:
        return number_field(r, v, parsed, not spec)
    if not spec:
        return body
    if sign or alt or zero or kind not in ("", "s") or align == "=":
        r.fail(v, "f-string", f"the format spec {spec!r} of a str")
    if precision is not None:       # (the first characters)
        body = helper_call("copied", ast.Subscript(body, ast.Slice(
            None, ast.Constant(precision), None), ast.Load()))
    return helper_call("assemble", ast.Constant(0), ast.Constant(0), body,
                       ast.Constant(ord(fill)), ast.Constant(_ALIGN[align or "<"]),
                       ast.Constant(width))


def number_field(r, v, parsed, empty):
    """``format(x, spec)`` of a number (``spec`` parsed; ``empty``: no spec): the
    type of ``x`` decides what compiles (``lib/python/strings.FormatOf``)."""
    fill, align, sign, alt, zero, width, precision, kind, fill_given = parsed
    if kind not in _NUMBER_KINDS:
        r.fail(v, "f-string", f"the format type {kind!r} (d, x, X, o, b for ints and "
               "bools, e, E, f, F, g, G, % for numbers are compiled)")
    if zero:
        fill = fill if fill_given else "0"
        align = align or "="
    args = [r.expr(v.value), ast.Constant(ord(fill)),
            ast.Constant(_ALIGN[align] if align else -1),
            ast.Constant({None: 0, "-": 0, "+": 1, " ": 2}[sign]), ast.Constant(int(alt)),
            ast.Constant(width), ast.Constant(-1 if precision is None else precision),
            ast.Constant(ord(kind) if kind else 0), ast.Constant(int(empty))]
    return helper_call("format_of", *args)
