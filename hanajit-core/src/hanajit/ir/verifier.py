"""IR verifier: run between passes in tests (``HANAJIT_VERIFY=1``).

Checks that every expression is typed, that a primitive-level function holds no
``Py*`` node and no transient node of another layer (the frontend's ``ObjRef``,
the library's ``Lazy``, the inliner's ``Lowered``: only ``ir.nodes`` classes),
that operand types agree for primitive operations, that loads and stores index
every axis with int64 values of the element type, and that ``Break``/``Continue``
sit inside loops, and that every ``Caught``/``Reraise`` names a ``Try`` of the
function.  :func:`verify_module` also checks every call against its
callee's signature.
"""
from __future__ import annotations

from . import nodes as N
from . import types as T

_PY_NODES = (N.PyBinOp, N.PyUnOp, N.PyCompare, N.PyBoolOp, N.PyIfExp, N.Truth, N.PyCall,
             N.PyGetItem, N.PyAttr, N.PySlice)
_PY_STMTS = (N.PyForRange, N.PyWhile, N.PySetItem)
_DRAWS = {"uint64": T.UINT64, "uint32": T.UINT32, "double": T.FLOAT64}   # RandomBits


def _tags(kind) -> frozenset:
    """What :func:`verify` checks of an expression class in a primitive function."""
    tags = set()
    if issubclass(kind, _PY_NODES):
        tags.add("python")
    if kind.__module__ != N.__name__:
        tags.add("transient")
    for cls, tag in ((N.Load, "load"), (N.BinOp, "binop"), (N.Cmp, "cmp"),
                     (N.Select, "select"), (N.Var, "var"), (N.StackAddress, "stack"),
                     (N.RandomBits, "draw")):
        if issubclass(kind, cls):
            tags.add(tag)
    if issubclass(kind, (N.GpuIndex, N.SharedArray, N.Atomic)):
        tags.add("gpu")
    if issubclass(kind, (N.Atomic, N.RandomBits)):
        tags.add("effects")
    return frozenset(tags)


_TAGS: dict = {}


class VerifyError(AssertionError):
    pass


