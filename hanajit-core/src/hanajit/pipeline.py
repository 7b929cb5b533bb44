"""The compiler pipeline: Python function + argument types -> primitive IR module.

For the entry function and every jitted function or helper it reaches, the
frontend (``frontend.source.parse_function``, ``frontend.builder.build_function``)
builds Python-level IR with its globals frozen, and ``infer.infer.Inferrer`` types
it to a fixpoint.  :meth:`CompileContext.build_module` then runs :data:`PASSES` --
the passes as data, in order, each with its name, its condition (an option, the
entry function ...) and whether it runs per function or once per module; read the
table at the end of this file.

``HANAJIT_VERIFY=1`` (set by the test suite) runs the IR verifier on the typed IR and
after the passes, ``HANAJIT_VERIFY=passes`` after every pass;
``HANAJIT_DUMP=after:<name>`` prints the IR after the pass ``<name>`` (``infer``,
every name in :data:`PASSES`, ``all`` for the finished module, ``*`` for every
one).  What a pass leaves for a later one or for the caller is a declared field:
of :class:`CompileContext` (``narrow_report``) or of an IR node.

:func:`build` is the one driver from a function and its argument types to a
loaded artifact (:func:`compile_ir`, then the target's ``compile`` and ``load``),
with one error policy: every caller (the dispatcher, GPU kernels, the disk cache,
evolve, narrow, exporters through ``JitFunction.ir_module``) goes through it.
"""
from __future__ import annotations

import dataclasses
import gc
import inspect
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable

from . import plugins
from .errors import PluginError, TargetError, UnsupportedError
from .frontend.builder import build_function, freezable
from .frontend.source import parse_function
from .infer.infer import Inferrer
from .infer import function_args
from .infer.none_params import settle_none_params
from .infer.str_params import settle_str_params
from .lowering import shared
from .ir import nodes as N
from .ir.frontend_nodes import ObjRef
from .ir import types as T
from .jitted import is_jitted
from .passes.analyze_raises import analyze_raises
from .passes.lower_semantics import lower_semantics
from .passes.inline import candidate as inline_candidate
from .passes.interchange import drop_proven_checks, interchange_loops
from .passes.jam_loops import jam_loops
from .passes.mark_reductions import mark_reductions
from .passes.result_flags import return_flags, wanted as result_flags_wanted
from .passes.unbound_locals import check_unbound_locals
from .passes.version_bounds import version_bounds
from .passes.stack_check import stack_check
from .passes.rerun_safety import (clean_state_reads, draws_argument, handler_context,
                                  no_cause_rerun, no_guard_after_writes)
from .passes.writes import may_write_arrays
from .passes.rewrite import rewrite_loops, rewrite_polynomials
from .lib.parallel.regions import SerialLoop
from .target import Capabilities


@dataclass
class Spec:
    """One specialisation: a Python function at argument types."""

    key: tuple
    pyfunc: object
    symbol: str
    fn: N.Function | None = None
    return_type: T.Type | None = None
    state: str = "new"               # new | inferring | provisional | done
    inline: bool = False
    lowered: bool = False
    inline_expr: object = None       # the body's one return expression (passes/inline)


