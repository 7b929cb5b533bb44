"""The user API: ``@jit``, ``prange`` and the jitted-function object.

A :class:`JitFunction` keeps one specialisation per tuple of argument types.  The
first call with new types runs the pipeline and the target's codegen; code that
cannot be compiled runs in the interpreter with one
:class:`~hanajit.errors.HanaJitFallbackWarning` naming the function, the line and
the construct (or raises :class:`~hanajit.errors.UnsupportedError` with
``fallback=False``).  A fallback for one type tuple never stops other type tuples
from compiling.
"""
from __future__ import annotations

import functools
import inspect
import threading
import warnings

from .errors import HanaJitFallbackWarning, TargetError, UnsupportedError

_OPTION_DEFAULTS = {
    "target": "cpu", "fallback": True, "signature": None, "cache": False,
    "boundscheck": True, "fastmath": False, "parallel": False, "nogil": False,
    "reduce_reassoc": False, "rewrite": False, "gpu_arch": None, "inline": "auto",
    "workers": None,
}


def prange(*args):
    """``range`` for loops whose iterations may run in parallel (serial for now)."""
    return range(*args)


def jit(func=None, **options):
    """Compile ``func`` to native code on its first call (``@jit`` or ``@jit(...)``).

    Options: ``target`` (``"cpu"``; see ``hanajit targets``), ``fallback``
    (default True: run in the interpreter with a warning when compilation is not
    possible; False: raise :class:`UnsupportedError`), ``signature`` (compile
    eagerly), ``cache``, ``boundscheck``, ``fastmath``, ``parallel``, ``nogil``,
    ``reduce_reassoc``, ``gpu_arch``.
    """
    unknown = set(options) - set(_OPTION_DEFAULTS)
    if unknown:
        raise TypeError(f"jit() got unknown option(s): {', '.join(sorted(unknown))}")
    if func is None:
        return lambda f: JitFunction(f, **options)
    if isinstance(func, JitFunction):
        return func
    if not callable(func):
        raise TypeError("jit() takes a function")
    return JitFunction(func, **options)


class Specialization:
    """A compiled specialisation: the IR module, the target artifact, the runner."""

    def __init__(self, arg_types, module, artifact, runner):
        self.arg_types = arg_types
        self.module = module
        self.artifact = artifact
        self.runner = runner