def verify(fn: N.Function) -> None:
    def fail(msg):
        raise VerifyError(f"{fn.name}: {msg}")

    primitive = fn.level == "primitive"

    def check_expr(e, effects_ok):
        # children first (an untyped leaf is named before its parent), one walk
        for c in e.children():
            check_expr(c, False)
        kind = type(e)
        if getattr(e, "type", None) is None and kind is not N.Var:
            fail(f"untyped {kind.__name__}")
        if not primitive:
            return
        tags = _TAGS.get(kind)
        if tags is None:
            tags = _TAGS[kind] = _tags(kind)
        if not tags:
            return
        if "python" in tags:
            fail(f"Python-level {kind.__name__} in a primitive function")
        if "transient" in tags:
            fail(f"transient {kind.__name__} ({kind.__module__}) in a "
                 "primitive function")
        if "effects" in tags and not effects_ok:
            fail(f"{kind.__name__} not directly assigned (it has effects)")
        if "load" in tags:
            check_access("Load", e.array, e.indices, e.type)
        elif "binop" in tags and e.left.type != e.right.type:
            fail(f"BinOp {e.op} on {e.left.type} and {e.right.type}")
        elif "cmp" in tags:
            if e.left.type != e.right.type:
                fail(f"Cmp {e.op} on {e.left.type} and {e.right.type}")
            if e.type != T.BOOL:
                fail("Cmp must give bool")
        elif "select" in tags and (e.cond.type != T.BOOL or e.a.type != e.b.type):
            fail("Select operand types")
        elif "var" in tags and e.name not in fn.locals:
            fail(f"unknown variable {e.name}")
        elif "stack" in tags and e.type != T.INT64:
            fail(f"StackAddress of type {e.type}")
        if "gpu" in tags:
            check_gpu(e)
        if "draw" in tags and (not isinstance(e.rng.type, T.GeneratorType)
                               or _DRAWS.get(e.kind) != e.type):
            fail(f"RandomBits {e.kind} of {e.rng.type} giving {e.type}")

    def check_access(what, array, indices, elem):
        t = array.type
        if not isinstance(t, T.ArrayType) or len(indices) != t.ndim:
            fail(f"{what} of {t} with {len(indices)} indices")
        if any(i.type != T.INT64 for i in indices):
            fail(f"{what} of {t} with indices {[str(i.type) for i in indices]}")
        if elem != t.dtype:
            fail(f"{what} of {t} with an element of type {elem}")

    def check_gpu(e):
        if isinstance(e, N.GpuIndex) and (
                e.kind not in ("thread", "block", "block_dim", "grid_dim")
                or e.axis not in (0, 1, 2) or e.type != T.INT64):
            fail(f"GpuIndex {e.kind} axis {e.axis} of type {e.type}")
        if isinstance(e, N.SharedArray) and not (
                isinstance(e.type, T.ArrayType) and e.type.ndim == 1
                and e.type.layout == "C" and e.size > 0):
            fail(f"SharedArray {e.name} of type {e.type}, size {e.size}")
        if isinstance(e, N.Atomic):
            t = e.array.type
            if (not isinstance(t, T.ArrayType) or e.op not in ("add", "min", "max", "cas")
                    or len(e.indices) != t.ndim or e.value.type != t.dtype
                    or e.type != t.dtype or (e.op == "cas") != (e.compare is not None)
                    or (e.compare is not None and e.compare.type != t.dtype)):
                fail(f"Atomic {e.op} on {t} with {e.value.type} giving {e.type}")

    def check(body, depth):
        for s in body:
            if fn.level == "primitive" and isinstance(s, _PY_STMTS):
                fail(f"Python-level {type(s).__name__} in a primitive function")
            if isinstance(s, (N.Break, N.Continue)) and depth == 0:
                fail(f"{type(s).__name__} outside a loop")
            for e in N.stmt_exprs(s):
                if e is not None:
                    # an Atomic or a draw only as an assignment's whole value
                    check_expr(e, isinstance(s, N.Assign) and e is s.value)
            if isinstance(s, N.Store) and fn.level == "primitive":
                check_access("Store", s.array, s.indices, s.value.type)
            if isinstance(s, N.Assign) and fn.level == "primitive":
                if _form(fn.locals.get(s.target)) != _form(s.value.type):
                    fail(f"assignment of {s.value.type} to {s.target}: "
                         f"{fn.locals.get(s.target)}")
            loop = isinstance(s, (N.Loop, N.ForCount, N.PyForRange, N.PyWhile))
            for attr in ("then", "orelse", "body"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    check(sub, depth + (1 if loop and attr == "body" else 0))

    check(fn.body, 0)
    # every Caught and Reraise names a Try of the function
    stmts = list(N.walk_stmts(fn.body))
    tries = {s.label for s in stmts if isinstance(s, N.Try)}
    for s in stmts:
        if isinstance(s, N.Reraise) and s.label not in tries:
            fail(f"reraise of try #{s.label}, which the function does not hold")
        for e in N.stmt_exprs(s) if tries else ():
            for x in N.walk_expr(e) if e is not None else ():
                if isinstance(x, N.Caught) and (x.label not in tries or x.type != T.BOOL):
                    fail(f"caught of try #{x.label}: no such try, or not bool")


def verify_module(module: N.Module, bodies: bool = True) -> None:
    """:func:`verify` every function (unless ``bodies`` is false: the pipeline after
    a pass that rewrites no body), then every call against its callee: the callee
    exists, and the argument and result types are its signature's."""
    if bodies:
        for fn in module.functions.values():
            verify(fn)
    for fn in module.functions.values():
        for st in N.walk_stmts(fn.body):
            for e in N.stmt_exprs(st):
                for sub in N.walk_expr(e) if e is not None else ():
                    if not isinstance(sub, N.Call):
                        continue
                    callee = module.functions.get(sub.func)
                    if callee is None:
                        raise VerifyError(f"{fn.name}: call of {sub.func}, which the "
                                          "module does not hold")
                    got = [a.type for a in sub.args]
                    if got != list(callee.arg_types) or sub.type != callee.return_type:
                        raise VerifyError(
                            f"{fn.name}: call {sub.func}({', '.join(map(str, got))}) -> "
                            f"{sub.type}, but it takes ({', '.join(map(str, callee.arg_types))})"
                            f" -> {callee.return_type}")


def _form(t):
    """``t``, a run-time str's ``StrCodes`` as the array it is (the same form:
    ``lib/python/strings.py`` moves one to the other by assignment)."""
    if isinstance(t, T.StrCodes):
        return T.ArrayType(t.dtype, t.ndim, t.layout, t.readonly)
    return t