@dataclass
class CompileContext:
    """State of one compilation (entry function and everything it reaches)."""

    options: dict = field(default_factory=dict)
    specs: dict = field(default_factory=dict)
    stack: list = field(default_factory=list)
    frozen: dict = field(default_factory=dict)      # pyfunc qualname -> frozen globals
    sources: dict = field(default_factory=dict)     # pyfunc qualname -> source text
    _parsed: dict = field(default_factory=dict)
    # "hj_kernel" is the GPU targets' kernel entry (hanajit_cuda.ptx.KERNEL): a
    # function named ``kernel`` must not take it
    _symbols: set = field(default_factory=lambda: {"hj_kernel"})
    serial_loops: set = field(default_factory=set)  # (qualname, line) kept serial
    _capabilities: Capabilities | None = None
    _fingerprint: tuple | None = None
    # what passes hand back to the caller: narrow_reductions' per-loop reports
    narrow_report: list = field(default_factory=list)

    @property
    def capabilities(self) -> Capabilities:
        """What the target's code can do (``Target.capabilities``), less what an
        exporter's options take away: an exporter's module (``host_calls=False``)
        never calls into this process; hardware (``allocation=False``, the HLS
        exporter) allocates nothing."""
        if self._capabilities is None:
            caps = plugins.capabilities_of(self.options.get("target") or "cpu")
            for name in ("host_calls", "allocation"):
                if self.options.get(name) is False:
                    caps = dataclasses.replace(caps, **{name: False})
            self._capabilities = caps
        return self._capabilities

    # -------------------------------------------------------------- frontend
    def parsed(self, pyfunc):
        p = self._parsed.get(pyfunc)
        if p is None:
            p = getattr(pyfunc, "__hj_parsed__", None)     # a prange loop's body
            p = self._parsed[pyfunc] = p if p is not None else parse_function(pyfunc)
            self.sources[p.qualname] = p.source
        return p

    def symbol_for(self, pyfunc) -> str:
        # prefixed so no function can clash with a C library symbol (``def sin``)
        base = "hj_" + re.sub(r"[^A-Za-z0-9_]", "_", getattr(pyfunc, "__qualname__", "f"))
        name, i = base, 0
        while name in self._symbols:
            i += 1
            name = f"{base}_{i}"
        self._symbols.add(name)
        return name

    # ------------------------------------------------------------- inference
    @staticmethod
    def as_jit_function(obj):
        """A jitted function -- or one of hanajit's own Python-source helpers, which
        may call each other -- to compile as a callee; else None."""
        if is_jitted(obj):
            return obj
        if getattr(obj, "__hj_lambda__", False):       # an outlined local lambda
            return _Helper(obj)
        if (callable(obj) and getattr(obj, "__code__", None) is not None
                and getattr(obj, "__module__", "").startswith("hanajit.lib.")
                and obj.__module__ != "hanajit.lib.prims"):
            return _Helper(obj)
        return None

    @staticmethod
    def as_plain_callee(obj):
        """A plain Python function of the user's (not a library's: the standard
        library, an installed package) called by name, to compile as a callee
        as a jitted one is (``infer_call``); else None."""
        from .frontend.source import user_function
        return _Helper(obj) if user_function(obj) else None

    def as_function_argument(self, obj):
        """A function passed as an argument, to compile as a callee: a jitted
        function, or a plain one (compiled with the caller's options)."""
        return self.as_jit_function(obj) or _Helper(obj)

    def specialize(self, pyfunc, arg_types: tuple, inline=False) -> Spec:
        key = (pyfunc, arg_types)
        spec = self.specs.get(key)
        if spec is not None:
            if spec.state == "done":
                return spec
            if spec.state == "inferring":
                # recursion: use the current estimate; everyone above depends on it
                idx = next(i for i, s in enumerate(self.stack) if s is spec)
                for s in self.stack[idx + 1:]:
                    s.state_dirty = True
                return spec
        else:
            entry = not self.specs
            spec = Spec(key=key, pyfunc=pyfunc, symbol=self.symbol_for(pyfunc), inline=inline)
            self.specs[key] = spec
            if not entry and self._linked(spec, pyfunc, arg_types):
                return spec
        parsed = self.parsed(pyfunc)
        while True:
            fn, frozen = build_function(parsed, self.parallel_options(pyfunc), arg_types)
            self.frozen[parsed.qualname] = frozen
            fn.name = spec.symbol
            # helpers marked ``hj_compact`` (dispatch around BLAS calls) are compiled
            # without optimisation and not inlined: compile time over speed
            fn.compact = getattr(pyfunc, "hj_compact", False)
            # helpers marked ``hj_inline`` are inlined wherever they are called
            # (``alwaysinline``), like the helpers the library lowers to
            fn.inline = (inline or getattr(pyfunc, "hj_inline", False)) and not fn.compact
            # helpers marked ``hj_unchecked`` index only in range (no checks to
            # version loops around: smaller, faster code)
            fn.unchecked = getattr(pyfunc, "hj_unchecked", False)
            # helpers marked ``hj_short_loops`` have loops LLVM must neither
            # vectorise nor unroll (their accumulators vectorise instead)
            fn.short_loops = getattr(pyfunc, "hj_short_loops", False)
            # helpers marked ``hj_shallow`` recurse to a depth their arguments
            # bound (log2 of a length): no stack check (passes/stack_check)
            fn.shallow = getattr(pyfunc, "hj_shallow", False)
            fn.origin = (pyfunc, arg_types)
            if len(arg_types) != len(fn.params):
                raise UnsupportedError(f"{parsed.qualname}: called with {len(arg_types)} "
                                       f"arguments, takes {len(fn.params)}",
                                       func=parsed.qualname, construct="call")
            spec.state = "inferring"
            spec.state_dirty = False
            # (the entry's result is boxed per call: infer/result_flags)
            fn.entry = next(iter(self.specs.values())) is spec
            self.stack.append(spec)
            try:
                settle_str_params(fn, arg_types, _failer(fn))   # str constants fold
                settle_none_params(fn, arg_types)       # ``if y is None: y = ...``
                Inferrer(self, fn, arg_types).run(key=spec)
                break
            except SerialLoop as exc:
                if exc.owner is not pyfunc:
                    raise
                self.serial_loop(parsed, exc)
            finally:
                self.stack.pop()
        _dump("infer", fn)
        spec.fn = fn
        spec.inline_expr = inline_candidate(fn) if self.options.get(
            "inline", "auto") != "never" and not inline else None
        spec.return_type = fn.return_type
        spec.state = "provisional" if spec.state_dirty else "done"
        if spec.state == "done" and _unresolved_return(fn):
            # every return waits on a call of itself (``return f(n + 1) + 1``, no
            # base case): CPython's RecursionError whatever the arguments
            raise UnsupportedError(f"{parsed.qualname}: unsupported recursion: every return "
                                   "of the function calls itself (it never returns a value)",
                                   func=parsed.qualname, construct="recursion")
        return spec

    @property
    def fingerprint(self) -> tuple | None:
        """What besides a function and its argument types decides its compiled
        code: the options, the capabilities and the target's code-generation
        environment (``Target.cache_env``); None unless the target links code
        compiled apart (``Capabilities.links_code``: ``lowering/shared.py``)."""
        if self._fingerprint is None and self.capabilities.links_code:
            target = plugins.get_target(self.options.get("target") or "cpu")
            self._fingerprint = (repr(sorted(self.options.items(), key=str)),
                                 self.capabilities.key(), repr(target.cache_env()))
        return self._fingerprint

    def _linked(self, spec: Spec, pyfunc, arg_types: tuple) -> bool:
        """Give ``spec`` the external function of a piece the target linked for
        an earlier compilation (``lowering/shared.py``), if there is one."""
        if not self.capabilities.links_code:
            return False
        target = plugins.get_target(self.options.get("target") or "cpu")
        fn = shared.external(pyfunc, arg_types, self.fingerprint, spec.symbol,
                             store=target.linked_pieces())
        if fn is None:
            return False
        spec.fn, spec.return_type, spec.state = fn, fn.return_type, "done"
        return True

    def parallel_options(self, pyfunc) -> dict:
        """How the frontend treats ``prange`` and (for the function being compiled,
        with ``parallel=True``) outermost ``range`` loops."""
        opts = self.options
        # (a dict's helpers keep state in every loop: never parallel on their own)
        helper = getattr(pyfunc, "__module__", "") == "hanajit.lib.python.dict_algorithms"
        return {"auto": bool(opts.get("parallel")) and not self.stack and not helper,
                "fallback": opts.get("fallback", True), "workers": opts.get("workers"),
                "serial": self.serial_loops}

    def serial_loop(self, parsed, exc):
        import warnings
        from .errors import HanaJitParallelWarning
        msg = (f"{parsed.qualname} ({parsed.filename}:{exc.line}): the loop at line "
               f"{exc.line} cannot run in parallel: {exc.message}")
        if not self.options.get("fallback", True):
            raise UnsupportedError(msg, func=parsed.qualname, line=exc.line,
                                   construct="prange")
        warnings.warn(HanaJitParallelWarning(msg + "; it runs serially"), stacklevel=2)
        self.serial_loops.add((parsed.qualname, exc.line))

    def update_estimate(self, spec, t):
        spec.return_type = t

    def infer_call(self, inf, call, jf, argtypes, kwtypes, line):
        pyfunc = jf.py_func
        if not getattr(call, "bound", False):    # inference revisits calls
            call.args, call.kwargs = bind_arguments(pyfunc, call, inf, line), {}
            call.bound = True
        args = call.args
        # a str constant (a literal, a folded str argument) is the callee's StrArg
        argtypes = tuple(_str_arg(a) or inf.expr(a, line) for a in args)
        if any(t is None for t in argtypes):
            return None
        # a NumPy scalar of a type a Python number also has (an np.float64 array
        # element, an np.bool_) is strong in the callee too (NEP 50: ``v * w`` of
        # an np.float64 and an np.float32 is float64): the callee compiles apart
        argtypes = tuple(T.NumpyScalarArg(t) if t in T.PYTHON_KINDS and inf.is_strong(a)
                         else t for a, t in zip(args, argtypes))
        spec = self.specialize(pyfunc, argtypes)
        call.spec = spec
        if spec.fn is not None and spec.fn.returns_list:
            what = "a str built at run time" if getattr(spec.fn, "returns_str", False) \
                else "np.split's list of parts" if getattr(spec.fn, "returns_split", False) \
                else "a dict" if getattr(spec.fn, "dict_returns", None) \
                else "a list comprehension"     # (frontend/split_lists.py)
            kind = "str" if getattr(spec.fn, "returns_str", False) else "list or dict"
            inf.fail(line, "call", f"{pyfunc.__qualname__}() returns {what}, which "
                     f"compiled code has no {kind} type for")
        if spec.fn is not None and T.holds_set(spec.return_type):
            inf.fail(line, "call", f"{pyfunc.__qualname__}() returns a set, which "
                     "compiled code has no set type for")
        return spec.return_type

    def helper(self, pyfunc, arg_types: tuple):
        """Specialise one of hanajit's own Python-source helpers (inlined)."""
        spec = self.specialize(pyfunc, arg_types, inline=True)
        return spec.symbol, spec.return_type

    # -------------------------------------------------------------- lowering
    def build_module(self, entry: Spec) -> N.Module:
        """Run :data:`PASSES` over every function the entry reaches, then over the
        module: per-function passes in order for each function, module passes once."""
        module = N.Module(entry=entry.symbol, fingerprint=self.fingerprint)
        while True:
            todo = [s for s in self.specs.values() if s.fn is not None and not s.lowered]
            if not todo:
                break
            for spec in todo:
                spec.lowered = True
                fn = spec.fn
                if fn.external is not None:      # compiled apart: a signature only
                    module.functions[fn.name] = fn
                    continue
                fn.pure = True
                fn.writes_arrays = may_write_arrays(fn)     # (cwrapper: deopt)
                no_cause_rerun(fn, fn.writes_arrays or getattr(entry.fn, "writes_arrays",
                                                                 True)
                               or draws_argument(entry.fn))
                no_guard_after_writes(fn, fn is entry.fn,
                                       getattr(entry.fn, "writes_arrays", True))
                clean_state_reads(fn, fn is entry.fn)
                _verify(fn)               # the typed Python-level IR
                for p in passes():
                    if p.scope == "function" and p.when(self, spec, entry):
                        # a pass that says it changed nothing (False) is not
                        # verified again: the body is the one verified before it
                        if p.run(fn, self) is not False:
                            _verify(fn, p.name)
                        _dump(p.name, fn)
                _verify(fn, None)         # the function as its passes leave it
                module.functions[fn.name] = fn
        rewrote = False
        # (one call graph for the module passes, N.kept_graph, until one rewrites)
        module.__dict__["kept_graph"] = N.LazyGraph(module)
        for p in passes():
            if p.scope == "module" and p.when(self, None, entry):
                # (a pass that says it changed nothing -- False -- rewrote no body)
                rewrites = p.run(module, self) is not False and p.rewrites
                rewrote = rewrote or rewrites
                if rewrites:
                    module.__dict__["kept_graph"] = N.LazyGraph(module)
                # bodies again after a pass that rewrites them (each was verified
                # after its last function pass); the calls after every pass
                _verify_module(module, bodies=rewrites, after=p.name)
                _dump(p.name, module)
        del module.__dict__["kept_graph"]
        _verify_module(module, bodies=rewrote, after=None)
        # per-loop hints for the lowering (hanajit.evolve; ModuleLowering.loop_metadata)
        module.strategy = self.options.get("strategy")
        _dump("all", module)
        return module


