"""``prange`` loops: the dependence analysis and the outlining of the loop body.

A ``for i in prange(start, stop, step)`` loop (or, with ``@jit(parallel=True)``, an
outermost ``range`` loop that passes the analysis) becomes a *parallel region*:

* the body is outlined into its own function ``region(k, T, n, start, step,
  captured..., partials...)`` that runs chunk ``k`` of ``T`` (iterations
  ``lo..hi`` of ``n``) with each reduction variable starting from its identity,
  and stores the chunk's partial result in ``partials[k]``;
* the loop statement becomes: evaluate the range once, choose ``T`` (1 when an
  array written in the loop may overlap another array it uses), call the region
  (``ParallelFor``: chunks may run concurrently), then combine the partials in
  chunk order with the reduction's own operator (Python semantics, in core).

The analysis (this module, on the AST) decides eligibility.  A loop is refused when
any of these holds -- each a loop-carried dependence or a result that would depend
on the order of iterations:

* a variable is read in an iteration before it is assigned in that iteration and is
  not a reduction (``s += e``, ``s -= e``, ``s *= e``, ``s = s + e``,
  ``s = min(s, e)``, ``s = max(s, e)``, with one operator per variable);
* a variable assigned in the loop (or the loop variable) is read after the loop;
* an array written in the loop (``a[...] = ...``) is not indexed by the loop
  variable itself at one fixed position in every use (``a[i]``, ``a[i, :]``,
  ``a[j, i]`` are fine; ``a[i - 1]``, ``a[idx[i]]`` may collide), or is used as a
  whole (passed to a call, ``a += 1``);
* a write goes through a view created in the loop, or through an expression;
* ``break`` or ``return`` leaves the loop;
* a dict or set local is used in it (``frontend/dict_locals.py``, ``set_locals.py``).

Two checks need types and are made when the region call is typed
(:mod:`hanajit.lib.parallel.regions`): an array passed to a jitted function inside the loop
may be written by it.  Overlapping memory between distinct array variables is
checked at run time (the loop then runs as one chunk, i.e. serially).
"""
from __future__ import annotations

import ast
import builtins
import copy
from dataclasses import dataclass, field

_REDUCE_AUG = {ast.Add: "add", ast.Sub: "add", ast.Mult: "mul"}
_WRITER_METHODS = {"fill", "sort", "put", "itemset", "resize", "setflags", "partition",
                   "byteswap"}
_READ_ATTRS = {"shape", "size", "ndim", "dtype", "strides", "itemsize", "nbytes"}
_ALLOC_FUNCS = {"empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like",
                "full_like", "copy", "array", "arange", "linspace"}


@dataclass
class LoopPlan:
    """What the outlining needs to know about one parallel loop."""

    target: str
    captured: list = field(default_factory=list)     # parent locals the body reads
    reductions: dict = field(default_factory=dict)   # name -> "add" | "mul" | "min" | "max"
    array_reductions: dict = field(default_factory=dict)  # array -> "add" | "mul"
    written: list = field(default_factory=list)      # captured arrays written in the body
    called_with: list = field(default_factory=list)  # captured names passed to calls
    # captured names whose methods the body calls (``rng.random()``): a Generator
    # among them draws from one stream per chunk (hanajit.parallel_streams)
    streams: list = field(default_factory=list)
    problems: list = field(default_factory=list)     # (line, message)


# ----------------------------------------------------------------- name helpers
_COMPREHENSIONS = (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)


def _loads(node) -> set:
    """Names ``node`` reads (not a comprehension's reads of its own variables)."""
    own = set()
    for c in ast.walk(node):
        if isinstance(c, _COMPREHENSIONS):
            bound = {n.id for g in c.generators for n in ast.walk(g.target)
                     if isinstance(n, ast.Name)}
            outer = {id(n) for n in ast.walk(c.generators[0].iter)}
            own |= {id(n) for n in ast.walk(c) if isinstance(n, ast.Name)
                    and n.id in bound and id(n) not in outer}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load) and id(n) not in own}


def _stores(node) -> set:
    """Names ``node`` assigns (not a comprehension's own variables: its scope)."""
    own = {id(n) for c in ast.walk(node) if isinstance(c, _COMPREHENSIONS)
           for g in c.generators for n in ast.walk(g.target)}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, (ast.Store, ast.Del)) and id(n) not in own}


def _mentions(node, name) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


