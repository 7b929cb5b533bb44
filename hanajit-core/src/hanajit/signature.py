"""Signature strings for eager compilation: ``"i64, f64, bool"``.

Each comma-separated item is a type: ``bool``, ``i8``..``i64``, ``u8``..``u64``,
``f32``, ``f64``, ``c64``, ``c128`` or a long name (``int64``, ``float32``).  A list
of strings gives several signatures.  (Array forms ``f64[:]`` arrive with arrays.)
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


def parse_type(text: str) -> T.Type:
    text = text.strip()
    t = T.BY_NAME.get(text)
    if t is None or t == T.NONE:
        raise ValueError(f"unknown type {text!r} in signature")
    return t


def parse_signature(sig) -> list:
    """A list of argument-type tuples."""
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
            out.append(tuple(parse_type(x) for x in _split(s)))
        else:
            out.append(tuple(parse_type(x) if isinstance(x, str) else x for x in s))
    return out