def _draws(module: N.Module) -> bool:
    """True when some function draws random numbers (``RandomBits``) or touches
    a global random state (``HostArray``: NumPy's ``RandomState``, Python's
    ``random`` generators)."""
    return any(shared.draws(fn) for fn in module.functions.values())


def _prune(module: N.Module):
    """Drop functions the entry no longer reaches (helpers inlined everywhere)."""
    seen = set(N.reach(module, module.entry, graph=N.kept_graph(module)))
    for name in list(module.functions):
        if name not in seen:
            del module.functions[name]


class _Helper:
    """Adapter giving a plain helper function the ``py_func`` of a JitFunction."""

    def __init__(self, fn):
        self.py_func = fn


def bind_arguments(pyfunc, call: N.PyCall, inf, line) -> list:
    """Positional argument expressions for a call of a jitted function, with
    keywords and defaults resolved at compile time."""
    sig = inspect.signature(pyfunc)
    params = list(sig.parameters.values())
    args = list(call.args)
    kwargs = dict(call.kwargs)
    out = []
    for i, p in enumerate(params):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            inf.fail(line, "call", "*args/**kwargs parameters")
        if i < len(args) and p.kind != p.KEYWORD_ONLY:
            if p.name in kwargs:
                inf.fail(line, "call", f"multiple values for argument '{p.name}'")
            out.append(args[i])
        elif p.name in kwargs and p.kind != p.POSITIONAL_ONLY:
            out.append(kwargs.pop(p.name))
        elif p.default is not p.empty:
            if type(p.default) is str:            # (a str argument: infer/str_params)
                out.append(ObjRef(p.default, repr(p.default)))
                continue
            if not freezable(p.default):
                inf.fail(line, "call", f"default value of '{p.name}' is not a number")
            out.append(N.Const(p.default))
        else:
            inf.fail(line, "call", f"missing argument '{p.name}' of "
                     f"{getattr(pyfunc, '__qualname__', pyfunc)}")
    if len(args) > len([p for p in params if p.kind != p.KEYWORD_ONLY]) or kwargs:
        inf.fail(line, "call", f"too many arguments for "
                 f"{getattr(pyfunc, '__qualname__', pyfunc)}")
    return out


