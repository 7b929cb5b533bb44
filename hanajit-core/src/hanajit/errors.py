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
    """A function (or one argument-type specialisation) runs in the interpreter."""


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
