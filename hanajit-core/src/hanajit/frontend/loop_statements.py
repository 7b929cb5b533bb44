"""The loop statements of :class:`~.builder.Builder` (a mixin): ``while``,
``for`` over ``range``/``prange`` (a parallel region when it can be one), over
arrays, tuples, ``enumerate``, ``zip``, ``reversed``, ``sorted``, ``a.flat`` and
``np.ndindex`` (a range loop over positions), and their ``else`` clauses.
"""
from __future__ import annotations

import ast
import builtins

from ..errors import UnsupportedError
from ..ir import nodes as N
from ..lib import registry
from ..loops import prange
from . import comprehension_lists, generator_inlining, reversed_iter, sorted_lists


def is_flat(node) -> bool:
    """Is ``node`` the attribute ``<expr>.flat`` (handled by ``lib.attributes``)?"""
    return isinstance(node, ast.Attribute) and node.attr == "flat"


def parallel_names() -> dict:
    """The parallel runtime's helpers a region's outlined code calls, by the
    names ``parallel.outline`` gives them (``__hj_prange_len`` ...)."""
    pp = registry.parallel_runtime()
    names = {f"__hj_{n}": getattr(pp, n) for n in (
        "prange_len", "overlap", "num_chunks", "partials", "ident_add", "ident_mul",
        "ident_min", "ident_max", "chunk_lo", "array_partials_add",
        "array_partials_mul", "stream_words", "chunk_stream", "stream_close")}
    names["__hj_min"], names["__hj_max"] = builtins.min, builtins.max
    return names