def _str_arg(a):
    """The StrArg a str constant argument passes (typed so), or None."""
    v = a.obj if isinstance(a, ObjRef) else a.value if isinstance(a, N.Const) else None
    if type(v) is not str:
        return None
    a.type = T.StrArg(v)
    return a.type


def _failer(fn):
    """``fail(line, construct, detail)`` raising the UnsupportedError inference would."""
    def fail(line, construct, detail=""):
        raise UnsupportedError(f"{fn.pyname} ({fn.filename}:{line}): unsupported "
                               f"{construct}: {detail}", func=fn.pyname, line=line,
                               construct=construct)
    return fail


def compile_ir(pyfunc, arg_types: tuple, options: dict | None = None):
    """Run the pipeline for ``pyfunc`` at ``arg_types``; return (module, context)."""
    ctx = CompileContext(options=dict(options or {}))
    entry = ctx.specialize(pyfunc, tuple(arg_types))
    function_args.check_result(entry.fn, entry.return_type)
    module = ctx.build_module(entry)
    return module, ctx


@dataclass
class Built:
    """What :func:`build` made: the primitive IR module and the compilation's
    context, the target's artifact (``Target.compile``) and runner
    (``Target.load``) when asked for."""

    module: N.Module
    context: CompileContext
    artifact: object = None
    runner: object = None


