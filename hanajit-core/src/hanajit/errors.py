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



def kernel_message_parts(template: str):
    """``template`` as literal strings and ``None`` for each ``{}`` field."""
    i = 0
    while i < len(template):
        two = template[i:i + 2]
        if two == "{}":
            yield None
            i += 2
        elif two in ("{{", "}}"):
            yield two[0]
            i += 2
        else:
            yield template[i]
            i += 1


def kernel_message(template: str, ints=()) -> str:
    """The text of an exception a compiled kernel raised.

    A raise's message is a template: ``{}`` takes the kernel's next integer (up to
    three, in ``err[1..3]``), ``{{`` and ``}}`` are literal braces -- the rule every
    runtime (Python, the C ``main``, the JavaScript loader) follows."""
    if "{" not in template and "}" not in template:
        return template
    out, k = [], 0
    for part in kernel_message_parts(template):
        if part is None:
            part = str(ints[k]) if k < len(ints) else "?"
            k += 1
        out.append(part)
    return "".join(out)


def kernel_message_fields(template: str) -> int:
    """How many integers ``template`` formats (its ``{}`` fields)."""
    return sum(part is None for part in kernel_message_parts(template))


def escape_braces(text: str) -> str:
    """``text`` as a kernel message template with no fields."""
    return text.replace("{", "{{").replace("}", "}}")
