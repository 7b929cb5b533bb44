"""The compiled-only calls of a str built at run time whose meaning depends on an
argument's type (``frontend/str_locals.py`` emits them; the others call the
Python source of ``string_algorithms.py`` directly): ``str(x)`` and ``f"{x:spec}"``
of an int or a bool, ``chr(i)``, ``s * k``, ``s[i]``.  A str is a 1-D int32
array of code points.  A float, complex or array operand is refused with a
reason (CPython's shortest float repr is not compiled): the function runs in the
interpreter."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python.operators import C
from ..registry import CallTemplate, CompiledOnly, register
from . import string_algorithms as alg

str_of = CompiledOnly("str_of")
format_of = CompiledOnly("format_of")
chr_of = CompiledOnly("chr_of")
repeat_of = CompiledOnly("repeat_of")
item_of = CompiledOnly("item_of")
concat_of = CompiledOnly("concat_of")
str_tag = CompiledOnly("str_tag")
str_untag = CompiledOnly("str_untag")
to_int = CompiledOnly("to_int")

STR = T.ArrayType(T.INT32, 1, "C")


def _whole(t, what: str, bools=True, prep="of"):
    """Refuse ``t`` unless it is an int (or a bool) scalar."""
    if isinstance(t, T.Scalar) and (t.is_int or t.is_bool and bools):
        if t == T.UINT64:
            raise Incompatible(f"{what} of a uint64 (beyond int64) is not compiled")
        return
    if isinstance(t, T.Scalar) and t.kind == "f" and what in ("str()", "a formatted field"):
        raise Incompatible(f"{what} of a float: CPython's shortest repr of a float is not "
                           "compiled into a run-time str")
    raise Incompatible(f"{what} {prep} a {t}; a str built at run time is compiled from "
                       "ints, bools and strs")


def _call(L, helper, args):
    """A call of ``helper`` compiled apart (not inlined: a long f-string would
    inline dozens of copies of its loops)."""
    spec = L.ctx.specialize(helper, tuple(a.type for a in args))
    return L.call_symbol(spec.symbol, list(args), spec.return_type)


def _int64(L, e):
    from .operators import convert
    return convert(L, e, T.INT64)


@register
class StrOf(CallTemplate):
    """``str(x)`` (and ``f"{x}"``) of an int or a bool."""
    paths = ("hanajit.lib.python.strings.str_of",)

    def typer(self, inf, call, args, kwargs):
        _whole(args[0], "str()")
        return STR

    def lower(self, L, call, args, kwargs):
        if args[0].type.is_bool:
            return _call(L, alg.bool_text, [args[0]])
        return _call(L, alg.int_text, [_int64(L, args[0])])


@register
class FormatOf(CallTemplate):
    """``format(x, spec)`` of an int or a bool (``spec`` parsed by the frontend:
    fill, align, sign, prefix letter, width, base, upper -- constants); a bool
    formats as its int."""
    paths = ("hanajit.lib.python.strings.format_of",)

    def typer(self, inf, call, args, kwargs):
        _whole(args[0], "a formatted field")
        return STR

    def lower(self, L, call, args, kwargs):
        spec = [C(getattr(a, "value", 0), T.INT64) for a in call.args[1:8]]
        spec[6] = C(bool(getattr(call.args[7], "value", False)), T.BOOL)
        return _call(L, alg.formatted_int, [_int64(L, args[0])] + spec)


@register
class ChrOf(CallTemplate):
    """``chr(i)`` (``chr_of(i, table)``)."""
    paths = ("hanajit.lib.python.strings.chr_of",)

    def typer(self, inf, call, args, kwargs):
        _whole(args[0], "chr()")
        return STR

    def lower(self, L, call, args, kwargs):     # (the table of char_table: no new str)
        return _call(L, alg.character_in, [args[1], _int64(L, args[0])])


@register
class RepeatOf(CallTemplate):
    """``s * k`` / ``k * s`` (the str first)."""
    paths = ("hanajit.lib.python.strings.repeat_of",)

    def typer(self, inf, call, args, kwargs):
        _whole(args[1], "repeating a str (s * k)", prep="by")
        return STR

    def lower(self, L, call, args, kwargs):
        return _call(L, alg.repeat, [args[0], _int64(L, args[1])])


@register
class ItemOf(CallTemplate):
    """``s[i]``."""
    paths = ("hanajit.lib.python.strings.item_of",)

    def typer(self, inf, call, args, kwargs):
        _whole(args[1], "indexing a str", prep="with")
        if args[1].is_bool and inf.is_strong(call.args[1]):
            raise Incompatible("a NumPy bool as a str index (Python raises TypeError)")
        return STR

    def lower(self, L, call, args, kwargs):
        return _call(L, alg.item, [args[0], _int64(L, args[1])])


@register
class ConcatOf(CallTemplate):
    """``a + b + c ...`` and the parts of an f-string: one call however many
    parts (nested calls would be typed over and over)."""
    paths = ("hanajit.lib.python.strings.concat_of",)

    def typer(self, inf, call, args, kwargs):
        if not all(t == STR for t in args):
            raise Incompatible("a str's parts")
        return STR

    def lower(self, L, call, args, kwargs):
        out = args[0]
        for a in args[1:]:
            out = _call(L, alg.concat, [out, a])
        return out


@register
class StrTag(CallTemplate):
    """A run-time str passed to a callee: typed ``StrCodes`` (the same array)."""
    paths = ("hanajit.lib.python.strings.str_tag",)

    def typer(self, inf, call, args, kwargs):
        if args[0] != STR:
            raise Incompatible("a str's code points")
        return T.StrCodes(T.INT32, 1, "C")

    def lower(self, L, call, args, kwargs):
        return _retyped(L, args[0], call.type)


@register
class StrUntag(CallTemplate):
    """A callee's ``StrCodes`` parameter read: the str's array."""
    paths = ("hanajit.lib.python.strings.str_untag",)

    def typer(self, inf, call, args, kwargs):
        if not isinstance(args[0], T.StrCodes):
            raise Incompatible("a str parameter's code points")
        return STR

    def lower(self, L, call, args, kwargs):
        return _retyped(L, args[0], STR)


@register
class ToInt(CallTemplate):
    """``int(s)`` (``string_int.py``, imported -- its Unicode tables made -- on
    first use)."""
    paths = ("hanajit.lib.python.strings.to_int",)

    def typer(self, inf, call, args, kwargs):
        if args[0] != STR:
            raise Incompatible("int() of a str's code points")
        return T.INT64

    def lower(self, L, call, args, kwargs):
        from . import string_int
        return _call(L, string_int.to_int, [args[0]])


def _retyped(L, e, t):
    """``e`` (an int32 array) held in a temporary of type ``t`` (the same form)."""
    name = L.temp(t, "s")
    L.emit(N.Assign(target=name, value=e))
    return N.Var(name, t)


def callables() -> dict:
    """The compiled-only callables and the helpers ``frontend/str_locals.py``
    calls, by the names it gives them."""
    out = {n: globals()[n] for n in ("str_of", "format_of", "chr_of", "repeat_of",
                                     "item_of", "concat_of", "str_tag", "str_untag",
                                     "to_int")}
    for n in ("concat", "copied", "unit", "code_point", "order", "equal", "contains",
              "put", "taken", "picked", "assemble", "char_table",
              "char_of"):
        out[n] = getattr(alg, n)
    return out
