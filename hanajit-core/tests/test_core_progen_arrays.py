"""The random array program generator itself: deterministic, valid Python, varied
inputs; no compilation (``hanajit-cpu/tests/test_cpu_progen_arrays.py`` compiles)."""
import ast
import warnings

import numpy as np
from hanajit.testing.progen_arrays import PRELUDE, generate, same
from hanajit.testing.sourcefile import load_module


def _text(progs):
    return "\n\n".join(p.source for p in progs)


def test_same_seed_same_programs_and_inputs():
    a, b = generate(5, 15), generate(5, 15)
    assert _text(a) == _text(b)
    assert [p.inputs for p in a] == [p.inputs for p in b]
    assert [p.approx for p in a] == [p.approx for p in b]
    assert _text(generate(6, 15)) != _text(a)


def test_programs_parse_and_cover_the_constructs():
    text = _text(generate(0, 150))
    tree = ast.parse(text)
    kinds = {type(n).__name__ for n in ast.walk(tree)}
    assert {"For", "If", "Break", "AugAssign", "Subscript", "Slice", "IfExp",
            "Compare", "Return", "Tuple"} <= kinds
    for piece in ("np.where(", "np.minimum(", "np.maximum(", "np.abs(", "np.sum(",
                  ".max()", ".min()", ".mean()", "len(", ".shape[", "[...] = ",
                  "[::-1]", ".T", "range(", ", -1)", "2 * ", "0.25 * ("):
        assert piece in text, piece
    # element indices affine in two loop counters, slice assignments, in-place ops
    assert any(isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Tuple)
               and all(isinstance(e, (ast.Name, ast.BinOp, ast.UnaryOp))
                       for e in n.slice.elts) for n in ast.walk(tree))
    assert any(isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript)
               and isinstance(n.targets[0].slice, ast.Slice) for n in ast.walk(tree))
    assert any(isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
               and n.target.id in "abm" for n in ast.walk(tree))
    # nested loops
    assert any(isinstance(n, ast.For) and any(isinstance(c, ast.For) for c in n.body)
               for n in ast.walk(tree))


def test_inputs_cover_dtypes_layouts_sizes_and_aliasing():
    progs = generate(1, 60, n_inputs=6)
    sets = [inp for p in progs for inp in p.inputs]
    arrays = [x for inp in sets for x in inp.build()[:3]]
    assert {str(x.dtype) for x in arrays} == {"int64", "int32", "float64", "float32"}
    assert {x.ndim for x in arrays} == {1, 2}
    assert any(x.size == 0 for x in arrays)
    assert any(x.flags.f_contiguous and not x.flags.c_contiguous for x in arrays)
    assert any(any(s < 0 for s in x.strides) for x in arrays)
    assert any(not (x.flags.c_contiguous or x.flags.f_contiguous) for x in arrays)
    sizes = [s for x in arrays for s in x.shape]
    assert set(range(7)) <= set(sizes) and max(sizes) > 8     # (one long set each)
    assert any(inp.b is None for inp in sets)                  # b aliases a
    a, b, _, _ = next(inp for inp in sets if inp.b is None).build()
    assert a is b
    # two builds are equal and independent
    one, two = sets[0].build(), sets[0].build()
    assert same(one[:3], two[:3]) and one[0] is not two[0]


def test_programs_run_in_the_interpreter_with_both_outcomes():
    """Valid code: every program either returns or raises one of the compared
    exception types, and both happen (IndexError and ValueError included)."""
    seen = set()
    for prog in generate(2, 40):
        func = getattr(load_module(PRELUDE + "\n\n" + prog.source), prog.name)
        for inp in prog.inputs:
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    func(*inp.build())
                seen.add("ok")
            except (IndexError, ValueError) as exc:
                seen.add(type(exc).__name__)
    assert seen == {"ok", "IndexError", "ValueError"}


def test_same_compares_exactly():
    nan = float("nan")
    assert same((1, np.float32(0.5)), (1, 0.5))
    assert same(np.array([nan, -0.0]), np.array([nan, -0.0]))
    assert not same(np.array([0.0]), np.array([-0.0]))
    assert not same(np.array([1, 2]), np.array([1, 2], dtype=np.int32))
    assert not same(np.zeros((2, 0)), np.zeros((0, 2)))
    assert not same(1.0, 1)
    assert not same(0.1 + 0.2, 0.3)
    assert same(0.1 + 0.2, 0.3, approx=True)
