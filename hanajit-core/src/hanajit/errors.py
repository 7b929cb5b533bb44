"""Exceptions and warnings that hanajit raises to users."""


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



class Field:
    """A ``{}`` (``unsigned``: ``{u}``) place in a kernel message template."""

    def __init__(self, unsigned: bool):
        self.unsigned = unsigned

    def text(self, value) -> str:
        return str(value % 2**64 if self.unsigned else value)


def kernel_message_parts(template: str):
    """``template`` as literal strings (one character each) and a :class:`Field`
    for each ``{}`` (an int64) or ``{u}`` (a uint64: the kernel's integer is its
    bits) place."""
    i = 0
    while i < len(template):
        two = template[i:i + 2]
        if two == "{}":
            yield Field(False)
            i += 2
        elif template.startswith("{u}", i):
            yield Field(True)
            i += 3
        elif two in ("{{", "}}"):
            yield two[0]
            i += 2
        else:
            yield template[i]
            i += 1


def kernel_message(template: str, ints=()) -> str:
    """The text of an exception a compiled kernel raised.

    A raise's message is a template: ``{}`` takes the kernel's next integer (up to
    three, in ``err[1..3]``), ``{u}`` the same as a uint64, ``{{`` and ``}}`` are
    literal braces -- the rule every runtime (Python, the C ``main``, the
    JavaScript loader) follows."""
    if "{" not in template and "}" not in template:
        return template
    out, k = [], 0
    for part in kernel_message_parts(template):
        if isinstance(part, Field):
            part = part.text(ints[k]) if k < len(ints) else "?"
            k += 1
        out.append(part)
    return "".join(out)


def kernel_message_fields(template: str) -> int:
    """How many integers ``template`` formats (its ``{}`` and ``{u}`` fields)."""
    return sum(isinstance(part, Field) for part in kernel_message_parts(template))


def with_unsigned_fields(template: str, unsigned) -> str:
    """``template`` with its k-th field ``{u}`` where ``unsigned[k]``, else ``{}``."""
    out, k = [], 0
    for part in kernel_message_parts(template):
        if isinstance(part, Field):
            part = "{u}" if k < len(unsigned) and unsigned[k] else "{}"
            k += 1
        elif part in "{}":
            part += part
        out.append(part)
    return "".join(out)


def escape_braces(text: str) -> str:
    """``text`` as a kernel message template with no fields."""
    return text.replace("{", "{{").replace("}", "}}")
