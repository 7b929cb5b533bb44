"""The ``str`` methods of a str built at run time (``str_locals.py``,
``str_rewrite.py``): ``s.upper()``, ``s.find(t, 2)``, ``s.split(",")`` ... become
calls of the compiled-only helpers of ``lib/python/string_method_calls.py``.

* strs: ``upper``, ``lower``, ``title``, ``capitalize``, ``swapcase``,
  ``casefold`` (CPython's full case mappings, the final sigma),
  ``strip``/``lstrip``/``rstrip`` (of whitespace, or of the characters of a str),
  ``replace`` (a count too), ``zfill``, ``center``/``ljust``/``rjust`` (a fill
  character too);
* numbers and truth: ``find``, ``rfind``, ``index``, ``rindex``, ``count`` (with
  ``start`` and ``end``), ``startswith``/``endswith`` (a str or a display of
  strs, with ``start`` and ``end``), ``isalpha``, ``isdigit``, ``isalnum``,
  ``isspace``, ``isupper``, ``islower``, ``istitle``;
* ``split()``/``split(sep)``/``split(sep, maxsplit)`` (keywords too),
  ``rsplit``, ``splitlines``, ``partition``/``rpartition``, where its list is
  indexed, measured, looped over or joined (``str_splits.py``).

A method whose receiver and arguments are all constants is computed while
compiling (:func:`folded`); any other method of a run-time str -- or one given
a keyword, a starred argument or a value of another kind -- falls back with a
reason naming it."""
from __future__ import annotations

import ast
import copy

from ..lib import registry
from .str_locals import helper_call

# title, capitalize, swapcase, casefold: string_cases.converted's ``how``
CASES = {"title": 0, "capitalize": 1, "swapcase": 2, "casefold": 3}
STR_METHODS = frozenset(("upper", "lower", "strip", "lstrip", "rstrip", "replace", "zfill",
                         "center", "ljust", "rjust", *CASES))
VALUE_METHODS = frozenset(("find", "rfind", "index", "rindex", "count", "startswith",
                           "endswith", "isalpha", "isdigit", "isalnum", "isspace",
                           "isupper", "islower", "istitle"))
# the splits (str_splits.py): their list (tuple) compiled where indexed, measured,
# looped over, joined (a partition: unpacked)
SPLITS = frozenset(("split", "rsplit", "splitlines", "partition", "rpartition"))
SIDES = {"strip": 3, "lstrip": 1, "rstrip": 2}
NO_END = 2 ** 63 - 1        # (string_methods.NO_END: an ``end`` of None)
_ARITY = {"upper": (0, 0), "lower": (0, 0), "strip": (0, 1), "lstrip": (0, 1),
          "rstrip": (0, 1), "replace": (2, 3), "zfill": (1, 1), "center": (1, 2),
          "ljust": (1, 2), "rjust": (1, 2), "find": (1, 3), "rfind": (1, 3),
          "index": (1, 3), "rindex": (1, 3), "count": (1, 3), "startswith": (1, 3),
          "endswith": (1, 3), "isalpha": (0, 0), "isdigit": (0, 0), "isalnum": (0, 0),
          "isspace": (0, 0), "split": (0, 2), "isupper": (0, 0), "islower": (0, 0),
          "istitle": (0, 0), **{name: (0, 0) for name in CASES}}