def build(pyfunc, arg_types: tuple, options: dict | None = None, *, target=None,
          load: bool = False, deopt=None) -> Built:
    """The one driver from a Python function and its argument types to a loaded
    artifact: :func:`compile_ir`, then ``target.compile`` (when ``target`` is
    given; ``options`` are its jit options), then ``target.load(artifact,
    deopt)`` (when ``load``).  Every caller goes through it -- the dispatcher,
    GPU kernels, the disk cache, evolve, narrow and the exporters (through
    ``JitFunction.ir_module``) -- so they share one error policy: what cannot be
    compiled is an :class:`UnsupportedError` naming the construct; a
    :class:`TargetError` (the target cannot run here) and a :class:`PluginError`
    (a misdeclared plugin) pass through; a too deep nesting and any internal error
    become an ``UnsupportedError`` (construct ``"nesting"`` / ``"internal
    error"``) with a message to report it, never a crash."""
    name = getattr(pyfunc, "__qualname__", "function")
    _pause_collector()
    try:
        module, ctx = compile_ir(pyfunc, arg_types, options)
        built = Built(module, ctx)
        if target is not None:
            built.artifact = target.compile(module, options or {})
            if load:
                built.runner = target.load(built.artifact, deopt)
        return built
    except (UnsupportedError, TargetError, PluginError):
        raise
    except RecursionError as exc:
        raise UnsupportedError(f"{name}: too deeply nested ({exc})", func=name,
                               construct="nesting") from exc
    except Exception as exc:
        import traceback
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        raise UnsupportedError(f"{name}: internal compiler error ({detail}); please "
                               "report it", func=name,
                               construct="internal error") from exc
    finally:
        _resume_collector()


