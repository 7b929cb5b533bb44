"""f-strings, ``format(x, spec)``, ``bin``/``hex``/``oct`` of a str built at run
time (``str_rewrite.py``): each field a call of a helper -- the str itself, or
``str(x)`` / ``format(x, spec)`` of an int or a bool (``lib/python/strings.py``)
-- the parts joined in one ``concat_of``.  Specs of fill, align, sign, ``#``,
``0`` and width with the types ``d``/``x``/``X``/``o``/``b`` compile; grouping, a
precision, other types and ``!r``/``!a`` of a str fall back with a reason."""
from __future__ import annotations

import ast

from .str_locals import helper_call

_ALIGN = {"<": 0, ">": 1, "^": 2, "=": 3}
_BASES = {"": (10, 0), "d": (10, 0), "x": (16, "x"), "X": (16, "X"), "o": (8, "o"),
          "b": (2, "b")}


def parse_spec(spec):
    """``(fill, align, sign, alt, zero, width, type, fill_given)`` of a format
    spec, or None for one with grouping or a precision."""
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
    j = i
    while j < len(spec) and spec[j].isdigit() and spec[j].isascii():
        j += 1
    width = int(spec[i:j]) if j > i else 0
    kind = spec[j:]
    if len(kind) > 1:
        return None
    return fill, align, sign, alt, zero, width, kind, fill_given


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
        r.fail(v, "f-string", f"the format spec {spec!r} (grouping or a precision)")
    fill, align, sign, alt, zero, width, kind, fill_given = parsed
    if r.like(v.value):
        if conv in ("r", "a"):
            r.fail(v, "f-string", f"!{conv} of a str (its repr is not compiled)")
        body = r.sv(v.value)
    elif conv in ("r", "a", "s") or not spec:
        body = helper_call("str_of", r.expr(v.value))
    else:
        return int_field(r, v, parsed)
    if not spec:
        return body
    if sign or alt or zero or kind not in ("", "s") or align == "=":
        r.fail(v, "f-string", f"the format spec {spec!r} of a str")
    return helper_call("assemble", ast.Constant(0), ast.Constant(0), body,
                       ast.Constant(ord(fill)), ast.Constant(_ALIGN[align or "<"]),
                       ast.Constant(width))


def int_field(r, v, parsed):
    """``format(x, spec)`` of an int or a bool (``spec`` parsed)."""
    fill, align, sign, alt, zero, width, kind, fill_given = parsed
    if kind not in _BASES:
        r.fail(v, "f-string", f"the format type {kind!r} (d, x, X, o and b are "
               "compiled, for ints and bools)")
    if zero:
        fill = fill if fill_given else "0"
        align = align or "="
    base, letter = _BASES[kind]
    prefix = ord(letter) if alt and letter else 0
    args = [r.expr(v.value), ast.Constant(ord(fill)),
            ast.Constant(_ALIGN[align or ">"]), ast.Constant({None: 0, "-": 0, "+": 1,
                                                              " ": 2}[sign]),
            ast.Constant(prefix), ast.Constant(width), ast.Constant(base),
            ast.Constant(kind == "X")]
    return helper_call("format_of", *args)