class LoopStatements:
    """Loops for :class:`~.builder.Builder` (``self.expr``, ``self.stmts``,
    ``self.assign_to``, ``self.tmp``, ``self.fail`` and its state are Builder's)."""

    def _loop_else(self, orelse):
        """Push a loop; return the flag name used for ``else`` (or None)."""
        flag = None
        if orelse:
            flag = self.tmp("broke")
            self.locals.add(flag)
        self.loop_flags.append(flag)
        return flag

    def s_While(self, s):
        flag = self._loop_else(s.orelse)
        cond = self.cond(s.test)
        self.loop_depth += 1
        body = self.stmts(s.body)
        self.loop_depth -= 1
        self.loop_flags.pop()
        return self._with_else(flag, N.PyWhile(cond=cond, body=body), s.orelse)

    def _with_else(self, flag, loop, orelse):
        if flag is None:
            return [loop]
        if not any(isinstance(x, N.Assign) and x.target == flag
                   for x in N.walk_stmts([loop])):
            # no ``break`` leaves the loop: its ``else`` always runs (so a
            # ``for ... else`` whose every path returns does not fall through)
            return [loop] + self.stmts(orelse)
        out = [N.Assign(target=flag, value=N.Const(False)), loop]
        out.append(N.If(cond=N.PyUnOp("not", N.Var(flag)), then=self.stmts(orelse)))
        return out

    def s_For(self, s):
        it = s.iter
        if isinstance(it, ast.Call) and (out := generator_inlining.at_loop(self, s)) is not None:
            return out          # for x in g(...) of a generator function (a comprehension's)
        if isinstance(it, ast.Call) and isinstance(it.func, (ast.Name, ast.Attribute)):
            callee = self.expr(it.func)
            obj = getattr(callee, "obj", None)
            if obj is range or obj is prange:
                region = self.parallel_loop(s, it, explicit=obj is prange)
                if region is not None:
                    return region
                self.loop_depth += 1
                try:
                    return self.for_range(s, it)
                finally:
                    self.loop_depth -= 1
        self.loop_depth += 1
        try:
            return self.for_indexed(s, it)
        finally:
            self.loop_depth -= 1

    def parallel_loop(self, s, it, explicit):
        """A prange loop (or, with parallel=True, an outermost range loop) as a
        parallel region; None to build it as a serial loop."""
        import warnings
        from ..errors import HanaJitParallelWarning
        from . import parallel as par
        opts = self.parallel
        if not explicit and not (opts.get("auto") and self.loop_depth == 0):
            return None
        if it.keywords or not 1 <= len(it.args) <= 3 or not isinstance(s.target, ast.Name) \
                or s.orelse:
            problems = [(s.lineno, "the loop needs a plain name, 1 to 3 range "
                         "arguments and no else clause")]
        elif (self.qualname, s.lineno) in opts.get("serial", ()):
            return None        # refused once types were known (warned then)
        else:
            def lookup(name):
                if name in self.locals:
                    return None
                return self.p.closure.get(name, self.p.globals.get(
                    name, getattr(builtins, name, None)))
            plan = par.analyze(s, self.locals, lookup, par.path_after(self.fnode, s))
            problems = plan.problems
        if problems:
            line, why = problems[0]
            msg = (f"{self.qualname} ({self.p.filename}:{line}): the loop at line "
                   f"{s.lineno} cannot run in parallel: {why}")
            if explicit and not opts.get("fallback", True):
                raise UnsupportedError(msg, func=self.qualname, line=line,
                                       construct="prange")
            warnings.warn(HanaJitParallelWarning(msg + "; it runs serially"), stacklevel=2)
            return None
        names = parallel_names()
        self.injected.update(names)
        region, stmts = par.outline(s, plan, self.p, it.args, opts.get("workers") or 0,
                                    self.injected)
        for k, v in list(self.injected.items()):
            if v is region:
                self.injected[k] = registry.parallel_region(region, plan, self.p.pyfunc, s.lineno,
                                                  explicit)
        for st in stmts:
            self.locals |= {n.id for n in ast.walk(st) if isinstance(n, ast.Name)
                            and isinstance(n.ctx, ast.Store)}
        self.loop_depth += 1            # the combining loop is never promoted
        try:
            return self.stmts(stmts)
        finally:
            self.loop_depth -= 1

    def for_indexed(self, s, it):
        """``for t in X`` (an array, a tuple, ``enumerate(X)``, ``zip(X, Y)``) as a
        range loop over positions: ``X`` is evaluated once, ``t = X[i]`` each time
        (rows of a 2-D array are views)."""
        pre = []
        length, item = self.iter_parts(it, pre)
        counter = self.tmp("pos")
        self.locals.add(counter)
        flag = self._loop_else(s.orelse)
        head = self.assign_to(s.target, item(N.Var(counter)))
        for st in head:         # (errors typing the item name the for line)
            st.line = st.line or s.lineno
        body = head + self.stmts(s.body)
        self.loop_flags.pop()
        loop = N.PyForRange(target=counter, start=N.Const(0), stop=length, step=N.Const(1),
                            body=body)
        return pre + self._with_else(flag, loop, s.orelse)

    def iter_parts(self, it, pre):
        """(length expression, item(i) builder) of an iterable, temporaries in ``pre``."""
        keywords = [k.arg for k in it.keywords] if isinstance(it, ast.Call) else []
        if isinstance(it, ast.Call) and keywords in ([], ["start"]) and isinstance(
                it.func, (ast.Name, ast.Attribute)):
            obj = getattr(self.expr(it.func), "obj", None)
            args = it.args + [k.value for k in it.keywords]     # enumerate(a, start=1)
            if obj is enumerate and 1 <= len(args) <= 2:
                n, item = self.iter_parts(args[0], pre)
                start = self.expr(args[1]) if len(args) == 2 else N.Const(0)
                if not isinstance(start, N.Const):
                    name = self.tmp("start")
                    self.locals.add(name)
                    pre.append(N.Assign(target=name, value=start))
                    start = N.Var(name)
                return n, lambda i: N.MakeTuple([N.PyBinOp("add", i, start), item(i)])
            if obj is reversed and not keywords:
                return reversed_iter.reversed_parts(self, it.args, pre)
            if obj is range and 1 <= len(it.args) <= 3 and not keywords:
                return self.range_parts(it.args, pre)
            if obj is zip and it.args and not keywords:
                parts = [self.iter_parts(a, pre) for a in it.args]
                n = parts[0][0]
                for other, _ in parts[1:]:
                    n = N.PyCall(callee=min, args=[n, other], name="min")
                return n, lambda i: N.MakeTuple([item(i) for _, item in parts])
        special = self.iter_index_space(it, pre)
        if special is not None:
            return special
        sort = sorted_lists.parse(it, self._global_object)
        if sort is not None and not self.parallel.get("auto"):         # for x in sorted(a)
            return sorted_lists.loop_parts(self, sort, pre)
        if isinstance(it, ast.Name) and it.id in self.comp_lists:     # for x in xs
            return (N.PyCall(callee=len, args=[N.Var(it.id)], name="len"),
                    lambda i: comprehension_lists.item(self, it.id, i))
        name = self.tmp("seq")
        self.locals.add(name)
        pre.append(N.Assign(target=name, value=self.expr(it)))
        return (N.PyCall(callee=len, args=[N.Var(name)], name="len"),
                lambda i: N.PyGetItem(N.Var(name), i))

    def range_parts(self, args, pre):
        """``range(...)`` as (length, item(i)): its bounds evaluated once, into
        temporaries (``zip(range(n), a)``, ``enumerate(range(2, n, 3))``)."""
        bounds = [self.expr(a) for a in args]
        if len(bounds) == 1:
            bounds = [N.Const(0)] + bounds
        if len(bounds) == 2:
            bounds.append(N.Const(1))
        held = []
        for e in bounds:
            if not isinstance(e, N.Const):
                name = self.tmp("range")
                self.locals.add(name)
                pre.append(N.Assign(target=name, value=e))
                e = N.Var(name)
            held.append(e)
        start, stop, step = held
        length, item = registry.range_callables()
        return (N.PyCall(callee=length, args=[start, stop, step], name="range"),
                lambda i: N.PyCall(callee=item, args=[start, i, step], name="range"))

    def iter_index_space(self, it, pre):
        """``a.flat`` and ``np.ndindex(*shape)`` as (length, item(i)), or None."""
        flat_get = registry.flat_callables()[0]
        ndindex_size, ndindex_item = registry.ndindex_callables()
        if is_flat(it):
            arr = self.tmp("seq")
            self.locals.add(arr)
            pre.append(N.Assign(target=arr, value=self.expr(it.value)))
            return (N.PyAttr(N.Var(arr), "size"), lambda i: N.PyCall(
                callee=flat_get, args=[N.Var(arr), i], name="a.flat[i]"))
        if not (isinstance(it, ast.Call) and isinstance(it.func, (ast.Name, ast.Attribute))):
            return None
        obj = getattr(self.expr(it.func), "obj", None)
        if not (isinstance(obj, type) and obj.__name__ == "ndindex"
                and obj.__module__.startswith("numpy")):
            return None
        if it.keywords or not it.args:
            self.fail(it, "np.ndindex() call", "np.ndindex takes the shape")
        args = [self.expr(a) for a in it.args]
        shape = self.tmp("shape")
        self.locals.add(shape)
        pre.append(N.Assign(target=shape, value=args[0] if len(args) == 1
                            else N.MakeTuple(args)))
        return (N.PyCall(callee=ndindex_size, args=[N.Var(shape)],
                         name="np.ndindex"),
                lambda i: N.PyCall(callee=ndindex_item, args=[N.Var(shape), i],
                                   name="np.ndindex"))

    def for_range(self, s, call):
        if call.keywords or not 1 <= len(call.args) <= 3:
            self.fail(call, "range() call", "range takes 1 to 3 positional arguments")
        args = [self.expr(a) for a in call.args]
        if len(args) == 1:
            start, stop, step = N.Const(0), args[0], N.Const(1)
        elif len(args) == 2:
            (start, stop), step = args, N.Const(1)
        else:
            start, stop, step = args
        if not isinstance(s.target, ast.Name):
            self.fail(s.target, "for-loop target", "a range loop needs a plain name")
        flag = self._loop_else(s.orelse)
        body = self.stmts(s.body)
        self.loop_flags.pop()
        loop = N.PyForRange(target=s.target.id, start=start, stop=stop, step=step,
                            body=body)
        return self._with_else(flag, loop, s.orelse)