# ------------------------------------------------------------ first-event scan
def first_event(stmts, name) -> str | None:
    """'read' if ``name`` may be read before it is assigned when ``stmts`` run;
    'store' if it is certainly assigned first; 'maybe' if it is assigned on some
    paths and never read unassigned; None if it is not used."""
    maybe = False
    for s in stmts:
        ev = _stmt_event(s, name)
        if ev == "maybe":
            maybe = True
        elif ev is not None:
            return ev
    return "maybe" if maybe else None


def _join(a, b):
    """Event of two alternative paths."""
    if "read" in (a, b):
        return "read"
    if a == b:
        return a
    return "maybe"


def _stmt_event(s, name):
    if isinstance(s, ast.Assign):
        if name in _loads(s.value) or any(name in _loads(t) for t in s.targets):
            return "read"
        return "store" if any(name in _stores(t) for t in s.targets) else None
    if isinstance(s, ast.AnnAssign):
        if s.value is not None and name in _loads(s.value):
            return "read"
        return "store" if s.value is not None and name in _stores(s.target) else None
    if isinstance(s, ast.AugAssign):
        return "read" if _mentions(s, name) else None
    if isinstance(s, ast.If):
        if name in _loads(s.test):
            return "read"
        return _join(first_event(s.body, name), first_event(s.orelse, name))
    if isinstance(s, (ast.For, ast.While)):
        head = s.iter if isinstance(s, ast.For) else s.test
        if name in _loads(head):
            return "read"
        if isinstance(s, ast.For) and name in _stores(s.target):
            return "maybe"    # assigned by the loop, unless it runs no iteration
        inner = _join(first_event(s.body, name), first_event(s.orelse, name))
        return "read" if inner == "read" else ("maybe" if inner else None)
    return "read" if name in _loads(s) else None


# ------------------------------------------------------------------- analysis
def _reduction_op(s, name, resolve):
    """The reduction operator if statement ``s`` is ``name <op>= e`` (or the
    spelled-out forms), else None."""
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) \
            and s.target.id == name and type(s.op) in _REDUCE_AUG \
            and not _mentions(s.value, name):
        return _REDUCE_AUG[type(s.op)]
    if isinstance(s, ast.Assign) and len(s.targets) == 1 \
            and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name:
        v = s.value
        if isinstance(v, ast.BinOp) and type(v.op) in (ast.Add, ast.Sub, ast.Mult):
            op = _REDUCE_AUG[type(v.op)]
            if isinstance(v.left, ast.Name) and v.left.id == name \
                    and not _mentions(v.right, name):
                return op
            if isinstance(v.right, ast.Name) and v.right.id == name \
                    and not isinstance(v.op, ast.Sub) and not _mentions(v.left, name):
                return op
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and not v.keywords \
                and len(v.args) == 2 and isinstance(v.args[0], ast.Name) \
                and v.args[0].id == name and not _mentions(v.args[1], name):
            obj = resolve(v.func.id)
            if obj is builtins.min:
                return "min"
            if obj is builtins.max:
                return "max"
    return None


def _statements(body):
    for s in body:
        yield s
        for attr in ("body", "orelse"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                yield from _statements(sub)


def _index_positions(sub: ast.Subscript, target: str):
    """Positions of the index tuple that are exactly the loop variable; None when
    the index has an ellipsis or a new axis (positions would be ambiguous)."""
    idx = sub.slice
    elts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
    for e in elts:
        if isinstance(e, ast.Constant) and e.value in (Ellipsis, None):
            return None
    return {k for k, e in enumerate(elts) if isinstance(e, ast.Name) and e.id == target}


class _Uses(ast.NodeVisitor):
    """Every use of each name in the body: as a subscript base, an attribute base,
    a call argument, or bare."""

    def __init__(self):
        self.subscripts: dict = {}      # name -> [Subscript nodes]
        self.bare: dict = {}            # name -> [(node, how)]

    def visit_Subscript(self, node):
        if isinstance(node.value, ast.Name):
            self.subscripts.setdefault(node.value.id, []).append(node)
        else:
            self.visit(node.value)
        self.visit(node.slice)

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name):
            self.bare.setdefault(node.value.id, []).append((node, "attr:" + node.attr))
        else:
            self.visit(node.value)

    def visit_Call(self, node):
        self.visit(node.func)
        for a in list(node.args) + [k.value for k in node.keywords]:
            if isinstance(a, ast.Name):
                self.bare.setdefault(a.id, []).append((node, "arg"))
            else:
                self.visit(a)

    def visit_Name(self, node):
        self.bare.setdefault(node.id, []).append((node, "name"))


