"""IR-level checks: inferred types, the verifier, the printer, HANAJIT_VERIFY."""
import os

import numpy as np
import pytest

from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.ir.printer import format_function, format_module
from hanajit.ir.verifier import VerifyError, verify
from hanajit.pipeline import compile_ir


def mixed(a, x):
    return a + x


def int_div(a, b):
    return a / b


def compare(a, x):
    return a < x


def int_or_float(a):
    v = 0
    if a > 0:
        v = 1.5
    return v


def weak_literal(x):
    return x * 2.0


def loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


@pytest.mark.parametrize("func, args, expected", [
    (mixed, (T.INT64, T.FLOAT64), T.FLOAT64),
    (int_div, (T.INT64, T.INT64), T.FLOAT64),
    (compare, (T.INT64, T.FLOAT64), T.BOOL),
    (int_or_float, (T.INT64,), T.FLOAT64),
    (weak_literal, (T.FLOAT32,), T.FLOAT32),
    (loop, (T.INT64,), T.INT64),
    (mixed, (T.INT32, T.INT64), T.INT32),     # NEP 50: np.int32 + a Python int
    (mixed, (T.BOOL, T.BOOL), T.INT64),
])
def test_inferred_return_types(func, args, expected):
    module, _ = compile_ir(func, args)
    assert module.functions[module.entry].return_type == expected


def test_lowered_functions_are_primitive_and_verify():
    module, _ = compile_ir(loop, (T.INT64,))
    for fn in module.functions.values():
        assert fn.level == "primitive"
        verify(fn)


def test_verify_runs_between_passes_in_tests(monkeypatch):
    assert os.environ.get("HANAJIT_VERIFY")
    from hanajit.ir import verifier
    seen = []
    monkeypatch.setattr(verifier, "verify", lambda fn: seen.append(fn.name))
    compile_ir(loop, (T.INT64,))
    assert seen


def _primitive(body, locals_=None):
    return N.Function(name="f", params=[], body=body, locals=locals_ or {},
                      return_type=T.NONE, level="primitive")


def test_verifier_rejects_mixed_operand_types():
    bad = N.BinOp("add", N.Const(1, T.INT64), N.Const(1.0, T.FLOAT64), T.INT64)
    with pytest.raises(VerifyError, match="BinOp add"):
        verify(_primitive([N.Assign(target="x", value=bad)], {"x": T.INT64}))


def test_verifier_rejects_python_nodes_in_primitive_ir():
    py = N.PyBinOp("add", N.Const(1, T.INT64), N.Const(1, T.INT64), T.INT64)
    with pytest.raises(VerifyError, match="Python-level"):
        verify(_primitive([N.Assign(target="x", value=py)], {"x": T.INT64}))


def test_verifier_rejects_break_outside_a_loop():
    with pytest.raises(VerifyError, match="outside a loop"):
        verify(_primitive([N.Break()]))


def test_verifier_rejects_assignment_of_the_wrong_type():
    with pytest.raises(VerifyError, match="assignment"):
        verify(_primitive([N.Assign(target="x", value=N.Const(1.0, T.FLOAT64))],
                          {"x": T.INT64}))


def test_printer_shows_signature_and_body():
    module, _ = compile_ir(loop, (T.INT64,))
    text = format_module(module)
    fn = module.functions[module.entry]
    head = format_function(fn).splitlines()[0]
    assert head.startswith("def ") and "n: int64" in head and "-> int64" in head
    assert "for " in text and "return" in text


def test_numpy_scalar_types():
    from hanajit.typing_rules import typeof
    assert typeof(np.float32(1)) == T.FLOAT32
    assert typeof(np.int8(1)) == T.INT8
    assert typeof(2 ** 63) is None and typeof(-(2 ** 63)) == T.INT64


A1 = T.ArrayType(T.FLOAT64, 1, "C")


def _array_fn(body):
    fn = _primitive(body, {"a": A1, "x": T.FLOAT64})
    fn.params, fn.arg_types = ["a"], [A1]
    return fn


@pytest.mark.parametrize("indices, match", [
    ([], "with 0 indices"),
    ([N.Const(0, T.INT64), N.Const(0, T.INT64)], "with 2 indices"),
    ([N.Const(0, T.INT32)], "indices .'int32'"),
])
def test_verifier_checks_load_and_store_indices(indices, match):
    a = N.Var("a", A1)
    with pytest.raises(VerifyError, match="Load.*" + match):
        verify(_array_fn([N.Assign(target="x", value=N.Load(a, indices, T.FLOAT64))]))
    with pytest.raises(VerifyError, match="Store.*" + match):
        verify(_array_fn([N.Store(array=a, indices=indices,
                                  value=N.Const(1.0, T.FLOAT64))]))


