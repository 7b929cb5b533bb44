"""The compiled-only calls of a str built at run time whose meaning depends on an
argument's type (``frontend/str_locals.py`` emits them; the others call the
Python source of ``string_algorithms.py`` directly): ``str(x)``, ``repr(x)`` and
``f"{x:spec}"`` of an int, a bool or a float, ``chr(i)``, ``s * k``, ``s[i]``.  A
str is a 1-D int32 array of code points.  A float's text is CPython's own
(``float_text.py``: ``PyOS_double_to_string``, called in this process -- other
targets refuse it); a complex's text is CPython's ``complex_repr`` of those
(``float_text.complex_repr``), for ``str``/``repr`` of a complex or an
``np.complex128`` and ``f"{z}"`` of any complex; ``str`` of an ``np.float32``
or ``np.complex64`` is NumPy's Dragon4 text (``float32_text.py``).  ``repr`` of
a NumPy scalar (``np.float64(...)``), a format spec of a complex or an array
operand are refused with a reason: the function runs in the interpreter."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python.operators import C
from ..registry import CallTemplate, CompiledOnly, register
from . import float_text as ft
from . import string_algorithms as alg

str_of = CompiledOnly("str_of")
repr_of = CompiledOnly("repr_of")
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
    raise Incompatible(f"{what} {prep} a {t}; a str built at run time is compiled from "
                       "ints, bools, floats and strs")


def _float(inf, t, what: str) -> bool:
    """Is ``t`` a float whose text compiled code can ask CPython for (a float16
    refused), on this target?"""
    if not (isinstance(t, T.Scalar) and t.is_float):
        return False
    if t.bits not in (32, 64):
        raise Incompatible(f"{what} of a {t} is not compiled")
    _host(inf, what)
    return True


def _complex(inf, t, what: str) -> bool:
    """Is ``t`` a complex whose text compiled code can ask CPython for?"""
    if not (isinstance(t, T.Scalar) and t.is_complex):
        return False
    _host(inf, what)
    return True


def _host(inf, what: str) -> None:
    if inf.ctx is None or not inf.ctx.capabilities.host_calls or \
            inf.ctx.options.get("c_exports"):
        raise Incompatible(f"{what} of a float calls CPython's PyOS_double_to_string, "
                           "which code running outside this process (this target, an "
                           "export or a plain C function) cannot")


def _text_of(L, e):
    """The code points of ``str(e)`` of an int, a bool, a float64 or a complex
    (an ``np.complex64``'s parts widened: ``f"{z}"``)."""
    if e.type.is_complex:
        z = L.let(e)
        parts = [_float64(L, N.ComplexPart(z, p, e.type.component)) for p in ("real", "imag")]
        return _call(L, ft.complex_repr, parts)
    if e.type.is_bool:
        return _call(L, alg.bool_text, [e])
    if e.type.is_float:
        return _call(L, ft.float_repr, [_float64(L, e)])
    return _call(L, alg.int_text, [_int64(L, e)])


def _call(L, helper, args):
    """A call of ``helper`` compiled apart (not inlined: a long f-string would
    inline dozens of copies of its loops)."""
    spec = L.ctx.specialize(helper, tuple(a.type for a in args))
    return L.call_symbol(spec.symbol, list(args), spec.return_type)


def _int64(L, e):
    from .operators import convert
    return convert(L, e, T.INT64)


def _float64(L, e):
    from .operators import convert
    return convert(L, e, T.FLOAT64)


@register
class StrOf(CallTemplate):
    """``str(x)`` (and ``f"{x!s}"``) of an int, a bool, a float or a complex
    (``str`` of an ``np.float64`` is a float's repr, of an ``np.complex128`` a
    complex's; of an ``np.float32`` or ``np.complex64``, NumPy's shortest float32
    digits: ``float32_text.py``)."""
    paths = ("hanajit.lib.python.strings.str_of",)

    def typer(self, inf, call, args, kwargs):
        if _float(inf, args[0], "str()"):
            return STR
        if _complex(inf, args[0], "str()"):
            return STR
        _whole(args[0], "str()")
        return STR

    def lower(self, L, call, args, kwargs):
        t = args[0].type
        if t.is_float and t.bits == 32 or t.is_complex and t.bits == 64:   # NumPy's float32
            from . import float32_text as f32
            if t.is_float:
                return _call(L, f32.float32_text, [_float64(L, args[0])])
            z = L.let(args[0])
            parts = [_float64(L, N.ComplexPart(z, p, T.FLOAT32)) for p in ("real", "imag")]
            return _call(L, f32.complex64_text, parts)
        return _text_of(L, args[0])


@register
class ReprOf(CallTemplate):
    """``repr(x)`` (and ``f"{x!r}"``) of a Python int, bool, float or complex: its str.  A
    NumPy scalar's repr (``np.float64(0.5)``) is refused."""
    paths = ("hanajit.lib.python.strings.repr_of",)

    def typer(self, inf, call, args, kwargs):
        node, t = call.args[0], args[0]
        if isinstance(t, T.Scalar) and (inf.is_strong(node) or isinstance(node, N.Var)
                                        and node.name in inf.mixed):
            raise Incompatible(f"repr() of a NumPy scalar ({t}: np.{t}(...)) or of a "
                               "local that is one on some paths")
        if isinstance(t, T.Scalar) and t.is_complex and t.bits != 128:
            raise Incompatible("repr() of a NumPy scalar (complex64: np.complex64(...))")
        if not (_float(inf, t, "repr()") or _complex(inf, t, "repr()")):
            _whole(t, "repr()")
        return STR

    def lower(self, L, call, args, kwargs):
        return _text_of(L, args[0])


_INT_KINDS = {0: (10, 0), ord("d"): (10, 0), ord("x"): (16, ord("x")),
              ord("X"): (16, ord("X")), ord("o"): (8, ord("o")), ord("b"): (2, ord("b"))}
_FLOAT_KINDS = frozenset(map(ord, "eEfFgG%"))


def _spec(call):
    """``(fill, align, sign, alt, width, precision, kind, empty)`` of a
    ``format_of`` call: constants the frontend parsed (``str_formats.py``; align
    -1 and precision -1 where the spec gives none, kind a code point or 0)."""
    return tuple(int(getattr(a, "value", 0)) for a in call.args[1:9])


@register
class FormatOf(CallTemplate):
    """``format(x, spec)`` of an int, a bool or a float (``spec`` parsed by the
    frontend: fill, align, sign, '#', width, precision, type -- constants).  An
    int or a bool takes the types ``d``/``x``/``X``/``o``/``b`` (a bool formats
    as its int, but as ``True`` with no spec) and, as CPython converts it,
    ``e``/``f``/``g``/``%``; a float those and none (its repr, or with a
    precision ``g`` with a ``.0`` kept): the digits are CPython's
    (``float_text.formatted_float``)."""
    paths = ("hanajit.lib.python.strings.format_of",)

    def typer(self, inf, call, args, kwargs):
        t = args[0]
        fill, align, sign, alt, width, precision, kind, empty = _spec(call)
        if _float(inf, t, "a formatted field"):
            if kind not in _FLOAT_KINDS and kind != 0:
                raise Incompatible(f"the format type {chr(kind)!r} of a float (Python "
                                   "raises ValueError)")
            return STR
        if _complex(inf, t, "a formatted field"):
            if not empty:
                raise Incompatible("a format spec for a complex is not compiled (only "
                                   "f\"{z}\" and format(z, ''), its str)")
            return STR
        _whole(t, "a formatted field")
        if kind in _FLOAT_KINDS:            # (an int formatted as its float)
            _host(inf, "a formatted field")
            return STR
        if kind not in _INT_KINDS:
            raise Incompatible(f"the format type {chr(kind)!r} (d, x, X, o, b, e, f, g "
                               "and % are compiled, for numbers)")
        if precision >= 0:
            raise Incompatible("a precision in the format of an int (Python raises "
                               "ValueError)")
        return STR

    def lower(self, L, call, args, kwargs):
        x, t = args[0], args[0].type
        fill, align, sign, alt, width, precision, kind, empty = _spec(call)
        if empty:
            return _text_of(L, x)
        if kind in _FLOAT_KINDS or t.is_float:
            flags = ft.ALT if alt else 0
            code = kind if kind != ord("%") else ord("f")
            if kind == 0:
                flags |= ft.ADD_DOT_0
                code = ft.R_CODE if precision < 0 else ord("g")
                precision = max(precision, 0)
            elif precision < 0:
                precision = 6
            spec = [C(v, T.INT64) for v in (code, precision, flags, kind == ord("%"),
                                             fill, 1 if align < 0 else align, sign, width)]
            return _call(L, ft.formatted_float, [_float64(L, x)] + spec)
        base, letter = _INT_KINDS[kind]
        spec = [C(v, T.INT64) for v in (fill, 1 if align < 0 else align, sign,
                                         letter if alt else 0, width, base)]
        spec.append(C(kind == ord("X"), T.BOOL))
        return _call(L, alg.formatted_int, [_int64(L, x)] + spec)


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
    out = {n: globals()[n] for n in ("str_of", "repr_of", "format_of", "chr_of", "repeat_of",
                                     "item_of", "concat_of", "str_tag", "str_untag",
                                     "to_int")}
    for n in ("concat", "copied", "unit", "code_point", "order", "equal", "contains",
              "put", "taken", "picked", "assemble", "char_table",
              "char_of"):
        out[n] = getattr(alg, n)
    return out