# Python's cyclic garbage collector is off while a compilation runs (nested and
# concurrent ones counted; back on after the last one, when it was on before).  A
# compilation allocates a great many objects (ASTs, IR nodes, llvmlite's IR) that
# live to its end and are then freed by reference counting (the llvmlite modules
# taken apart: lowering/llvm_release.py): the collections their allocations
# triggered walked them for nothing, the full ones the whole heap (0.45 -> 0.13 s of
# collections compiling the corpus).  What is left in cycles is freed by the
# collections after it.
_collector = {"depth": 0, "was_enabled": False}
_collector_lock = threading.Lock()


def _pause_collector():
    with _collector_lock:
        if _collector["depth"] == 0:
            _collector["was_enabled"] = gc.isenabled()
            gc.disable()
        _collector["depth"] += 1


def _resume_collector():
    with _collector_lock:
        _collector["depth"] -= 1
        if _collector["depth"] == 0 and _collector["was_enabled"]:
            gc.enable()


def _verifies(after) -> bool:
    """Is the IR verified here?  ``HANAJIT_VERIFY=1`` (the test suite): the typed
    IR, each function after its passes and the module after the module passes;
    ``HANAJIT_VERIFY=passes``: after every pass too (``after``: its name), which
    names the pass that broke the IR."""
    mode = os.environ.get("HANAJIT_VERIFY")
    return bool(mode) and (after is None or mode == "passes")


def _unresolved_return(fn) -> bool:
    """Does a ``return`` of the inferred ``fn`` return a value of no type (a
    recursive call that never settled)?"""
    from .ir.walk import walk_expr
    return any(isinstance(s, N.Return) and s.value is not None and
               any(getattr(e, "type", 0) is None for e in walk_expr(s.value))
               for s in N.walk_stmts(fn.body))


def _verify(fn, after=None):
    if _verifies(after):
        from .ir.verifier import verify
        _naming(after, verify, fn)


def _verify_module(module, bodies=True, after=None):
    if _verifies(after):
        from .ir.verifier import verify_module
        _naming(after, verify_module, module, bodies=bodies)