def analyze(loop: ast.For, parent_locals: set, resolve, after_path) -> LoopPlan:
    """Dependence analysis of one ``for`` loop over ``range``/``prange``.

    ``resolve(name)`` gives the object a global name refers to; ``after_path`` is a
    list of statement lists that may run after the loop (checked for reads of
    variables the loop assigns)."""
    t = loop.target.id
    plan = LoopPlan(target=t)
    body = loop.body

    def problem(node, msg):
        plan.problems.append((getattr(node, "lineno", loop.lineno), msg))

    assigned = set()
    for s in body:
        assigned |= _stores(s)
    if t in assigned:
        problem(loop, f"the loop variable '{t}' is assigned in the loop")
    for s in _statements(body):
        if isinstance(s, ast.Return):
            problem(s, "'return' inside the loop")
        if isinstance(s, (ast.Global, ast.Nonlocal)):
            problem(s, "global/nonlocal names inside the loop")
    _check_breaks(body, problem)
    for s in _statements(body):
        for node in ast.walk(s):
            if _global_random_call(node, resolve):
                name = ast.unparse(node.func)
                if isinstance(node.func, ast.Attribute) and \
                        node.func.attr in ("default_rng", "Generator", "PCG64"):
                    problem(node, f"'{name}' makes a random generator in the loop "
                            "(generators are made outside parallel loops)")
                else:
                    problem(node, f"'{name}' draws from a global random state, "
                            "shared by the iterations")

            if isinstance(node, ast.Name) and node.id.startswith(("dict.", "set.")):
                what = node.id.split(".")[0]
                problem(node, f"a {what} is used in the loop (its lookups keep state: "
                        f"frontend/{what}_locals.py)")
                break
    # scalars (and arrays) assigned in the body: private, reduction or carried
    for name in sorted(assigned - {t}):
        if first_event(body, name) in ("store", "maybe"):
            if _live_after(after_path, name):
                problem(loop, f"'{name}' is assigned in the loop and read after it (its "
                        "value would depend on the order of iterations)")
            continue                    # private to each iteration
        ops = set()
        other_use = False
        for s in _statements(body):
            op = _reduction_op(s, name, resolve)
            if op is not None:
                ops.add(op)
            elif _direct_mentions(s, name):
                other_use = True
        if ops and not other_use and len(ops) == 1:
            plan.reductions[name] = ops.pop()
            continue
        if ops and (other_use or len(ops) > 1):
            problem(loop, f"'{name}' is updated as a reduction and also used otherwise "
                    "(or with two operators) in the loop")
            continue
        problem(loop, f"'{name}' carries a value from one iteration to the next "
                "(not a reduction: use s += e, s *= e, s = min(s, e) or s = max(s, e))")
    if _live_after(after_path, t):
        problem(loop, f"the loop variable '{t}' is read after the loop")

    uses = _Uses()
    for s in body:
        uses.visit(s)
    private = assigned - set(plan.reductions)

    # writes through subscripts
    written = {}
    for s in _statements(body):
        targets = s.targets if isinstance(s, ast.Assign) else (
            [s.target] if isinstance(s, (ast.AugAssign, ast.AnnAssign)) else [])
        for tgt in targets:
            for node in ast.walk(tgt):
                if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
                    if not isinstance(node.value, ast.Name):
                        problem(s, "a write through an expression "
                                f"'{ast.unparse(node.value)}'")
                        continue
                    written.setdefault(node.value.id, s)
    for name, s in written.items():
        if name in private:
            if not _fresh_array(body, name, resolve):
                problem(s, f"writes through '{name}', which may be a view of an array "
                        "shared by the iterations")
            continue
        op = _array_reduction(body, name, uses, resolve)
        if op is not None:
            plan.array_reductions[name] = op    # a private copy per chunk, summed
            continue
        positions = None
        for sub in uses.subscripts.get(name, []):
            p = _index_positions(sub, t)
            positions = p if positions is None or p is None else positions & p
            if not positions:
                break
        if not positions:
            problem(s, f"'{name}' is written at an index that may be the same in two "
                    f"iterations (index it with the loop variable '{t}' itself, at the "
                    "same position in every use)")
            continue
        for node, how in uses.bare.get(name, []):
            if how.startswith("attr:") and how[5:] in _READ_ATTRS:
                continue
            if how == "arg" and isinstance(node, ast.Call) and isinstance(
                    node.func, ast.Name) and resolve(node.func.id) is builtins.len:
                continue
            problem(node, f"'{name}' is written in the loop and also used as a whole")
            break
        plan.written.append(name)

    # captured names: parent locals the body reads, minus what the body assigns
    loads = set()
    for s in body:
        loads |= _loads(s)
    plan.captured = sorted((loads & parent_locals) - assigned - {t}
                           - set(plan.array_reductions))
    for name in plan.captured:
        for node, how in uses.bare.get(name, []):
            if how.startswith("attr:") and how[5:] in _WRITER_METHODS:
                problem(node, f"'{name}.{how[5:]}()' writes to an array shared by the "
                        "iterations")
            if how == "arg" and name not in plan.called_with and _unknown_callee(
                    node, resolve):
                plan.called_with.append(name)
    return plan


