"""The user API: ``@jit``, ``prange`` and the jitted-function object.

A :class:`JitFunction` keeps one specialisation per tuple of argument types.  The
first call with new types runs the pipeline and the target's codegen; code that
cannot be compiled runs in the interpreter with one
:class:`~hanajit.errors.HanaJitFallbackWarning` naming the function, the line and
the construct (or raises :class:`~hanajit.errors.UnsupportedError` with
``fallback=False``).  A fallback for one type tuple never stops other type tuples
from compiling.

On CPython with the GIL a jitted function is an instance of a heap type with a
vectorcall slot (:mod:`hanajit.dispatch.heaptype`): the target generates machine
code that checks, unboxes, calls and boxes for every compiled specialisation, and
calls the Python dispatcher (``JitFunction.__call__``) for everything else.  On
other interpreters, or with ``HANAJIT_NATIVE_DISPATCH=0``, it is a
:class:`PyJitFunction` and the Python dispatcher runs every call.  See
docs/dispatch.md.
"""
from __future__ import annotations

import ctypes
import functools
import inspect
import threading
import types
import warnings
import zlib

from .dispatch.heaptype import native_dispatch_enabled, native_type, set_vectorcall
from .dispatch.native import CallShape, Handlers, keyed_entry, reorders
from .dispatch.specialization import Specialization, accepts
from .typing_rules import argtypeof
from .ir.types import FunctionArg, StrArg, default_arg, plain
from .jitted import register_class
from .loops import prange  # noqa: F401  (re-exported: ``hanajit.prange``)
from .errors import (
    HanaJitFallbackWarning,
    HanaJitInternalWarning,
    TargetError,
    UnsupportedError,
)

_OPTION_DEFAULTS = {
    "target": "cpu", "fallback": True, "signature": None, "cache": False,
    "boundscheck": True, "fastmath": False, "parallel": False, "nogil": False,
    "reduce_reassoc": False, "rewrite": False, "gpu_arch": None, "inline": "auto",
    "workers": None,
}


def jit(func=None, **options):
    """Compile ``func`` to native code on its first call (``@jit`` or ``@jit(...)``).

    The result behaves like ``func``: calling it compiles one specialisation per
    tuple of argument types, then runs native code.  Code that cannot be compiled
    runs in the interpreter with one ``HanaJitFallbackWarning`` naming the
    function, the line and the construct.

    Options (defaults in brackets):

    * ``target`` ["cpu"]: where the code runs -- ``"cpu"``, a GPU target
      (``"cuda"``, ``"hip"``/``"amd"``, ``"levelzero"``/``"intel"``,
      ``"vulkan"``, ``"metal"``; kernels are started with ``f.launch``), an
      installed plugin's name, or ``"auto"``; ``hanajit targets`` lists them.
    * ``fallback`` [True]: False raises ``UnsupportedError`` instead of running
      in the interpreter.
    * ``signature`` [None]: ``"f64[:], i64"`` (or a list of them) compiles those
      specialisations now, not on the first call.
    * ``cache`` [False]: keep compiled code on disk across processes
      (docs/cache.md).
    * ``boundscheck`` [True]: False drops index checks (an out-of-range index is
      then undefined behaviour, as in C).
    * ``fastmath`` [False]: True or a set of LLVM fast-math flags (``{"contract",
      "reassoc", ...}``): floats may differ from CPython's.
    * ``parallel`` [False]: loops over whole arrays and ``prange`` loops run on
      threads (docs/parallel.md).
    * ``workers`` [None]: how many threads those loops use (None:
      ``get_num_threads()``; 1: serial).
    * ``nogil`` [False]: release the GIL while the native code runs.
    * ``reduce_reassoc`` [False]: sums and products in loops may be reordered to
      vectorise (results may differ in the last bits).
    * ``rewrite`` [False]: exact algebraic rewrites: Horner form, closed-form
      series, hoisting (docs/optimizers.md).
    * ``inline`` ["auto"]: small ``@jit`` helpers are inlined where called;
      ``"never"`` keeps every call.
    * ``gpu_arch`` [None]: the GPU architecture(s) to compile for (``"sm_90"``,
      ``"gfx90a"`` ...); None: the target's default or the device's.

    A target may add options of its own (``metal_float64="demote"``); docs/api.md
    lists everything a jitted function has (``inspect_*``, ``launch``,
    ``export_*`` ...).
    """
    unknown = set(options) - set(_OPTION_DEFAULTS)
    if unknown and isinstance(options.get("target"), str):
        from .plugins import target_classes
        cls = target_classes().get(options["target"])
        unknown -= set(getattr(cls, "options", {}))
    if unknown:
        raise TypeError(f"jit() got unknown option(s): {', '.join(sorted(unknown))}")
    if options.get("fastmath"):
        from .fastmath import flags
        flags(options["fastmath"])          # ValueError now for an unknown flag
    if func is None:
        return lambda f: JitFunction(f, **options)
    if isinstance(func, JitFunction):
        return func
    if not callable(func):
        raise TypeError("jit() takes a function")
    return JitFunction(func, **options)