def _naming(after, check, *args, **kwargs):
    """``check(...)``; its VerifyError says which pass ran last, or how to find out."""
    from .ir.verifier import VerifyError
    try:
        check(*args, **kwargs)
    except VerifyError as exc:
        where = f"after the pass {after}" if after else \
            "after the passes (HANAJIT_VERIFY=passes names the one)"
        raise VerifyError(f"{exc} [{where}]") from None


def _dump(stage, obj):
    want = os.environ.get("HANAJIT_DUMP", "")
    if want and (want == f"after:{stage}" or want == "after:*"):
        from .ir.printer import format_function, format_module
        text = format_module(obj) if isinstance(obj, N.Module) else format_function(obj)
        print(f"--- after {stage} ---\n{text}", file=sys.stderr)


# ---------------------------------------------------------------- the passes
@dataclass(frozen=True)
class Pass:
    """One pass: ``run(fn, ctx)`` on each function (``scope="function"``) or
    ``run(module, ctx)`` once (``"module"``), when ``when(ctx, spec, entry)`` holds
    (``spec`` is None for module passes).  A module pass that only reads bodies,
    drops functions or sets function attributes says ``rewrites=False``: under
    ``HANAJIT_VERIFY`` the bodies are not verified again after it (the calls are);
    nor after a pass whose ``run`` returns False (it changed nothing this time)."""

    name: str
    run: Callable
    when: Callable
    scope: str
    doc: str
    rewrites: bool = True


def _always(ctx, spec, entry) -> bool:
    return True


def _option(name: str) -> Callable:
    def when(ctx, spec, entry) -> bool:
        return bool(ctx.options.get(name))
    when.__qualname__ = f"option {name!r}"
    return when


def _unless_options(*names: str) -> Callable:
    def when(ctx, spec, entry) -> bool:
        return all(ctx.options.get(name) in (None, False) for name in names)
    when.__qualname__ = f"unless options {names!r}"
    return when


def _capability(name: str) -> Callable:
    def when(ctx, spec, entry) -> bool:
        return bool(getattr(ctx.capabilities, name))
    when.__qualname__ = f"capability {name!r}"
    return when


def _host_entry(ctx, spec, entry) -> bool:
    """The entry of a module whose caller can re-run a call in the interpreter."""
    return spec is entry and bool(ctx.capabilities.host_calls) \
        and not ctx.options.get("c_exports")


def _evolve_entry(ctx, spec, entry) -> bool:
    return spec is entry and ctx.options.get("strategy") is not None


def _user_fastmath(ctx, spec, entry) -> bool:
    return bool(ctx.options.get("fastmath")) and not getattr(
        spec.pyfunc, "__module__", "").startswith("hanajit.lib.")


def _set_fastmath(fn, ctx) -> None:
    from .fastmath import flags
    fn.fastmath = flags(ctx.options.get("fastmath"))


def _mark_draws(module, ctx) -> None:
    if _draws(module):
        module.functions[module.entry].pure = False


def _narrow(module, ctx) -> None:
    from .passes.narrow_reductions import narrow_reductions
    for fn in module.functions.values():
        ctx.narrow_report += narrow_reductions(fn, widths=tuple(ctx.options["narrow"]))


def _general_copies(module, ctx) -> None:
    from .passes.version_bounds import keep_general_copies
    keep_general_copies(module)


