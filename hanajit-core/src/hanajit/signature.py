"""Signature strings for eager compilation: ``"f64[:], f64[:, :], i64, f32, bool"``.

Each comma-separated item is a type: ``bool``, ``i8``..``i64``, ``u8``..``u64``,
``f32``, ``f64``, ``c64``, ``c128`` or a long name (``int64``, ``float32``); an array
is its element type with one ``:`` per dimension (``f64[:, :]``, any layout), ``::1``
on the last axis for C order (``f64[:, ::1]``) or on the first for Fortran order
(``f64[::1, :]``).  A list of strings gives several signatures.  The pointer form
earlier hanajit releases used, ``f64*``, is accepted on every target and means
``f64[::1]``: a 1-D contiguous array, passed as a NumPy array and still
bounds-checked (hanajit never does raw pointer arithmetic; a pointer with no
length could not be checked).
"""
from __future__ import annotations

from .ir import types as T


def _split(text: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [s.strip() for s in out]


def parse_type(text: str, pointers: bool = True) -> T.Type:
    text = text.strip()
    if pointers and text.endswith("*") and isinstance(T.BY_NAME.get(text[:-1].strip()),
                                                      T.Scalar):
        return T.ArrayType(T.BY_NAME[text[:-1].strip()], 1, "C")
    if text.endswith("*"):
        raise ValueError(f"raw pointer type {text!r} in signature is not supported; "
                         "use an array type such as 'f64[:]'")
    if text.endswith("]") and "[" in text:
        base, _, dims = text[:-1].partition("[")
        elem = parse_type(base)
        axes = [d.strip() for d in dims.split(",")]
        if not all(a in (":", "::1") for a in axes) or not isinstance(elem, T.Scalar):
            raise ValueError(f"cannot parse array type {text!r} in signature")
        layout = "A"
        if axes[-1] == "::1" and all(a == ":" for a in axes[:-1]):
            layout = "C"
        elif axes[0] == "::1" and all(a == ":" for a in axes[1:]):
            layout = "F"
        elif "::1" in axes:
            raise ValueError(f"'::1' must be on the first or last axis in {text!r}")
        return T.ArrayType(elem, len(axes), layout)
    t = T.BY_NAME.get(text)
    if t is None or t == T.NONE:
        raise ValueError(f"unknown type {text!r} in signature")
    return t


def parse_signature(sig, pointers: bool = True) -> list:
    """A list of argument-type tuples (``pointers``: ``T*`` is ``T[::1]``)."""
    if isinstance(sig, (list, tuple)) and sig and isinstance(sig[0], str) and "," not in sig[0] \
            and all(isinstance(s, str) for s in sig) and len(sig) > 1 and not isinstance(sig, list):
        sig = [", ".join(sig)]
    sigs = sig if isinstance(sig, list) else [sig]
    out = []
    for s in sigs:
        if isinstance(s, str):
            if "->" in s:
                s = s.split("->")[0]
            s = s.strip()
            if s.startswith("(") and s.endswith(")"):
                s = s[1:-1]
            out.append(tuple(parse_type(x, pointers) for x in _split(s)))
        else:
            out.append(tuple(parse_type(x, pointers) if isinstance(x, str) else x
                             for x in s))
    return out