def _array_reduction(body, name, uses, resolve):
    """'add' or 'mul' when every use of array ``name`` in the body is an update
    ``name[idx] += e`` / ``-= e`` / ``*= e`` (or ``name[idx] = name[idx] + e``)
    with one operator and ``e`` not reading ``name``; else None."""
    for node, how in uses.bare.get(name, []):
        if not (how.startswith("attr:") and how[5:] in _READ_ATTRS):
            return None
    ops = set()
    n_updates = 0
    for s in _statements(body):
        if not _direct_mentions(s, name):
            continue
        op = None
        if isinstance(s, ast.AugAssign) and type(s.op) in _REDUCE_AUG \
                and isinstance(s.target, ast.Subscript) \
                and isinstance(s.target.value, ast.Name) and s.target.value.id == name \
                and not _mentions(s.target.slice, name) and not _mentions(s.value, name):
            op = _REDUCE_AUG[type(s.op)]
        elif isinstance(s, ast.Assign) and len(s.targets) == 1 \
                and isinstance(s.targets[0], ast.Subscript) \
                and isinstance(s.targets[0].value, ast.Name) \
                and s.targets[0].value.id == name and isinstance(s.value, ast.BinOp) \
                and type(s.value.op) in _REDUCE_AUG \
                and isinstance(s.value.left, ast.Subscript) \
                and ast.dump(s.value.left) == ast.dump(ast.Subscript(
                    value=s.targets[0].value, slice=s.targets[0].slice, ctx=ast.Load())) \
                and not _mentions(s.targets[0].slice, name) \
                and not _mentions(s.value.right, name):
            op = _REDUCE_AUG[type(s.value.op)]
        if op is None:
            return None
        ops.add(op)
        n_updates += 1
    return ops.pop() if len(ops) == 1 and n_updates else None


def _direct_mentions(s, name) -> bool:
    """Does statement ``s`` itself (not its nested blocks) mention ``name``?"""
    parts = []
    for fld, value in ast.iter_fields(s):
        if fld in ("body", "orelse") and isinstance(value, list):
            continue
        parts.append(value)
    for p in parts:
        for node in (p if isinstance(p, list) else [p]):
            if isinstance(node, ast.AST) and _mentions(node, name):
                return True
    return False


def _check_breaks(body, problem, depth=0):
    for s in body:
        if isinstance(s, ast.Break) and depth == 0:
            problem(s, "'break' leaves the loop")
        inner = depth + 1 if isinstance(s, (ast.For, ast.While)) else depth
        for attr in ("body", "orelse"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                _check_breaks(sub, problem, inner if attr == "body" else depth)


def _fresh_array(body, name, resolve) -> bool:
    """Is every assignment to ``name`` in the body a new array (np.empty(...), ...)?"""
    found = False
    for s in _statements(body):
        if isinstance(s, ast.Assign) and any(name in _stores(t) for t in s.targets):
            v = s.value
            if not (len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                    and isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
                    and isinstance(v.func.value, ast.Name)
                    and getattr(resolve(v.func.value.id), "__name__", "") == "numpy"
                    and v.func.attr in _ALLOC_FUNCS):
                return False
            found = True
        elif isinstance(s, (ast.AugAssign, ast.For)) and name in _stores(s.target):
            return False
    return found


def _global_random_call(node, resolve) -> bool:
    """``np.random.<f>(...)`` or ``random.<f>(...)``: a call of NumPy's global
    RandomState or of Python's global generator."""
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Name):       # from random import random
        f = resolve(node.func.id)
        return type(getattr(f, "__self__", None)).__module__ == "random"
    if not isinstance(node.func, ast.Attribute):
        return False
    v = node.func.value
    if isinstance(v, ast.Name) and getattr(resolve(v.id), "__name__", "") == "random":
        return True
    if isinstance(v, ast.Attribute) and v.attr == "random" and isinstance(v.value, ast.Name):
        return getattr(resolve(v.value.id), "__name__", "") == "numpy"
    if isinstance(v, ast.Name):
        return getattr(resolve(v.id), "__name__", "") == "numpy.random"
    return False


