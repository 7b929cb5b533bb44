"""The random program generator itself: deterministic, valid Python, varied."""
import ast

from hanajit.testing.progen import generate_module


def test_same_seed_same_programs():
    a, b = generate_module(7, 20), generate_module(7, 20)
    assert a.compiled_source == b.compiled_source
    assert a.reference_source == b.reference_source
    assert a.inputs == b.inputs
    assert generate_module(8, 20).compiled_source != a.compiled_source


def test_sources_parse_and_cover_the_constructs():
    text = "".join(generate_module(seed, 30).compiled_source for seed in range(5))
    tree = ast.parse(text)
    kinds = {type(n).__name__ for n in ast.walk(tree)}
    assert {"If", "For", "While", "Break", "Continue", "AugAssign", "BoolOp",
            "IfExp", "Compare", "Tuple", "Call", "Return"} <= kinds
    assert any(isinstance(n, ast.Compare) and len(n.ops) == 2 for n in ast.walk(tree))


def test_reference_checks_every_int_result():
    gen = generate_module(3, 10)
    ast.parse(gen.reference_source)
    assert "_c(" in gen.reference_source and "_c(" not in gen.compiled_source
    assert set(gen.inputs) == set(gen.names)