def _regenerate_after(compiled: int, in_dispatcher: int) -> int:
    """Calls of known types through the Python dispatcher, since the last compile,
    after which the native dispatcher is generated (again).  Generating it costs
    ~9 ms plus ~6 ms per specialisation it holds, which pays off only over
    thousands of calls (each saves a few microseconds), so the first is generated
    once the function is called on (:data:`HOT_CALLS` calls with no compile
    between them: a sweep over many types, a few calls each, generates none until
    it ends); then, while there are at least twice as many specialisations as the
    dispatcher holds, sooner (the sizes double, and the total stays linear);
    otherwise again after :data:`HOT_CALLS` calls."""
    if in_dispatcher == 0:
        return HOT_CALLS
    if compiled >= 2 * in_dispatcher:
        return max(1, compiled // 4)
    return max(HOT_CALLS, compiled // 4)


HOT_CALLS = 16

# a dispatcher generated for new specialisations only passes the calls it does not
# take to the previous one (``Target.chains_dispatchers``): at most this many such
# links on a whole one (each costs a call of the older specialisations a few
# nanoseconds), then a whole one again
MAX_LINKS = 3


# distinct values of one str parameter compiled apart; new ones past it run in the
# interpreter (JitFunction._str_capped)
STR_VALUES_CAP = 32


class JitFunction:
    """A jitted Python function (what ``@jit`` returns).

    It behaves like the function: ``__name__``, ``__qualname__``, ``__doc__``,
    ``__module__`` and ``__wrapped__`` are the function's, it binds as a method,
    pickles by module and qualified name, and can be weakly referenced.  When it
    is garbage-collected, the machine code of its specialisations is freed.

    ``JitFunction(f)`` returns an instance of the native heap type or of
    :class:`PyJitFunction`; both are subclasses, so ``isinstance(x, JitFunction)``
    holds for every jitted function.  All state lives in the instance ``__dict__``.
    """

    __slots__ = ()

    def __new__(cls, py_func=None, **options):
        if cls is JitFunction:
            cls = native_type(JitFunction) if native_dispatch_enabled() else PyJitFunction
        return object.__new__(cls)

    def __init__(self, py_func, **options):
        self.py_func = py_func
        self.options = {**_OPTION_DEFAULTS, **options}
        functools.update_wrapper(self, py_func)
        self._specs: dict = {}          # arg types -> runner (or py_func on fallback)
        self._compiled: dict = {}       # arg types -> Specialization
        self._fallback_reasons: dict = {}
        self._c_exports: dict = {}      # arg types -> runner compiled with C exports
        self._lock = threading.RLock()
        try:
            self._sig = inspect.signature(py_func)
        except (TypeError, ValueError):      # pragma: no cover
            self._sig = None
        self._nparams = self._simple_arity()
        self._omitted = self._foldable_defaults()
        self._varargs = self._sig is not None and any(
            p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in self._sig.parameters.values())
        # native dispatch: entry i of the generated code is _native_entries[i]
        # (append-only, so an index stays valid in older dispatchers); every
        # dispatcher's code is kept while the function lives, since a call may
        # still be running in one that has just been replaced
        self._native_entries: list = []
        self._dispatchers: list = []
        # the current dispatcher's address, and the links generated since the last
        # whole one (a dispatcher over the newer entries only: dispatch/native.py)
        self._dispatch_address = None
        self._dispatch_links = 0
        self._dispatch_llvm = None
        self._native_stale = False
        # calls of known types through the Python dispatcher since the native one
        # went stale: it is made (again) once they reach _regenerate_after(...)
        self._stale_calls = 0
        self._shape = CallShape.from_signature(self._sig) \
            if not isinstance(self, PyJitFunction) else None
        if self.options["signature"] is not None:
            self.compile_signature(self.options["signature"])

    def _foldable_defaults(self) -> tuple:
        """(index, default object, its ``DefaultArg``) of each parameter whose
        default is a number worth folding: a call omitting it compiles apart, with
        the value as a constant (as Numba does; ``ir.types.DefaultArg``)."""
        if self._sig is None:
            return ()
        out = []
        for i, p in enumerate(self._sig.parameters.values()):
            if p.default is not p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                t = default_arg(p.default)
                if t is not None:
                    out.append((i, p.default, t))
        return tuple(out)

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
        """The Python dispatcher (the native code's slow path)."""
        if kwargs or len(args) != self._nparams:
            if self._varargs:
                return self._call_varargs(args, kwargs)
            args = self._bind(args, kwargs)
        key = tuple(map(argtypeof, args))
        if self._omitted:
            key = self._mark_defaults(key, args)
        runner = self._specs.get(key)
        if runner is None:
            runner = self._specialize(key, args)
        elif self._native_stale:
            self._stale_calls += 1
            if self._stale_calls >= _regenerate_after(len(self._compiled),
                                                      len(self._native_entries)):
                self._update_native()
        return runner(*args)

    def _mark_defaults(self, key, args) -> tuple:
        """``key`` with a ``DefaultArg`` for each argument that is its parameter's
        default object (an omitted argument, or the same object passed)."""
        key = list(key)
        for i, obj, t in self._omitted:
            if args[i] is obj and key[i] == t.base:
                key[i] = t
        return tuple(key)

    def _call_varargs(self, args, kwargs):
        """``def f(*xs)`` / ``**kw``: not compiled; runs in the interpreter, with
        one HanaJitFallbackWarning."""
        key = ("*args",)
        runner = self._specs.get(key)
        if runner is None:
            kinds = [f"*{p.name}" if p.kind == p.VAR_POSITIONAL else f"**{p.name}"
                     for p in self._sig.parameters.values()
                     if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            runner = self._fall_back(key, UnsupportedError(
                f"{self.__qualname__}: a {' and '.join(kinds)} parameter (variable "
                "arguments) is not supported", func=self.__qualname__,
                construct="variable arguments"))
        return runner(*args, **kwargs)

    def _bind(self, args, kwargs):
        if self._sig is None:
            return args
        try:
            ba = self._sig.bind(*args, **kwargs)
        except TypeError as exc:
            # CPython's own wording ("f() takes 1 positional argument but 2 were given")
            from .dispatch.binding import binding_error
            err = binding_error(self.py_func, self._sig, args, kwargs) or exc
        else:
            err = None
        if err is not None:
            raise err
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
                from .typing_rules import unsupported_reason
                return self._fall_back(key, UnsupportedError(
                    f"{self.__qualname__}: argument {bad + 1}: "
                    f"{unsupported_reason(args[bad])}", func=self.__qualname__,
                    construct=f"argument of type {type(args[bad]).__name__}"))
            if self._str_capped(key):
                return self.py_func
            for known, spec in self._compiled.items():
                # e.g. an eager "f64[:]" takes C arrays; a GPU kernel (no runner)
                # called directly goes on to _compile, which falls back
                if spec.runner is not None and accepts(
                        known, key, self.options["signature"] is not None):
                    self._specs[key] = spec.runner
                    return spec.runner
            try:
                spec = self._compile(key)
            except UnsupportedError as exc:
                return self._fall_back(key, exc)
            except TargetError as exc:
                return self._fall_back(key, UnsupportedError(str(exc), func=self.__qualname__,
                                                             construct="target"))
            self._compiled[key] = spec
            self._specs[key] = spec.runner
            # the dispatcher is generated on a later call through the Python
            # dispatcher (a function called once never pays for it; see
            # _stale_calls: counted again from each compile, so a sweep over
            # types pays for it once, when the calls settle), or now when
            # compiling eagerly
            self._native_stale = self._shape is not None
            self._stale_calls = 0
            if not args:
                self._update_native()
            return spec.runner

    def _str_capped(self, key) -> bool:
        """A str argument is a compile-time constant (``ir.types.StrArg``): one
        specialisation per value, up to :data:`STR_VALUES_CAP` values per parameter;
        past that, calls with a new value run in the interpreter (one warning per
        parameter), so a loop over text does not compile once per string."""
        d = self.__dict__
        seen = d.get("_str_values")
        if seen is None:
            if not any(isinstance(t, StrArg) for t in key):
                return False
            seen = d["_str_values"] = {}
        capped = False
        for k, t in enumerate(key):
            if not isinstance(t, StrArg):
                continue
            values = seen.setdefault(k, set())
            if t.value in values:
                continue
            if len(values) >= STR_VALUES_CAP:
                capped = True
                if k not in d.setdefault("_str_warned", set()):
                    d["_str_warned"].add(k)
                    warnings.warn(HanaJitFallbackWarning(
                        f"hanajit: {self.__qualname__} runs in the interpreter for new "
                        f"values of argument {k + 1}: it was passed {STR_VALUES_CAP} "
                        "different strings, each compiled apart (a str argument is a "
                        "compile-time constant)"), stacklevel=4)
            else:
                values.add(t.value)
        return capped

    def _update_native(self):
        """Regenerate the vectorcall dispatcher over every compiled specialisation
        and swap it in."""
        with self._lock:
            if self._native_stale:
                self._native_stale = False
                self._stale_calls = 0
                self._swap_dispatcher()

    def _swap_dispatcher(self):
        from . import plugins
        target = plugins.get_target(self.options["target"])
        # a NumPy-scalar specialisation (np.float64 where a float would do) is
        # checked by its key, which tells np.float64 from float; one specialised
        # on a function argument (its identity) is found through the Python dispatcher
        entries = [None if any(isinstance(t, FunctionArg) for t in key)
                   else keyed_entry(getattr(spec.runner, "native", None), key)
                   for key, spec in self._compiled.items()]
        old = len(self._native_entries)
        chains = target.chains_dispatchers and not any(
            reorders(key, i >= old) for i, key in enumerate(self._compiled))
        link = (chains and self._dispatch_address is not None
                and self._dispatch_links < MAX_LINKS and old < len(entries)
                and entries[:old] == self._native_entries)
        try:
            if link:
                made = target.native_dispatcher(self._shape, [None] * old + entries[old:],
                                                _HANDLERS, previous=self._dispatch_address)
            else:
                made = target.native_dispatcher(self._shape, entries, _HANDLERS)
        except Exception as exc:          # keep the Python dispatcher: still correct
            warnings.warn(HanaJitInternalWarning(
                f"hanajit: {self.__qualname__}: native dispatch unavailable: "
                f"{type(exc).__name__}: {exc}"), stacklevel=2)
            return
        if made is None:
            return
        address, keepalive, llvm_ir = made
        self._native_entries = entries
        self._dispatch_address = address
        self._dispatch_links = self._dispatch_links + 1 if link else 0
        self._dispatchers.append((keepalive, self._shape.objects()))
        # (inspection only) the chain's dispatchers, the newest first
        if link and self._dispatch_llvm is not None:
            llvm_ir += "\n" + zlib.decompress(self._dispatch_llvm).decode()
        self._dispatch_llvm = zlib.compress(llvm_ir.encode(), 1)
        set_vectorcall(self, address)

    def _fall_back(self, key, exc: UnsupportedError):
        if not self.options["fallback"]:
            raise exc
        self._fallback_reasons[key] = str(exc)
        warnings.warn(HanaJitFallbackWarning(
            f"hanajit: {self.__qualname__} runs in the interpreter: {exc}"), stacklevel=4)
        runner = self.py_func
        if exc.construct == "gpu target":     # a kernel body run as one thread
            from .gpu import run_single_thread
            runner = functools.partial(run_single_thread, self.py_func)
        self._specs[key] = runner
        return runner

    def _compile(self, key) -> Specialization:
        target = self._target()
        if target.kind != "host":
            raise UnsupportedError(f"{self.__qualname__}: target {target.name!r} runs "
                                   "through launch(); calling it directly uses the "
                                   "interpreter", func=self.__qualname__,
                                   construct=f"{target.kind} target")
        entry = None
        if self.options["cache"] and not any(isinstance(t, FunctionArg) for t in key):
            # (the disk cache; not for a function argument, known by identity)
            from .cache import open_entry
            entry = open_entry(self, key, target)
            spec = entry.load(self.py_func) if entry is not None else None
            if spec is not None:
                return spec
        from .pipeline import build      # (a warm cache start never loads it)
        built = build(self.py_func, key, self.options, target=target, load=True,
                      deopt=self.py_func)
        if entry is not None:
            entry.store(built.artifact)
        py_func, options = self.py_func, self.options
        linked = tuple(name for name, fn in built.module.functions.items()
                       if fn.external is not None)
        return Specialization(key, None, built.artifact, built.runner, linked=linked,
                              rebuild=lambda: build(py_func, key, options).module)

    def compile_signature(self, signature):
        """Compile eagerly for a signature string such as ``"i64, f64"``."""
        from .signature import parse_signature
        if self._target().kind == "gpu":
            for key in parse_signature(signature, pointers=True):
                self._eager_kernel(tuple(key))
            return
        from .frontend.source import compiling_eagerly
        for key in parse_signature(signature):
            with compiling_eagerly(self.py_func, self):
                runner = self._specialize(tuple(key), ())
            if runner is self.py_func and not self.options["fallback"]:
                raise UnsupportedError(self._fallback_reasons.get(tuple(key), ""))

    # ------------------------------------------------------------- GPU targets
    def _target(self):
        """The target instance; ``target="auto"`` is decided here, once, by
        ``plugins.select_target`` (``HANAJIT_TARGET`` or the plugins' hook)."""
        from . import plugins
        if self.options["target"] == "auto":
            self.options["target"] = plugins.select_target(self.py_func)
        target = plugins.get_target(self.options["target"])
        self.options["target"] = target.name      # an alias becomes the name
        return target

    def _gpu_target(self):
        target = self._target()
        if target.kind != "gpu":
            raise TypeError(f"{self.__qualname__} is compiled for target {target.name!r}; "
                            "launch() needs a GPU target such as @jit(target=\"cuda\")")
        return target

    def _eager_kernel(self, key):
        try:
            self._kernel(key)
        except UnsupportedError as exc:
            if not self.options["fallback"]:
                raise
            warnings.warn(HanaJitFallbackWarning(
                f"hanajit: {self.__qualname__} cannot be compiled for "
                f"{self.options['target']!r}: {exc}; launch() raises, a direct call runs "
                "the interpreter"), stacklevel=4)

    def _kernel(self, key) -> Specialization:
        """The GPU kernel specialisation for argument types ``key`` (compiled on
        first use; an any-layout array specialisation serves contiguous arrays)."""
        spec = self._compiled.get(key)
        if spec is not None:
            return spec
        with self._lock:
            for known, spec in self._compiled.items():
                if accepts(known, key):
                    return spec
            from .pipeline import build
            built = build(self.py_func, key, self.options, target=self._gpu_target())
            module, artifact = built.module, built.artifact
            spec = Specialization(key, module, artifact, None)
            self._compiled[key] = spec
            return spec

    def launch(self, *args, grid=None, block=None, stream=None, sync=True):
        """Run the kernel on the device over ``grid`` blocks of ``block`` threads
        (ints or tuples of up to 3).  NumPy arrays are copied to the device and back;
        device arrays (``to_device``, any ``__cuda_array_interface__`` object) are
        used in place.  ``sync=False`` queues the launch (``synchronize()`` waits)."""
        d = self.__dict__
        target = d.get("_launch_target")
        if target is None:
            target = d["_launch_target"] = self._gpu_target()
            d["_kernels"] = {}               # argument types -> Specialization
            # a GPU target types its own device arrays (Target.typeof)
            d["_launch_typeof"] = target.typeof
        if len(args) != self._nparams:
            args = self._bind(args, {})
        key = tuple(map(d["_launch_typeof"], args))
        spec = d["_kernels"].get(key)
        if spec is None:
            if any(t is None for t in key):
                bad = next(i for i, t in enumerate(key) if t is None)
                from .typing_rules import unsupported_reason
                raise TypeError(f"{self.__qualname__}.launch(): argument {bad + 1}: "
                                f"{unsupported_reason(args[bad])}")
            spec = d["_kernels"][key] = self._kernel(key)
        return target.launch(spec.artifact, args, grid=grid, block=block, stream=stream,
                             sync=sync)

    def to_device(self, array, stream=None):
        """Copy a NumPy array to the device of this function's GPU target."""
        return self._gpu_target().to_device(array, stream=stream)

    def synchronize(self):
        """Wait for every queued launch and copy of this function's GPU target."""
        self._gpu_target().synchronize()

    def inspect_gpu(self, signature=None) -> str:
        """The device assembly (PTX for cuda) of a kernel specialisation."""
        if isinstance(signature, str):
            from .signature import parse_signature
            signature = parse_signature(signature, pointers=True)[0]
        return self._gpu_target().assembly(self._pick(signature).artifact)

    # ------------------------------------------------------- native entry points
    def specialize(self, *types):
        """The native entry of the specialisation for ``types`` (compiled if needed):
        a :class:`~hanajit.dispatch.cfunc.CFunction` with ``.address`` (a plain C
        function ``ret f(args...)``), ``.ctypes``, ``.entry_address`` and
        ``.scipy_callable()``.  Types are IR types, names (``"f64"``) or ``int``,
        ``float``, ``bool``, ``complex``."""
        from .dispatch.cfunc import CFunction, c_representable
        key = _type_key(types)
        runner = self._specialize(key, ())
        if runner is self.py_func:
            raise UnsupportedError(f"{self.__qualname__}{_fmt(key)} runs in the "
                                   f"interpreter: {self._fallback_reasons.get(key, '')}",
                                   func=self.__qualname__, construct="specialize")
        entry = getattr(runner, "native", None)
        if entry is None:
            raise TypeError(f"target {self.options['target']!r} gives no native entry")
        if entry.cfunc_address is None and c_representable(entry.arg_types,
                                                           entry.return_type):
            entry = self._c_export_entry(key, entry)
        return CFunction(self.__qualname__, entry, keepalive=self)

    def _c_export_entry(self, key, entry):
        """The native entry of ``key`` compiled again with its plain C exports
        (``ret f(args...)``).  A call from Python never uses them, so specialisations
        are compiled without (two fewer functions through LLVM halve the compile of
        a scalar function); this second compile is kept with the function and, with
        ``cache=True``, replaces the disk entry, so a later process has both."""
        with self._lock:
            runner = self._c_exports.get(key)
            if runner is None:
                from .pipeline import build
                target = self._target()
                built = build(self.py_func, key, {**self.options, "c_exports": True},
                              target=target, load=True, deopt=self.py_func)
                if self.options["cache"]:
                    from .cache import open_entry
                    cached = open_entry(self, key, target)
                    if cached is not None:
                        cached.store(built.artifact)
                runner = self._c_exports[key] = built.runner
        return getattr(runner, "native", None) or entry

    def _only_cfunction(self):
        if len(self._compiled) != 1:
            raise ValueError(f"{self.__qualname__} has {len(self._compiled)} "
                             "specialisations; use f.specialize(*types).address")
        return self.specialize(*next(iter(self._compiled)))

    @property
    def address(self) -> int:
        """The C function pointer of the only specialisation (see ``specialize``)."""
        return self._only_cfunction().address

    @property
    def ctypes(self):
        """The ctypes function pointer of the only specialisation."""
        return self._only_cfunction().ctypes

    def scipy_callable(self, *types):
        """A ``scipy.LowLevelCallable`` for ``scipy.integrate.quad`` and friends:
        ``double (double)`` for one argument, ``double (int, double *)`` for more
        (``quad(f, a, b, args=(...))``).  Without ``types``, every parameter is
        float64."""
        from .ir import types as T
        if not types:
            n = len(self._sig.parameters) if self._sig is not None else 1
            types = (T.FLOAT64,) * n
        return self.specialize(*types).scipy_callable()

    def evolve(self, *args, generations=8, population=8, seed=0, progress=True):
        """Search compilation strategies (unroll, interleave, vector width, parallel)
        for the specialisation matching ``args``; install the winner only when its
        results are bit-identical and it is faster beyond the measured noise.
        Returns an :class:`~hanajit.evolve.EvolveReport` (docs/optimizers.md)."""
        from .evolve import evolve
        return evolve(self, *args, generations=generations, population=population,
                      seed=seed, progress=progress)

    def evolve_hyper(self, *args, confirmed=False, generations=8, population=8, seed=0,
                     progress=True, rtol=1e-6, atol=1e-9, checks=32):
        """``evolve`` plus transforms that change floating-point rounding
        (reassociation, reciprocals: ``arcp``, approximate functions: ``afn``):
        the winner may round differently, within ``rtol``/``atol`` on ``checks``
        random argument sets.  Never cached; needs ``confirmed=True``."""
        if confirmed is not True:
            raise ValueError(f"{self.__qualname__}.evolve_hyper() may change "
                             "floating-point results (reassociation, reciprocals, "
                             "approximate functions); pass "
                             "confirmed=True to allow it, or use evolve()")
        from .evolve import evolve
        return evolve(self, *args, generations=generations, population=population,
                      seed=seed, progress=progress, hyper=True, rtol=rtol, atol=atol,
                      checks=checks)

    def narrow(self, *args, confirmed=False, **kwargs):
        """Call the function on ``args`` with its integer reductions over
        int8/int16/int32 elements added in 16- or 32-bit blocks, widened into the
        accumulator (exact: the ordinary compiled result, bit for bit).  Bodies it
        cannot narrow run the ordinary compiled code with a
        :class:`~hanajit.errors.HanaJitNarrowWarning`.  Needs ``confirmed=True``
        (docs/narrow.md)."""
        shadow = self.__dict__.get("_narrow_fn")     # the narrow specialisations
        if shadow is None or confirmed is not True:
            from .narrow import narrow_function
            shadow = narrow_function(self, confirmed)
        return shadow(*args, **kwargs)

    def inspect_dispatch(self) -> str | None:
        """The LLVM IR of the current native dispatcher (None while there is none)."""
        text = self._dispatch_llvm
        return None if text is None else zlib.decompress(text).decode()

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
        spec = self._compiled.get(key)
        if spec is None:        # a signature's types name a folded default's type
            spec = next((s for k, s in self._compiled.items()
                         if tuple(map(plain, k)) == key), None)
        if spec is None:
            raise KeyError(key)
        return spec

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

    def ir_module(self, signature=None, **options):
        """The primitive IR module for a signature (a string, a tuple of types, or
        None for the first compiled one) -- what exporters and targets start from.
        ``options`` add pipeline options (``general_copies=True`` for hardware)."""
        from .pipeline import build
        from .signature import parse_signature
        if signature is None:
            if not self._compiled:
                raise ValueError(f"{self.__qualname__}: call it once or pass a signature")
            key = next(iter(self._compiled))
        elif isinstance(signature, str):
            key = parse_signature(signature)[0]
        else:
            key = tuple(signature)
        if any(isinstance(t, StrArg) for t in key):
            from .errors import UnsupportedError
            raise UnsupportedError(f"{self.__qualname__}: a str parameter is a "
                                   "compile-time constant of calls from Python; exported "
                                   "code (executables, wasm, hardware) has no str "
                                   "parameters", func=self.__qualname__,
                                   construct="str parameter")
        # exporters run the code outside this process: no calls of NumPy's BLAS
        module = build(self.py_func, tuple(key),
                       dict(self.options, host_calls=False, **options)).module
        if module.functions[module.entry].returns_list:
            from .errors import UnsupportedError
            raise UnsupportedError(f"{self.__qualname__} returns a list (a list "
                                   "comprehension or np.split's parts): only a Python "
                                   "caller receives it as a list")
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
        return types.MethodType(self, obj)

    def __reduce__(self):
        # pickled by reference, like a function: unpickling looks the module-level
        # jitted object up by module and qualified name (and it compiles there)
        return self.__qualname__

    def __repr__(self):
        return f"<hanajit.jit {self.__qualname__}>"


class PyJitFunction(JitFunction):
    """A jitted function that dispatches in Python (PyPy, free-threaded CPython,
    ``HANAJIT_NATIVE_DISPATCH=0``); it gets ``__dict__`` and ``__weakref__``."""


register_class(JitFunction)


def _native_raised(self, index, err_address, *params):
    """Called by generated code when specialisation ``index`` raised."""
    entry = self._native_entries[index]
    return entry.on_error((ctypes.c_int64 * 4).from_address(err_address), params)


# what the generated dispatchers call (module-level: the code embeds their address)
_HANDLERS = Handlers(slow=JitFunction.__call__, raised=_native_raised)


def _type_key(types_) -> tuple:
    from .ir import types as T
    from .signature import parse_signature, parse_type
    if len(types_) == 1 and isinstance(types_[0], str) and "," in types_[0]:
        return tuple(parse_signature(types_[0])[0])
    py = {int: T.INT64, float: T.FLOAT64, bool: T.BOOL, complex: T.COMPLEX128}
    out = []
    for t in types_:
        if isinstance(t, T.Type):
            out.append(t)
        elif isinstance(t, str):
            out.append(parse_type(t))
        elif t in py:
            out.append(py[t])
        else:
            raise TypeError(f"specialize: not a type: {t!r}")
    return tuple(out)


def _fmt(key) -> str:
    return "(" + ", ".join(map(str, key)) + ")"
