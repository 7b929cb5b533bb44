"""The compiler pipeline: Python function + argument types -> primitive IR module.

In order, for the entry function and every jitted function or helper it reaches:

1. ``frontend.source.parse_function``   -- source and AST (once per function)
2. ``frontend.builder.build_function``  -- Python-level IR, globals frozen
3. ``infer.infer.Inferrer``             -- types to a fixpoint, coercions made explicit
4. ``passes.lower_semantics``           -- Python semantics -> primitive IR
   ``passes.rewrite``                   -- with rewrite=True: Horner form (before
                                           lowering), closed-form series, hoisting
   ``passes.mark_reductions``           -- with reduce_reassoc: reorderable sums
   ``passes.unbound_locals``            -- UnboundLocalError for reads some path
                                           reaches before an assignment
   ``passes.version_bounds``            -- loop nests run without the index checks
                                           one test before them proves
   ``passes.interchange``               -- with an evolve strategy (before lowering):
                                           loop interchange and tiling of the entry
5. ``passes.analyze_raises``            -- which functions need the error ABI
6. ``ir.verifier.verify``               -- between passes when HANAJIT_VERIFY=1 (tests)

The result is handed to a target's ``compile``.  ``HANAJIT_DUMP=after:<pass>``
prints the IR after a pass (``after:infer``, ``after:lower_semantics``, ``after:all``).
"""
from __future__ import annotations

import inspect
import os
import re
import sys
from dataclasses import dataclass, field