def _unknown_callee(call: ast.Call, resolve) -> bool:
    """A call that might write its array arguments: anything but builtins and the
    functions of numpy/math (whose array-writing forms are refused separately)."""
    f = call.func
    if any(k.arg == "out" for k in call.keywords):
        return True
    if isinstance(f, ast.Name):
        obj = resolve(f.id)
        mod = getattr(obj, "__module__", None) or ""
        if obj is not None and (getattr(builtins, f.id, None) is obj
                                or mod.split(".")[0] in ("numpy", "math", "cmath")):
            return False
        return True
    if isinstance(f, ast.Attribute):
        root = f.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name):
            obj = resolve(root.id)
            name = getattr(obj, "__name__", "")
            if name.split(".")[0] in ("numpy", "math", "cmath"):
                return f.attr in ("copyto", "put", "place", "putmask")
        return f.attr in _WRITER_METHODS
    return True


def _method_receivers(body) -> set:
    """Names whose methods the loop body calls (``name.method(...)``)."""
    out = set()
    for s in body:
        for node in ast.walk(s):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name):
                out.add(node.func.value.id)
    return out


def _live_after(after_path, name) -> bool:
    """May ``name`` be read after the loop before being assigned again?"""
    for stmts, loop_again in after_path:
        ev = first_event(stmts, name)
        if ev == "read":
            return True
        if ev == "store":
            return False
        if loop_again is not None:
            ev = first_event(loop_again, name)
            if ev == "read":
                return True
    return False


# ------------------------------------------------------------------- outlining
def path_after(fnode: ast.FunctionDef, loop: ast.For) -> list:
    """``[(statements after the loop in its block, enclosing loop body or None),
    ...]`` from the innermost block outwards."""
    def find(stmts, owner_loop):
        for i, s in enumerate(stmts):
            if s is loop:
                return [(stmts[i + 1:], owner_loop)]
            for attr in ("body", "orelse"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list) and sub:
                    inner = find(sub, s.body if isinstance(s, (ast.For, ast.While))
                                 and attr == "body" else None)
                    if inner is not None:
                        return inner + [(stmts[i + 1:], owner_loop)]
        return None
    return find(fnode.body, None) or []


class RegionFunction:
    """Stands in for a Python function: the outlined body of one parallel loop."""

    def __init__(self, parsed, qualname):
        self.__hj_parsed__ = parsed
        self.__qualname__ = qualname
        self.__name__ = qualname.rpartition(".")[2]
        self.__module__ = "hanajit.parallel_region"


_N = 0