# The pipeline, in order.  Per function: Python-level IR in, primitive IR out of
# lower_semantics.  docs/architecture.md lists these names in this order (tested).
PASSES: tuple[Pass, ...] = (
    Pass("result_flags", return_flags, result_flags_wanted, "function",
         "an entry whose result is a NumPy scalar on some calls only returns the "
         "flags that say so (host targets)"),
    Pass("rewrite_polynomials", lambda fn, ctx: rewrite_polynomials(fn, ctx),
         _option("rewrite"), "function",
         "rewrite=True: polynomials in Horner form, before lowering"),
    Pass("interchange", lambda fn, ctx: interchange_loops(fn, ctx), _evolve_entry,
         "function", "f.evolve()'s compilations: the loop order and tiles of a genome, "
         "behind a bounds/overlap guard (entry only)"),
    Pass("fastmath", _set_fastmath, _user_fastmath, "function",
         "fastmath=...: the user's functions carry the flags (not hanajit's helpers)"),
    Pass("lower_semantics", lambda fn, ctx: lower_semantics(fn, ctx), _always, "function",
         "Python semantics -> primitive IR (lib/* decide each operation); small @jit "
         "helpers inlined"),
    Pass("handler_context", lambda fn, ctx: handler_context(fn), _host_entry, "function",
         "host targets, the entry only: an error raised in an except or finally clause "
         "re-runs the call in the interpreter (for its __context__) where nothing the "
         "call did before can be seen"),
    Pass("unbound_locals", lambda fn, ctx: check_unbound_locals(fn), _always, "function",
         "UnboundLocalError where a read may precede every assignment"),
    Pass("drop_proven_checks", lambda fn, ctx: drop_proven_checks(fn), _always,
         "function", "index checks an interchanged nest's guard proves"),
    Pass("rewrite_loops", lambda fn, ctx: rewrite_loops(fn, ctx), _option("rewrite"),
         "function", "rewrite=True: closed-form series, hoisting"),
    Pass("mark_reductions", lambda fn, ctx: mark_reductions(fn, ctx),
         _option("reduce_reassoc"), "function",
         "reduce_reassoc=True: sums that may be reordered"),
    Pass("version_bounds", lambda fn, ctx: version_bounds(fn), _always, "function",
         "loop nests whose index checks one test proves run a copy without them"),
    Pass("jam_loops", lambda fn, ctx: jam_loops(fn),
         _unless_options("general_copies", "strategy"), "function",
         "an outer loop whose inner loops accumulate floats runs four iterations side "
         "by side (independent chains, each in its own order); not for hardware "
         "exports (code is area) nor f.evolve()'s compilations (its genes name the "
         "loops as written)"),
    Pass("prune", lambda module, ctx: _prune(module), _always, "module",
         "drop functions the entry no longer reaches", rewrites=False),
    Pass("random_draws", _mark_draws, _always, "module",
         "an entry that draws random numbers is not pure: a call that has drawn is "
         "never re-run in the interpreter", rewrites=False),
    Pass("narrow_reductions", _narrow, _option("narrow"), "module",
         "f.narrow()'s compilations: integer reductions in 16/32-bit blocks"),
    Pass("general_copies", _general_copies, _option("general_copies"), "module",
         "exporters to hardware (HLS): one copy of each versioned loop nest"),
    Pass("stack_check", lambda module, ctx: stack_check(module), _capability("stack_check"),
         "module", "recursive functions raise RecursionError before the stack runs out"),
    Pass("analyze_raises", lambda module, ctx: analyze_raises(module), _always, "module",
         "which functions need the error-returning ABI", rewrites=False),
)


_with_plugins: dict = {}


def passes() -> tuple[Pass, ...]:
    """:data:`PASSES` with the passes plugins registered (``hanajit_register_passes``)
    each placed right after the pass it names; computed once per plugin set."""
    specs = plugins.plugin_passes()
    key = tuple(specs)
    done = _with_plugins.get(key)
    if done is not None:
        return done
    order = list(PASSES)
    for spec, owner in specs:
        at = next((i for i, p in enumerate(order) if p.name == spec.after), None)
        if at is None:
            raise PluginError(
                f"hanajit plugin {owner!r} registered pass {spec.name!r} after "
                f"{spec.after!r}, which is not a pass; the passes are "
                f"{[p.name for p in order]}")
        if any(p.name == spec.name for p in order):
            raise PluginError(f"hanajit plugin {owner!r} registered pass "
                              f"{spec.name!r}, which is the name of a built-in pass")
        order.insert(at + 1, Pass(spec.name, spec.run, spec.when or _always, spec.scope,
                                  spec.doc or f"from plugin {owner!r}"))
    _with_plugins.clear()
    _with_plugins[key] = done = tuple(order)
    return done
