"""The compiled-only calls of the ``str`` methods of a str built at run time
(``frontend/str_methods.py`` emits them): each types and lowers as a call of its
Python-source helper -- ``string_methods.py``, or ``string_unicode.py`` for those
reading CPython's Unicode tables, imported (its tables made) only when one is
compiled.  Their operands are strs (1-D int32 code point arrays) and integers
(an index, a width, a count); anything else -- a float, a NumPy bool, a uint64
-- is refused with a reason (CPython raises ``TypeError`` or takes a value
compiled code cannot hold): the function runs in the interpreter."""
from __future__ import annotations

import importlib

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, CompiledOnly, register, typed_helper

STR = T.ArrayType(T.INT32, 1, "C")

# compiled-only name -> (helper module, helper, the method as the user wrote it)
HELPERS = {
    "str_find": ("string_methods", "find", "find"),
    "str_rfind": ("string_methods", "rfind", "rfind"),
    "str_index": ("string_methods", "index", "index"),
    "str_rindex": ("string_methods", "rindex", "rindex"),
    "str_count": ("string_methods", "count", "count"),
    "str_starts": ("string_methods", "starts", "startswith"),
    "str_ends": ("string_methods", "ends", "endswith"),
    "str_replace": ("string_methods", "replace", "replace"),
    "str_zfill": ("string_methods", "zfill", "zfill"),
    "str_center": ("string_methods", "center", "center"),
    "str_ljust": ("string_methods", "ljust", "ljust"),
    "str_rjust": ("string_methods", "rjust", "rjust"),
    "str_strip_chars": ("string_methods", "strip_chars", "strip"),
    "str_split_at": ("string_methods", "split_at", "split"),
    "str_split_at_count": ("string_methods", "split_at_count", "split"),
    "str_split_at_piece": ("string_methods", "split_at_piece", "split"),
    "str_piece": ("string_methods", "piece", "indexing a split"),
    "str_join_pieces": ("string_methods", "join_pieces", "join"),
    "str_rsplit_at": ("string_methods", "rsplit_at", "rsplit"),
    "str_rsplit_at_count": ("string_methods", "rsplit_at_count", "rsplit"),
    "str_rsplit_at_piece": ("string_methods", "rsplit_at_piece", "rsplit"),
    "str_partition": ("string_methods", "partition", "partition"),
    "str_partition_count": ("string_methods", "partition_count", "partition"),
    "str_partition_piece": ("string_methods", "partition_piece", "partition"),
    "str_rpartition": ("string_methods", "rpartition", "rpartition"),
    "str_rpartition_count": ("string_methods", "rpartition_count", "rpartition"),
    "str_rpartition_piece": ("string_methods", "rpartition_piece", "rpartition"),
    "str_split_lines": ("string_methods", "split_lines", "splitlines"),
    "str_split_lines_count": ("string_methods", "split_lines_count", "splitlines"),
    "str_split_lines_piece": ("string_methods", "split_lines_piece", "splitlines"),
    "str_rsplit_space": ("string_unicode", "rsplit_space", "rsplit"),
    "str_rsplit_space_count": ("string_unicode", "rsplit_space_count", "rsplit"),
    "str_rsplit_space_piece": ("string_unicode", "rsplit_space_piece", "rsplit"),
    "str_cases": ("string_cases", "converted", "title/capitalize/swapcase/casefold"),
    "str_isupper": ("string_cases", "is_upper", "isupper"),
    "str_islower": ("string_cases", "is_lower", "islower"),
    "str_istitle": ("string_cases", "is_title", "istitle"),
    "str_case": ("string_unicode", "changed_case", "upper/lower"),
    "str_isalpha": ("string_unicode", "is_alpha", "isalpha"),
    "str_isdigit": ("string_unicode", "is_digit", "isdigit"),
    "str_isalnum": ("string_unicode", "is_alnum", "isalnum"),
    "str_isspace": ("string_unicode", "is_space", "isspace"),
    "str_split_space": ("string_unicode", "split_space", "split"),
    "str_split_space_count": ("string_unicode", "split_space_count", "split"),
    "str_split_space_piece": ("string_unicode", "split_space_piece", "split"),
}


def helper(name: str):
    module, function, _ = HELPERS[name]
    return getattr(importlib.import_module(f"{__package__}.{module}"), function)


class StrMethod(CallTemplate):
    """A ``str`` method: its helper, typed at the operands' types."""

    def __init__(self, name: str):
        self.name = name
        self.paths = (f"{__name__}.{name}",)

    def typer(self, inf, call, args, kwargs):
        what = f"str.{HELPERS[self.name][2]}()"
        for node, t in zip(call.args, args):
            if t == STR or isinstance(t, T.ArrayType) and t.dtype == T.INT64 and t.ndim == 1:
                continue            # (a str; a split's bounds)
            if not (isinstance(t, T.Scalar) and (t.is_int or t.is_bool)):
                raise Incompatible(f"{what} with an operand of type {t} (Python takes "
                                   "strs and ints)")
            if t == T.UINT64:
                raise Incompatible(f"{what} with a uint64 operand (beyond int64)")
            if t.is_bool and inf.is_strong(node):
                raise Incompatible(f"{what} with a NumPy bool operand (Python raises "
                                   "TypeError)")
        return typed_helper(inf, helper(self.name), [
            T.INT64 if isinstance(t, T.Scalar) else t for t in args]).return_type

    def lower(self, L, call, args, kwargs):
        from .operators import convert
        args = [convert(L, a, T.INT64) if isinstance(a.type, T.Scalar) else a for a in args]
        spec = L.ctx.specialize(helper(self.name), tuple(a.type for a in args))
        return L.call_symbol(spec.symbol, args, spec.return_type)


for _name in HELPERS:
    globals()[_name] = CompiledOnly(_name)
    register(StrMethod(_name))


def callables() -> dict:
    """The compiled-only callables of the methods, by name."""
    return {name: globals()[name] for name in HELPERS}