def method_of(e):
    """``(receiver, name)`` of the method call ``e`` (no starred argument), or
    None."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and \
            not any(isinstance(a, ast.Starred) for a in e.args):
        return e.func.value, e.func.attr
    return None


def _constant(info, a, S):
    """The constant value of the argument ``a`` (a str, an int, None, a tuple of
    strs), or the marker ``_NOT``."""
    if isinstance(a, ast.Constant) and type(a.value) in (int, bool, type(None)):
        return a.value
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub) and \
            isinstance(a.operand, ast.Constant) and type(a.operand.value) is int:
        return -a.operand.value
    if isinstance(a, ast.Tuple):
        items = [info.value(x, S) for x in a.elts]
        return tuple(items) if None not in items else _NOT
    v = info.value(a, S)
    return _NOT if v is None else v


_NOT = object()
_WIDTHS = frozenset(("zfill", "center", "ljust", "rjust"))
_FOLDED_WIDTH = 1 << 20


def folded(info, e, S):
    """The value of a method of a str constant with constant arguments
    (``"a,b".upper()``), computed now; None where ``e`` is not one."""
    m = method_of(e)
    if m is None or m[1] not in STR_METHODS | VALUE_METHODS or e.keywords:
        return None
    receiver = info.value(m[0], S)
    args = [_constant(info, a, S) for a in e.args]
    if receiver is None or _NOT in args or m[1] in _WIDTHS and args and \
            type(args[0]) is int and args[0] > _FOLDED_WIDTH:
        return None         # (a padding of a million characters: made at run time)
    try:
        return getattr(receiver, m[1])(*args)
    except Exception:       # noqa: BLE001 - (CPython raises it at run time, as compiled)
        return None


def makes_str(info, e, S) -> bool:
    """Is ``e`` a method of a str that gives a str at run time?"""
    m = method_of(e)
    return m is not None and m[1] in STR_METHODS and info.like(m[0], S) and \
        folded(info, e, S) is None


def _args(r, e, name):
    """The positional arguments of ``e`` after checking their number."""
    if e.keywords:
        r.fail(e, f"str.{name}()", "keyword arguments (compiled: positional ones)")
    lo, hi = _ARITY[name]
    if not lo <= len(e.args) <= hi:
        r.fail(e, f"str.{name}()", f"{len(e.args)} arguments")
    return list(e.args)


def _none(a) -> bool:
    return isinstance(a, ast.Constant) and a.value is None


def _str(r, a, name):
    if not r.like(a):
        r.fail(a, f"str.{name}()", f"{ast.unparse(a)[:40]}: an argument not known to be "
               "a str")
    return r.sv(a)


def _bounds(r, args, k):
    """The ``start``, ``end`` of a search from argument ``k`` on (None: defaults)."""
    start = args[k] if len(args) > k and not _none(args[k]) else ast.Constant(0)
    end = args[k + 1] if len(args) > k + 1 and not _none(args[k + 1]) else \
        ast.Constant(NO_END)
    return r.expr(start), r.expr(end)


def str_call(r, e):
    """The code point array of the str method call ``e`` (``makes_str``)."""
    receiver, name = method_of(e)
    args = _args(r, e, name)
    a = r.sv(receiver)
    if name in ("upper", "lower"):
        return helper_call("str_case", a, ast.Constant(int(name == "lower")))
    if name in CASES:
        return helper_call("str_cases", a, ast.Constant(CASES[name]))
    if name in SIDES:               # (no characters: every whitespace character)
        chars = r.codes(registry.str_whitespace()) if not args or _none(args[0]) else \
            _str(r, args[0], name)
        return helper_call("str_strip_chars", a, chars, ast.Constant(SIDES[name]))
    if name == "replace":
        count = r.expr(args[2]) if len(args) > 2 else ast.Constant(-1)
        return helper_call("str_replace", a, _str(r, args[0], name), _str(r, args[1], name),
                           count)
    if name == "zfill":
        return helper_call("str_zfill", a, r.expr(args[0]))
    fill = _str(r, args[1], name) if len(args) > 1 else r.codes(" ")
    return helper_call(f"str_{name}", a, r.expr(args[0]), fill)


def value_call(r, e):
    """``e`` -- a method of a str giving a number or a truth value -- compiled (of
    constants: its value), or None where ``e`` is not one."""
    m = method_of(e)
    if m is None or m[1] not in VALUE_METHODS or not r.like(m[0]):
        return None
    if (v := folded(r.info, e, r.S)) is not None:
        return ast.Constant(v)          # (of constants: computed now)
    receiver, name = m
    args = _args(r, e, name)
    if name.startswith("is"):
        return helper_call(f"str_{name}", r.sv(receiver))
    if name in ("startswith", "endswith"):
        helper = "str_starts" if name == "startswith" else "str_ends"
        start, end = _bounds(r, args, 1)
        if isinstance(args[0], ast.Tuple):      # any of them: the receiver read again
            if not all(isinstance(x, (ast.Name, ast.Constant)) for x in (start, end)):
                r.fail(e, f"str.{name}()", "a tuple of prefixes with start or end other "
                       "than names and constants")
            tests = [helper_call(helper, r.sv(receiver), _str(r, x, name),
                                 copy.deepcopy(start), copy.deepcopy(end))
                     for x in args[0].elts]
            return ast.BoolOp(ast.Or(), tests) if len(tests) > 1 else \
                tests[0] if tests else ast.Constant(False)
        return helper_call(helper, r.sv(receiver), _str(r, args[0], name), start, end)
    start, end = _bounds(r, args, 1)
    return helper_call(f"str_{name}", r.sv(receiver), _str(r, args[0], name), start, end)


def refuse_other(r, e):
    """Refuse a method of a run-time str this module does not compile."""
    m = method_of(e)
    if m is None and isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
        m = e.func.value, e.func.attr
    if m is not None and m[1] in SPLITS and r.like(m[0]):
        r.fail(e, f"str.{m[1]}()", "its list is compiled where it is indexed, measured, "
               "looped over or tested for truth, or joined (a name every use of which is "
               "one of these, or the call itself there; a partition unpacked too)")
    if m is not None and r.rt(m[0]):
        r.fail(e, "str method", f"str.{m[1]}() of a str built at run time is not "
               "compiled")