class JitFunction:
    """A jitted Python function (what ``@jit`` returns)."""

    def __init__(self, py_func, **options):
        self.py_func = py_func
        self.options = {**_OPTION_DEFAULTS, **options}
        functools.update_wrapper(self, py_func)
        self._specs: dict = {}          # arg types -> runner (or py_func on fallback)
        self._compiled: dict = {}       # arg types -> Specialization
        self._fallback_reasons: dict = {}
        self._lock = threading.RLock()
        try:
            self._sig = inspect.signature(py_func)
        except (TypeError, ValueError):      # pragma: no cover
            self._sig = None
        self._nparams = self._simple_arity()
        if self.options["signature"] is not None:
            self.compile_signature(self.options["signature"])

    def _simple_arity(self):
        """Number of parameters when all are plain positional ones (fast path)."""
        if self._sig is None:
            return -1
        ps = list(self._sig.parameters.values())
        if all(p.kind == p.POSITIONAL_OR_KEYWORD for p in ps):
            return len(ps)
        return -1

    # ------------------------------------------------------------------ calling
    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != self._nparams:
            args = self._bind(args, kwargs)
        from .infer.rules import typeof
        key = tuple(map(typeof, args))
        runner = self._specs.get(key)
        if runner is None:
            runner = self._specialize(key, args)
        return runner(*args)

    def _bind(self, args, kwargs):
        if self._sig is None:
            return args
        ba = self._sig.bind(*args, **kwargs)
        ba.apply_defaults()
        out = []
        for name, p in self._sig.parameters.items():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError("hanajit: *args/**kwargs are not supported")
            out.append(ba.arguments[name])
        return tuple(out)

    def _specialize(self, key, args):
        with self._lock:
            runner = self._specs.get(key)
            if runner is not None:
                return runner
            if any(t is None for t in key):
                bad = next(i for i, t in enumerate(key) if t is None)
                return self._fall_back(key, UnsupportedError(
                    f"{self.__qualname__}: argument {bad + 1} of type "
                    f"{type(args[bad]).__name__} is not supported", func=self.__qualname__,
                    construct=f"argument of type {type(args[bad]).__name__}"))
            try:
                spec = self._compile(key)
            except UnsupportedError as exc:
                return self._fall_back(key, exc)
            except TargetError as exc:
                return self._fall_back(key, UnsupportedError(str(exc), func=self.__qualname__,
                                                             construct="target"))
            except RecursionError as exc:
                return self._fall_back(key, UnsupportedError(
                    f"{self.__qualname__}: too deeply nested ({exc})",
                    func=self.__qualname__, construct="nesting"))
            except Exception as exc:          # an internal error: never crash the user
                import traceback
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                return self._fall_back(key, UnsupportedError(
                    f"{self.__qualname__}: internal compiler error ({detail}); please "
                    "report it", func=self.__qualname__, construct="internal error"),
                    internal=True)
            self._compiled[key] = spec
            self._specs[key] = spec.runner
            return spec.runner

    def _fall_back(self, key, exc: UnsupportedError, internal=False):
        if not self.options["fallback"]:
            raise exc
        self._fallback_reasons[key] = str(exc)
        warnings.warn(HanaJitFallbackWarning(
            f"hanajit: {self.__qualname__} runs in the interpreter: {exc}"), stacklevel=4)
        self._specs[key] = self.py_func
        return self.py_func

    def _compile(self, key) -> Specialization:
        from . import plugins
        from .pipeline import compile_ir
        target = plugins.get_target(self.options["target"])
        if target.kind != "host":
            raise UnsupportedError(f"{self.__qualname__}: target {target.name!r} runs "
                                   "through launch(); calling it directly uses the "
                                   "interpreter", func=self.__qualname__, construct="target")
        module, ctx = compile_ir(self.py_func, key, self.options)
        artifact = target.compile(module, self.options)
        runner = target.load(artifact, self._make_deopt(module))
        return Specialization(key, module, artifact, runner)

    def _make_deopt(self, module):
        return self.py_func

    def compile_signature(self, signature):
        """Compile eagerly for a signature string such as ``"i64, f64"``."""
        from .signature import parse_signature
        for key in parse_signature(signature):
            runner = self._specialize(tuple(key), ())
            if runner is self.py_func and not self.options["fallback"]:
                raise UnsupportedError(self._fallback_reasons.get(tuple(key), ""))

    # --------------------------------------------------------------- inspection
    @property
    def signatures(self) -> list:
        """The argument-type tuples compiled so far."""
        return list(self._compiled)

    def _pick(self, signature):
        if not self._compiled:
            raise ValueError(f"{self.__qualname__} has not been compiled yet; call it "
                             "once or pass signature=")
        if signature is None:
            return next(iter(self._compiled.values()))
        from .signature import parse_signature
        key = tuple(parse_signature(signature)[0]) if isinstance(signature, str) else tuple(
            signature)
        return self._compiled[key]

    def inspect_llvm(self, signature=None) -> str:
        """The LLVM IR (optimised) of a specialisation."""
        return self._pick(signature).artifact.stages["llvm"]

    def inspect_asm(self, signature=None) -> str:
        """The host assembly of a specialisation."""
        spec = self._pick(signature)
        from . import plugins
        return plugins.get_target(spec.artifact.target).assembly(spec.artifact)

    def inspect_ir(self, signature=None) -> str:
        """hanajit's primitive IR of a specialisation."""
        from .ir.printer import format_module
        return format_module(self._pick(signature).module)

    def ir_module(self, signature=None):
        """The primitive IR module for a signature (a string, a tuple of types, or
        None for the first compiled one) -- what exporters and targets start from."""
        from .pipeline import compile_ir
        from .signature import parse_signature
        if signature is None:
            if not self._compiled:
                raise ValueError(f"{self.__qualname__}: call it once or pass a signature")
            key = next(iter(self._compiled))
        elif isinstance(signature, str):
            key = parse_signature(signature)[0]
        else:
            key = tuple(signature)
        module, _ = compile_ir(self.py_func, tuple(key), self.options)
        return module

    def __getattr__(self, name):
        # exporters registered by plugins: "wasm" -> f.export_wasm(...); names that
        # start with "inspect_" are registered whole: f.inspect_wasm(...)
        if name.startswith(("export_", "inspect_")):
            from . import plugins
            table = plugins.exporters()
            fn = table.get(name[len("export_"):]) if name.startswith("export_") else table.get(name)
            if fn is not None:
                return functools.partial(fn, self)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __repr__(self):
        return f"<hanajit.jit {self.__qualname__}>"