from .errors import UnsupportedError
from .frontend.builder import build_function, freezable
from .frontend.source import parse_function
from .infer.infer import Inferrer
from .ir import nodes as N
from .ir import types as T
from .passes.analyze_raises import analyze_raises
from .passes.lower_semantics import lower_semantics
from .passes.inline import candidate as inline_candidate
from .passes.interchange import drop_proven_checks, interchange_loops
from .passes.mark_reductions import mark_reductions
from .passes.unbound_locals import check_unbound_locals
from .passes.version_bounds import version_bounds
from .passes.writes import may_write_arrays
from .passes.rewrite import rewrite_loops, rewrite_polynomials
from .lib.parallel import SerialLoop


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
        from .api import JitFunction
        if isinstance(obj, JitFunction):
            return obj
        if (callable(obj) and getattr(obj, "__code__", None) is not None
                and getattr(obj, "__module__", "").startswith("hanajit.lib.")
                and obj.__module__ != "hanajit.lib.prims"):
            return _Helper(obj)
        return None

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
            spec = Spec(key=key, pyfunc=pyfunc, symbol=self.symbol_for(pyfunc), inline=inline)
            self.specs[key] = spec
        parsed = self.parsed(pyfunc)
        while True:
            fn, frozen = build_function(parsed, self.parallel_options(pyfunc))
            self.frozen[parsed.qualname] = frozen
            fn.name = spec.symbol
            # helpers marked ``hj_compact`` (dispatch around BLAS calls) are compiled
            # without optimisation and not inlined: compile time over speed
            fn.compact = getattr(pyfunc, "hj_compact", False)
            fn.inline = inline and not fn.compact
            if len(arg_types) != len(fn.params):
                raise UnsupportedError(f"{parsed.qualname}: called with {len(arg_types)} "
                                       f"arguments, takes {len(fn.params)}",
                                       func=parsed.qualname, construct="call")
            spec.state = "inferring"
            spec.state_dirty = False
            self.stack.append(spec)
            try:
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
        return spec

    def parallel_options(self, pyfunc) -> dict:
        """How the frontend treats ``prange`` and (for the function being compiled,
        with ``parallel=True``) outermost ``range`` loops."""
        opts = self.options
        return {"auto": bool(opts.get("parallel")) and not self.stack,
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
        argtypes = tuple(inf.expr(a, line) for a in args)
        if any(t is None for t in argtypes):
            return None
        spec = self.specialize(pyfunc, argtypes)
        call.spec = spec
        return spec.return_type

    def helper(self, pyfunc, arg_types: tuple):
        """Specialise one of hanajit's own Python-source helpers (inlined)."""
        spec = self.specialize(pyfunc, arg_types, inline=True)
        return spec.symbol, spec.return_type

    # -------------------------------------------------------------- lowering
    def build_module(self, entry: Spec) -> N.Module:
        from .fastmath import flags
        fast = flags(self.options.get("fastmath"))
        module = N.Module(entry=entry.symbol)
        while True:
            todo = [s for s in self.specs.values() if s.fn is not None and not s.lowered]
            if not todo:
                break
            for spec in todo:
                spec.lowered = True
                fn = spec.fn
                fn.pure = True
                fn.writes_arrays = may_write_arrays(fn)     # (cwrapper: deopt)
                _verify(fn)               # the typed Python-level IR
                rewrite = self.options.get("rewrite")
                if rewrite:
                    rewrite_polynomials(fn, self)
                if spec is entry and self.options.get("strategy") is not None:
                    interchange_loops(fn, self)     # hanajit.evolve's nest genes
                if fast and not getattr(spec.pyfunc, "__module__", "").startswith(
                        "hanajit.lib."):
                    fn.fastmath = fast      # the user's code only (fastmath.py)
                lower_semantics(fn, self)
                check_unbound_locals(fn)  # UnboundLocalError where CPython raises it
                drop_proven_checks(fn)              # (only in rewritten nests)
                if rewrite:
                    rewrite_loops(fn, self)
                if self.options.get("reduce_reassoc"):
                    mark_reductions(fn, self)
                version_bounds(fn)        # loop nests whose index checks one test proves
                _verify(fn)
                _dump("lower_semantics", fn)
                module.functions[fn.name] = fn
        _prune(module)
        if _draws(module):        # a call that has drawn cannot be re-run (cwrapper)
            module.functions[module.entry].pure = False
        analyze_raises(module)
        # per-loop hints for the lowering (hanajit.evolve; ModuleLowering.loop_metadata)
        module.strategy = self.options.get("strategy")
        _dump("all", module)
        return module


def _draws(module: N.Module) -> bool:
    """True when some function draws random numbers (``RandomBits``)."""
    return any(isinstance(sub, N.RandomBits)
               for fn in module.functions.values() for st in N.walk_stmts(fn.body)
               for e in N.stmt_exprs(st) if e is not None for sub in N.walk_expr(e))


def _prune(module: N.Module):
    """Drop functions the entry no longer reaches (helpers inlined everywhere)."""
    seen, todo = set(), [module.entry]
    while todo:
        name = todo.pop()
        if name in seen or name not in module.functions:
            continue
        seen.add(name)
        for st in N.walk_stmts(module.functions[name].body):
            for e in N.stmt_exprs(st):
                for sub in N.walk_expr(e) if e is not None else ():
                    if isinstance(sub, N.Call):
                        todo.append(sub.func)
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


def compile_ir(pyfunc, arg_types: tuple, options: dict | None = None):
    """Run the pipeline for ``pyfunc`` at ``arg_types``; return (module, context)."""
    ctx = CompileContext(options=dict(options or {}))
    entry = ctx.specialize(pyfunc, tuple(arg_types))
    module = ctx.build_module(entry)
    return module, ctx


def _verify(fn):
    if os.environ.get("HANAJIT_VERIFY"):
        from .ir.verifier import verify
        verify(fn)


def _dump(stage, obj):
    want = os.environ.get("HANAJIT_DUMP", "")
    if want and (want == f"after:{stage}" or want == "after:*"):
        from .ir.printer import format_function, format_module
        text = format_module(obj) if isinstance(obj, N.Module) else format_function(obj)
        print(f"--- after {stage} ---\n{text}", file=sys.stderr)
