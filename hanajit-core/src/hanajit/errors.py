"""Exceptions and warnings that hanajit raises to users."""

import re
import sys


class HanaJitError(Exception):
    """Base class of hanajit's own errors."""


class UnsupportedError(HanaJitError):
    """The function uses a construct hanajit cannot compile.

    The message names the function, the source line and the construct.  With
    ``@jit(fallback=False)`` it is raised to the caller; otherwise the same message
    is given once as a :class:`HanaJitFallbackWarning` and the function runs in the
    interpreter.
    """

    def __init__(self, message: str, *, func: str = "", line: int | None = None,
                 construct: str = ""):
        super().__init__(message)
        self.func = func
        self.line = line
        self.construct = construct


class TargetError(HanaJitError):
    """A target is unknown, not installed, or cannot run on this machine."""


class PluginError(HanaJitError):
    """A plugin is misdeclared (for example a misspelt hook or a duplicate target)."""


class HanaJitFallbackWarning(UserWarning):
    """A function (or one argument-type specialisation) runs in the interpreter, or
    an exporter writes less than it would (``export_fpga`` of a kernel outside the
    HLS C++ subset writes only the LLVM IR and a TCL stub)."""


class HostException(Exception):
    """Raised by compiled code after a call back into Python failed (``print``:
    ``host_print.take_exception``); the runtime raises Python's exception itself."""


class HanaJitPluginWarning(UserWarning):
    """A plugin failed to load; every other target keeps working."""


class HanaJitInternalWarning(UserWarning):
    """Something inside hanajit went wrong but was recovered from (a bug: report it)."""


class HanaJitParallelWarning(UserWarning):
    """A ``prange`` loop (or a loop ``parallel=True`` would promote) runs serially
    because of the dependence the message names."""


class HanaJitNarrowWarning(UserWarning):
    """``f.narrow()`` found no integer reduction it can add in narrow lanes and
    runs the ordinary compiled code; the message names the function and why."""



# ``Raise.deopt`` of an error whose text only approximates NumPy's (a shape
# mismatch, which NumPy words with whole shapes): a pure call re-runs in the
# interpreter, which raises NumPy's own exception (or, where NumPy broadcasts
# what compiled code refused, returns its result); elsewhere -- a call that
# wrote into its arguments, exported code, a GPU -- the compiled text is raised
RERUN = "rerun"

# ``Raise.deopt`` of a deoptimisation no write into an array, print or draw can
# precede (``passes/rerun_safety.no_guard_after_writes``): the call is re-run in the
# interpreter even where the function may write into its arguments later on
CLEAN = "clean"


def stored_deopt(deopt):
    """A raise table's deopt flag as caches keep it (True, False, RERUN or CLEAN)."""
    return deopt if deopt in (RERUN, CLEAN) else bool(deopt)


# CPython's ZeroDivisionError texts that changed by version: ``x % 0`` of ints
# "integer modulo by zero" from 3.11, of floats "float modulo by zero" from 3.13
INT_MODULO = ("integer division or modulo by zero" if sys.version_info < (3, 11)
              else "integer modulo by zero")
MODULO_BY_ZERO = sys.version_info >= (3, 13)


def zero_division_message(op: str, floats: bool) -> str:
    """The running CPython's ZeroDivisionError text for ``op`` ("truediv",
    "floordiv", "mod") of Python numbers, ``floats`` when one is a float."""
    if op == "truediv":
        return "float division by zero" if floats else "division by zero"
    if op == "floordiv":
        return "float floor division by zero" if floats else \
            "integer division or modulo by zero"
    if floats:
        return "float modulo by zero" if MODULO_BY_ZERO else "float modulo"
    return INT_MODULO


# CPython's OverflowError of a float ``**`` that overflows (``1e308 ** 2``) is
# ``OverflowError(errno.ERANGE, strerror)``: ``e.args == (34, '...')``, ``str(e)``
# this text; compiled raises carry the text and kernel_exception the two arguments
ERANGE_MESSAGE = "(34, 'Numerical result out of range')"


class Field:
    """A place in a kernel message template: ``{}`` an int64, ``{u}`` a uint64
    (``kind`` "u": the kernel's integer is its bits), ``{f}`` a float (``kind``
    "f": the bits of the value as a double, printed as ``repr(float)`` -- what an
    f-string prints for a Python float, ``np.float64`` and ``np.float32`` alike).
    Before inference a field may carry the f-string's conversion (``{!s}``,
    ``{!r}``: ``conversion`` "s" or "r").  A value field (``{=}``, ``{=u}``,
    ``{=f}``; before inference ``{!v}``: ``value`` true) prints as the others do,
    and a template that is one value field alone raises the exception with the
    number itself as its argument (``KeyError(49)``, :func:`kernel_exception`).

    A str field (``kind`` "s": ``{s}``, the text; "r": ``{r}``, its ``repr``)
    formats a str built at run time: the kernel's integer is the address of a
    reference it holds to the str's code points (``lowering/nrt.py``), which the
    runtime reading the record takes (:func:`str_field_slots`) and gives to
    :func:`kernel_message` as the Python str.  ``precision`` (``{r.200}``; before
    inference ``{!r.200}``) cuts the text to that many characters, as
    ``f"{s!r:.200}"`` and CPython's ``%.200R`` do."""

    def __init__(self, kind: str = "", conversion: str = "", value: bool = False,
                 precision: int | None = None):
        self.kind = kind
        self.conversion = conversion
        self.value = value
        self.precision = precision

    @property
    def is_str(self) -> bool:
        return self.kind in ("s", "r")

    def suffix(self) -> str:
        """The precision as a template writes it after the kind (``.200``)."""
        return "" if self.precision is None else f".{self.precision}"

    def number(self, value):
        """The kernel's integer ``value`` as the Python number it stands for."""
        value = int(value)
        if self.kind == "u":
            return value % 2**64
        if self.kind == "f":
            import struct
            return struct.unpack("<d", struct.pack("<Q", value % 2**64))[0]
        return value

    @property
    def unsigned(self) -> bool:
        return self.kind == "u"

    def text(self, value) -> str:
        if self.is_str:         # (the runtime gave the str; "?" where it could not)
            text = value if isinstance(value, str) else "?"
            text = repr(text) if self.kind == "r" and isinstance(value, str) else text
            return text if self.precision is None else text[:self.precision]
        value = int(value)
        if self.kind == "u":
            return str(value % 2**64)
        if self.kind == "f":
            import struct
            return repr(struct.unpack("<d", struct.pack("<Q", value % 2**64))[0])
        return str(value)