def test_verifier_checks_the_element_type():
    a = N.Var("a", A1)
    with pytest.raises(VerifyError, match="element of type int64"):
        verify(_array_fn([N.Store(array=a, indices=[N.Const(0, T.INT64)],
                                  value=N.Const(1, T.INT64))]))


def test_verifier_rejects_transient_nodes():
    class Lazy(N.Expr):          # a node class from another layer (lib, inliner)
        pass
    Lazy.__module__ = "hanajit.lib.somewhere"
    node = Lazy()
    node.type = T.INT64
    with pytest.raises(VerifyError, match="transient Lazy"):
        verify(_primitive([N.Assign(target="x", value=node)], {"x": T.INT64}))


def test_verify_module_checks_calls_against_the_callee():
    from hanajit.ir.verifier import verify_module
    module, _ = compile_ir(loop, (T.INT64,))
    verify_module(module)
    callee = module.functions[module.entry]
    caller = _primitive([N.Assign(target="x", value=N.Call(
        callee.name, [N.Const(1.0, T.FLOAT64)], T.INT64))], {"x": T.INT64})
    caller.name = "caller"
    module.functions["caller"] = caller
    with pytest.raises(VerifyError, match="but it takes .int64. -> int64"):
        verify_module(module)
    del module.functions["caller"]
    caller.body[0].value.func = "missing"
    module.functions["caller"] = caller
    with pytest.raises(VerifyError, match="does not hold"):
        verify_module(module)


def test_verifier_allows_a_draw_only_as_an_assignments_whole_value():
    rng = N.Var("rng", T.GeneratorType())
    draw = N.RandomBits(rng, "double", T.FLOAT64)
    locals_ = {"rng": rng.type, "x": T.FLOAT64}
    verify(_primitive([N.Assign(target="x", value=draw)], locals_))
    nested = N.BinOp("add", N.RandomBits(rng, "double", T.FLOAT64),
                     N.Const(1.0, T.FLOAT64), T.FLOAT64)
    with pytest.raises(VerifyError, match="RandomBits not directly assigned"):
        verify(_primitive([N.Assign(target="x", value=nested)], locals_))


def test_verify_module_without_bodies_still_checks_calls():
    """After a module pass that rewrites no body (``Pass.rewrites=False``) the
    pipeline checks only the calls: each body was verified after its passes."""
    from hanajit.ir.verifier import verify_module
    module, _ = compile_ir(loop, (T.INT64,))
    bad = _primitive([N.Break()])              # a body error
    bad.name = "bad"
    module.functions["bad"] = bad
    verify_module(module, bodies=False)
    with pytest.raises(VerifyError, match="outside a loop"):
        verify_module(module)
    bad.body = [N.Assign(target="x", value=N.Call(
        module.entry, [N.Const(1.0, T.FLOAT64)], T.INT64))]
    bad.locals = {"x": T.INT64}
    with pytest.raises(VerifyError, match="but it takes"):
        verify_module(module, bodies=False)


def test_module_passes_that_rewrite_no_body_say_so():
    from hanajit.pipeline import PASSES
    quiet = {p.name for p in PASSES if not p.rewrites}
    assert quiet == {"prune", "random_draws", "analyze_raises"}
    assert all(p.scope == "module" for p in PASSES if not p.rewrites)


def test_call_graph_walks():
    """``N.callees`` lists each callee once in the order of its first call, and
    ``N.reach`` follows calls depth first, skipping names outside the module and
    the ``stop`` names; the passes that read the call graph use these two."""
    def calling(name, *callees):
        fn = _primitive([N.ExprStmt(value=N.Call(c, [], T.NONE)) for c in callees])
        fn.name = name
        return fn
    fns = {f.name: f for f in (calling("e", "b", "a", "b", "ext"), calling("a", "c"),
                               calling("b", "c", "e"), calling("c"))}
    module = N.Module(entry="e", functions=fns)
    assert N.callees(fns["e"]) == ["b", "a", "ext"]
    assert N.reach(module, "e") == ["e", "b", "c", "a"]
    assert N.reach(module, "e", stop={"b"}) == ["e", "a", "c"]
    assert N.reach(module, "a") == ["a", "c"]