def outline(loop: ast.For, plan: LoopPlan, parsed, range_args: list, workers: int,
            names: dict):
    """Build the region function and the statements that replace the loop.

    ``names`` maps the helper names used in the generated code to their objects
    (``__hj_chunk_lo`` ...); it is added to the closure of both functions.
    Returns ``(RegionFunction, [ast statements for the parent])``."""
    global _N
    _N += 1
    uid = f"{loop.lineno}_{_N}"
    t = plan.target
    red = plan.reductions
    part = {name: f"__hj_p_{name}_{uid}" for name in red}
    ared = plan.array_reductions
    apart = {name: f"__hj_pa_{name}_{uid}" for name in ared}
    shared = {name: f"__hj_sh_{name}_{uid}" for name in ared}
    # each reduction's value before the loop, for its type only: a chunk starts
    # from the identity as the NumPy scalar or the Python number the variable is
    start = {name: f"__hj_v_{name}_{uid}" for name in red}
    plan.streams = sorted(_method_receivers(loop.body) & set(plan.captured))
    sw = {name: f"__hj_sw_{name}_{uid}" for name in plan.streams}
    params = ["__hj_k", "__hj_T", "__hj_n", "__hj_start", "__hj_step"] + list(
        plan.captured) + [part[n] for n in red] + [x for n in ared
                                                    for x in (shared[n], apart[n])] + [
        sw[n] for n in plan.streams] + [start[n] for n in red]
    src = [f"def __hj_region_{uid}({', '.join(params)}):",
           "    __hj_lo = __hj_chunk_lo(__hj_k, __hj_T, __hj_n)",
           "    __hj_hi = __hj_chunk_lo(__hj_k + 1, __hj_T, __hj_n)"]
    for name in plan.streams:       # a Generator: this chunk's own stream
        src.append(f"    {name} = __hj_chunk_stream({sw[name]}, {name}, __hj_k)")
    for name, op in red.items():
        src.append(f"    {name} = __hj_ident_{op}({part[name]}, {start[name]})")
    for name in ared:       # one chunk updates the array itself, else its own copy
        src += ["    if __hj_T == 1:", f"        {name} = {shared[name]}",
                "    else:", f"        {name} = {apart[name]}[__hj_k]"]
    src.append(f"    for {t} in range(__hj_start + __hj_lo * __hj_step, "
               "__hj_start + __hj_hi * __hj_step, __hj_step):")
    src.append("        pass")
    for name in red:
        src.append(f"    {part[name]}[__hj_k] = {name}")
    fdef = ast.parse("\n".join(src)).body[0]
    for node in ast.walk(fdef):
        if hasattr(node, "lineno"):
            node.lineno = loop.lineno
            node.end_lineno = loop.lineno
    inner = next(s for s in fdef.body if isinstance(s, ast.For))
    inner.body = copy.deepcopy(loop.body)
    closure = dict(parsed.closure)
    closure.update(names)
    from .source import ParsedFunction
    rparsed = ParsedFunction(pyfunc=None, node=fdef, filename=parsed.filename,
                             first_line=loop.lineno, source=parsed.source,
                             globals=parsed.globals, closure=closure)
    region = RegionFunction(rparsed, f"{parsed.qualname}.<prange line {loop.lineno}>")
    rparsed.pyfunc = region

    a, b, c = (f"__hj_{x}_{uid}" for x in "abc")
    n, T, ov = f"__hj_n_{uid}", f"__hj_T_{uid}", f"__hj_ov_{uid}"
    others = [x for x in plan.captured if x not in plan.written]
    code = [f"{a} = 0", f"{b} = 0", f"{c} = 1",
            f"{n} = __hj_prange_len({a}, {b}, {c})",
            f"{ov} = __hj_overlap({len(plan.written) + len(plan.array_reductions)}, "
            f"{', '.join(list(plan.written) + list(plan.array_reductions) + others) or '0'})",
            f"{T} = __hj_num_chunks({n}, {int(workers or 0)}, {ov})"]
    for name in red:
        code.append(f"{part[name]} = __hj_partials({T}, {name})")
    for name in plan.streams:
        code.append(f"{sw[name]} = __hj_stream_words({name}, {T})")
    names[f"__hj_region_{uid}"] = region
    for name, op in ared.items():
        code.append(f"{apart[name]} = __hj_array_partials_{op}({T}, {name})")
    code.append(f"__hj_region_{uid}({T}, {n}, {a}, {c}, "
                + ", ".join(list(plan.captured) + [part[x] for x in red]
                            + [x for nm in ared for x in (nm, apart[nm])]
                            + [sw[x] for x in plan.streams] + list(red)) + ")")
    for name in plan.streams:
        code.append(f"__hj_stream_close({sw[name]})")
    if red or ared:
        j = f"__hj_j_{uid}"
        code.append(f"for {j} in range({T}):")
        for name, op in ared.items():     # identity-filled when T == 1: no change
            code.append(f"    {name} {'+' if op == 'add' else '*'}= {apart[name]}[{j}]")
        for name, op in red.items():
            p = f"{part[name]}[{j}]"
            code.append(f"    {name} = " + {"add": f"{name} + {p}", "mul": f"{name} * {p}",
                                            "min": f"__hj_min({name}, {p})",
                                            "max": f"__hj_max({name}, {p})"}[op])
    stmts = ast.parse("\n".join(code)).body
    for s in stmts:
        for node in ast.walk(s):
            if hasattr(node, "lineno"):
                node.lineno = loop.lineno
                node.end_lineno = loop.lineno
    # the range arguments, evaluated once and in order, as the user wrote them
    if len(range_args) == 1:
        stmts[1].value = range_args[0]
    else:
        stmts[0].value = range_args[0]
        stmts[1].value = range_args[1]
        if len(range_args) == 3:
            stmts[2].value = range_args[2]
    return region, stmts