_FIELDS = {"{}": Field(), "{u}": Field("u"), "{f}": Field("f"),
           "{!s}": Field("", "s"), "{!r}": Field("", "r"),
           "{=}": Field(value=True), "{=u}": Field("u", value=True),
           "{=f}": Field("f", value=True), "{!v}": Field("", "v", value=True)}


_STR_FIELD = re.compile(r"\{(?:([sr])|!([sr]))(?:\.(\d+))?\}\Z")


def _field(text: str):
    """The :class:`Field` a template's ``{...}`` spells, or None."""
    field = _FIELDS.get(text)
    if field is not None or "s" not in text and "r" not in text:
        return field
    m = _STR_FIELD.match(text)
    if m is None or m.group(2) and m.group(3) is None:
        return None         # ({!s} and {!r} alone: _FIELDS)
    precision = int(m.group(3)) if m.group(3) is not None else None
    return Field(m.group(1) or "", m.group(2) or "", precision=precision)


def kernel_message_parts(template: str):
    """``template`` as literal strings (one character each) and a :class:`Field`
    for each ``{}``, ``{u}``, ``{f}`` (or, before inference, ``{!s}`` and
    ``{!r}``) place."""
    i = 0
    while i < len(template):
        if template[i] == "{" and template[i + 1:i + 2] != "{":
            end = template.find("}", i)
            field = _field(template[i:end + 1]) if end > 0 else None
            if field is not None:
                yield field
                i = end + 1
                continue
        two = template[i:i + 2]
        if two in ("{{", "}}"):
            yield two[0]
            i += 2
        else:
            yield template[i]
            i += 1


def kernel_message(template: str, ints=()) -> str:
    """The text of an exception a compiled kernel raised.

    A raise's message is a template: ``{}`` takes the kernel's next integer (up to
    three, in ``err[1..3]``), ``{u}`` the same as a uint64, ``{f}`` the same as
    the bits of a double (``repr``), ``{{`` and ``}}`` are literal braces -- the
    rule every runtime (Python, the C ``main``, the JavaScript loader) follows."""
    if "{" not in template and "}" not in template:
        return template
    out, k = [], 0
    for part in kernel_message_parts(template):
        if isinstance(part, Field):
            part = part.text(ints[k]) if k < len(ints) else "?"
            k += 1
        out.append(part)
    return "".join(out)


def kernel_exception(exc, template: str, ints=()):
    """The exception a compiled kernel raised: ``exc`` with the text of
    :func:`kernel_message`, or -- a template of one value field alone
    (:class:`Field`) -- with the number itself as its one argument, as CPython's
    ``raise KeyError(k)`` (``e.args == (49,)``)."""
    if template == "":
        return exc()        # raise ValueError / assert x: ``e.args == ()``, as CPython
    if template == ERANGE_MESSAGE:
        return exc(34, "Numerical result out of range")     # float ``**``: errno, text
    parts = list(kernel_message_parts(template)) if template.startswith("{") else ()
    if len(parts) == 1 and isinstance(parts[0], Field) and parts[0].value and ints:
        return exc(parts[0].number(ints[0]))
    return exc(kernel_message(template, ints))


def kernel_message_fields(template: str) -> int:
    """How many values ``template`` formats (its fields)."""
    return sum(isinstance(part, Field) for part in kernel_message_parts(template))


def message_fields(template: str) -> list:
    """The :class:`Field` of each place ``template`` formats a value."""
    return [part for part in kernel_message_parts(template) if isinstance(part, Field)]


def str_field_slots(template: str) -> list:
    """The positions (0 to 2) among the kernel's integers of the str fields of
    ``template``: each an address the runtime reads the str from (:class:`Field`)."""
    return [k for k, f in enumerate(message_fields(template)) if f.is_str]


def with_field_kinds(template: str, kinds) -> str:
    """``template`` with its k-th field ``{<kinds[k]>}`` (``{}``, ``{u}``,
    ``{f}``, ``{s}``, ``{r}``, a str field keeping its precision)."""
    out, k = [], 0
    for part in kernel_message_parts(template):
        if isinstance(part, Field):
            part = "{" + ("=" if part.value else "") + \
                (kinds[k] if k < len(kinds) else "") + part.suffix() + "}"
            k += 1
        elif part in "{}":
            part += part
        out.append(part)
    return "".join(out)


def escape_braces(text: str) -> str:
    """``text`` as a kernel message template with no fields."""
    return text.replace("{", "{{").replace("}", "}}")
