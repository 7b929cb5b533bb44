"""Loop interchange and tiling (passes/interchange.py) as evolve genes: every legal
order and tiling of a matrix multiply gives the plain compilation's bits (shapes
0, 1, non-square, F-ordered and strided inputs, aliased and overlapping outputs,
out-of-bounds shapes that raise), nests whose reordering could change a result are
refused, evolve installs an interchanged winner only when it is checked, and the
winner's genome travels with the disk cache entry.  No test asserts on time: the
search's clock is replaced where a test needs a decision.

"Same bits" here means every bit of every non-NaN value, -0.0 included, and NaN
exactly where the plain build has NaN: which NaN an operation returns when both
operands are NaNs depends on the operand order LLVM picks for a commutative
``fadd`` (LLVM leaves NaN payloads unspecified), so a NaN's sign or payload is not
part of any compilation's contract.  evolve's own checker is stricter: it compares
NaN payloads too, and rejects a candidate that differs there."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hanajit import evolve as E
from hanajit import jit, plugins
from hanajit.evolve import genome as G
from hanajit.evolve import verify as V
from hanajit.typing_rules import typeof
from hanajit.passes import interchange as X
from hanajit.pipeline import CompileContext, compile_ir
from hypothesis import given, settings
from hypothesis import strategies as st


def matmul(A, B, C):
    n, m = A.shape
    p = B.shape[1]
    for i in range(n):
        for j in range(p):
            s = 0.0
            for k in range(m):
                s += A[i, k] * B[k, j]
            C[i, j] = s


def matmul_acc(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]


def matmul_leaves(A, B, C):
    """The counters and the accumulator are read after the nest."""
    i = j = k = -7
    s = -1.5
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            s = 0.0
            for k in range(A.shape[1]):
                s += A[i, k] * B[k, j] - 0.5 * A[i, k]
            C[i, j] = s
    return s + 1000.0 * i + 100.0 * j + 10.0 * k


def _nests(fn, *args):
    ctx = CompileContext(options={"strategy": {}})
    spec = ctx.specialize(fn, tuple(map(typeof, args)))
    return X.find_nests(spec.fn)


_BUILT: dict = {}


def _build(fn, args, options):
    """The CPU runner of ``fn`` at ``args``' types, compiled once per (function,
    types, options) in this process: the parametrized cases and the tests of one
    kernel share it (a runner keeps no state)."""
    types = tuple(map(typeof, args))
    key = (fn, types, repr(options))
    if key not in _BUILT:
        module, _ = compile_ir(fn, types, options)
        target = plugins.get_target("cpu")
        _BUILT[key] = target.load(target.compile(module, {}), fn)
    return _BUILT[key]


def _runner(fn, args, nests):
    """The CPU runner of ``fn`` at ``args``' types with nest genes ``nests``
    ({k: {"order": i, "tiles": (...)}})."""
    return _build(fn, args, {"strategy": {"nests": nests}})


def _plain(fn, args):
    return _build(fn, args, {})


def _same_bits(got, want) -> bool:
    """V.same_bits, except that a NaN matches any NaN (see the module docstring)."""
    def norm(x):
        x = np.array(x, dtype=np.float64) if isinstance(x, float) else x
        if isinstance(x, np.ndarray) and x.dtype.kind == "f":
            x = np.ascontiguousarray(x).copy()
            x[np.isnan(x)] = np.nan
        return x
    return V.same_bits(
        V.Outcome(norm(got.value), tuple(map(norm, got.arrays)), got.error),
        V.Outcome(norm(want.value), tuple(map(norm, want.arrays)), want.error))


def _same(fn, runner, args):
    want = V.outcome(_plain(fn, args), args)
    got = V.outcome(runner, args)
    return _same_bits(got, want), got, want


def _layout(x, how):
    if how == "F":
        return np.asfortranarray(x)
    if how == "strided":
        big = np.zeros((x.shape[0], 2 * x.shape[1]))
        big[:, ::2] = x
        return big[:, ::2]
    return np.ascontiguousarray(x)


def _specials(x, rng):
    if x.size >= 4:
        flat = x.reshape(-1)
        for v in (np.nan, np.inf, -0.0):
            flat[rng.integers(0, flat.size)] = v
    return x


SHAPES = [(0, 3, 4), (3, 0, 4), (3, 4, 0), (1, 1, 1), (1, 5, 1), (7, 1, 9),
          (5, 8, 3), (13, 17, 11), (33, 20, 40)]
GENES = [{"order": o, "tiles": t} for o in range(6)
         for t in ((), (0, 0, 4), (3, 2, 2))]


@pytest.mark.parametrize("fn", [matmul, matmul_acc, matmul_leaves])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_every_order_and_tiling_is_bit_identical(fn, layout):
    rng = np.random.default_rng(len(layout))
    shape_args = lambda n, m, p: (
        _layout(_specials(rng.standard_normal((n, m)) * 1e3, rng), layout),
        _layout(_specials(rng.standard_normal((m, p)), rng), layout),
        _layout(rng.standard_normal((n, p)), layout))
    probe = shape_args(2, 2, 2)
    assert len(_nests(fn, *probe)) == 1
    # C: every order once, the three tilings two orders each; F and strided: five
    # genes of every tiling (each gene is a build; hypothesis mixes the rest)
    genes = [GENES[3 * o + o % 3] for o in range(6)] if layout == "C" else GENES[::4]
    runners = [_runner(fn, probe, {0: g}) for g in genes]
    plain = _plain(fn, probe)
    for n, m, p in SHAPES:
        args = shape_args(n, m, p)
        want = V.outcome(plain, args)
        for g, r in zip(genes, runners):
            got = V.outcome(r, args)
            assert _same_bits(got, want), (fn.__name__, layout, (n, m, p), g)


def _random_matrix(rng, shape, dtype, layout, specials):
    if dtype.kind == "f":
        x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4)
        if specials:
            _specials(x, rng)
    else:
        x = rng.integers(-(2 ** 40), 2 ** 40, size=shape)   # products wrap
    return _layout(x, layout).astype(dtype, copy=False) if layout != "strided" \
        else _layout(x.astype(dtype), layout)


@settings(max_examples=8, deadline=None)     # (each example: one or two builds)
@given(n=st.integers(0, 9), m=st.integers(0, 9), p=st.integers(0, 9),
       layout=st.sampled_from(["C", "F", "strided"]),
       case=st.sampled_from([(matmul, "f8"), (matmul_acc, "f8"), (matmul_acc, "f4"),
                             (matmul_acc, "i8")]),
       gene=st.integers(0, len(GENES) - 1), seed=st.integers(0, 2 ** 32 - 1),
       specials=st.booleans())
def test_random_shapes_bit_identical(n, m, p, layout, case, gene, seed, specials):
    fn, dtype = case
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    args = tuple(_random_matrix(rng, sh, dtype, layout, specials)
                 for sh in ((n, m), (m, p), (n, p)))
    runner, plain = _runner(fn, args, {0: GENES[gene]}), _plain(fn, args)
    assert _same_bits(V.outcome(runner, args), V.outcome(plain, args))


def _random_nest(rng) -> str:
    """A random accumulation nest: 2-4 loops over ``range(s, nK)``, some indexing
    ``c``, an update of reads of ``a``/``b`` at counters or constants, counters,
    constants and ``+ - *`` (in the ``c[...] +=`` or the local-sum form); now and
    then a read of ``c`` at another element or an index swap, which must be
    refused or computed the same anyway."""
    depth = rng.randint(2, 4)
    names = ["i", "j", "k", "l"][:depth]
    nelem = rng.randint(1, depth)
    elem = rng.sample(names, nelem)
    local = rng.random() < 0.4 and nelem < depth and all(
        n in elem for n in names[:nelem]) and set(names[:nelem]) == set(elem)

    def idx():
        return rng.choice(names + ["0", "1"])

    def expr(d):
        r = rng.random()
        if d >= 2 or r < 0.45:
            pick = rng.random()
            if pick < 0.7:
                return f"{rng.choice('ab')}[{idx()}, {idx()}]"
            if pick < 0.85:
                return rng.choice(names)
            return rng.choice(["0.5", "-1.25", "3.0"])
        op = rng.choice(["+", "-", "*"])
        return f"({expr(d + 1)} {op} {expr(d + 1)})"

    update = expr(0)
    cidx = ", ".join(elem)
    if rng.random() < 0.15:                   # c read elsewhere: refused
        other = ", ".join(rng.choice(names) for _ in elem)
        update = f"({update} + c[{other}])"
    lines = ["def kern(a, b, c, n0, n1, n2, n3):"]
    ind = "    "
    bound = lambda q: f"range({rng.choice(['0', '0', '1'])}, n{q})"
    if local:
        for q, nm in enumerate(names[:nelem]):
            lines.append(f"{ind}for {nm} in {bound(q)}:")
            ind += "    "
        lines.append(f"{ind}s = {rng.choice(['0.0', '-0.0', '1.5'])}")
        for q, nm in enumerate(names[nelem:], nelem):
            lines.append(f"{ind}for {nm} in {bound(q)}:")
            ind += "    "
        lines.append(f"{ind}s {rng.choice(['+', '-'])}= {update}")
        lines.append(" " * (4 + 4 * nelem) + f"c[{cidx}] = s")
    else:
        for q, nm in enumerate(names):
            lines.append(f"{ind}for {nm} in {bound(q)}:")
            ind += "    "
        lines.append(f"{ind}c[{cidx}] {rng.choice(['+', '-', '*'])}= {update}")
    return "\n".join(lines) + "\n", nelem


@settings(max_examples=4, deadline=None)     # (each example: a new kernel, up to 7 builds)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_nests_match_cpython(seed):
    """Differential: random nests, every offered order and some tilings, against
    CPython running the source (exceptions by type, with the writes before them)."""
    import random

    from hanajit.testing.sourcefile import load_module

    rng = random.Random(seed)
    src, nelem = _random_nest(rng)
    kern = load_module(src, "nest").kern
    nprng = np.random.default_rng(seed)
    sizes = [int(nprng.integers(0, 5)) for _ in range(4)]
    args = (nprng.standard_normal((4, 4)), nprng.standard_normal((4, 4)),
            nprng.standard_normal((4,) * nelem), *sizes)
    nests = _nests(kern, *args)
    genes = [{}]
    if nests:
        (_, _, nest), = nests
        genes += [{0: {"order": o, "tiles": tuple(rng.choice((0, 2, 3))
                                                  for _ in range(4))}}
                  for o in range(len(nest.orders()))][:6]
    with np.errstate(all="ignore"):
        want = V.outcome(kern, args)
    for g in genes:
        got = V.outcome(_runner(kern, args, g), args)
        if want.error or got.error:           # (NumPy words its messages its way)
            assert (got.error or (None,))[0] is (want.error or (None,))[0], (src, g)
            got.error = want.error
        assert _same_bits(got, want), (src, g, sizes)


def test_the_rewrite_is_there_and_checks_are_gone():
    from hanajit.ir.printer import format_module

    args = (np.ones((3, 4)), np.ones((4, 5)), np.zeros((3, 5)))
    module, _ = compile_ir(matmul_acc, tuple(map(typeof, args)),
                           {"strategy": {"nests": {0: {"order": 1}}}})
    fn = module.functions[module.entry]
    assert fn.nests[0]["orders"][1] == ("i", "k", "j")
    top = next(s for s in fn.body if type(s).__name__ == "If")
    assert top.cond is fn.interchange_guards[0]
    fast = format_module(type(module)(entry=fn.name, functions={
        fn.name: type(fn)(name=fn.name, params=fn.params, arg_types=fn.arg_types,
                          locals=fn.locals, body=top.then, return_type=fn.return_type,
                          level=fn.level)}))
    assert "IndexError" not in fast                    # proven by the guard
    assert fast.index("k = ") < fast.index("j = ")    # (i, k, j)


def test_out_of_bounds_shapes_raise_the_same_error():
    """B shorter than A is wide: the guard fails, the original nest raises the
    plain compilation's IndexError after the same partial writes."""
    rng = np.random.default_rng(1)
    A, B = rng.standard_normal((4, 6)), rng.standard_normal((5, 3))
    for fn in (matmul, matmul_acc):
        for g in GENES[::3]:
            args = (A, B, np.zeros((4, 3)))
            ok, _, want = _same(fn, _runner(fn, args, {0: g}), args)
            assert want.error is not None and want.error[0] is IndexError
            assert ok
        args = (A, rng.standard_normal((6, 3)), np.zeros((3, 3)))  # C too short
        ok, _, want = _same(fn, _runner(fn, args, {0: {"order": 4}}), args)
        assert want.error is not None and ok


def _naive_kij(a, b, c):
    for k in range(a.shape[1]):
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                c[i, j] += a[i, k] * b[k, j]


@pytest.mark.parametrize("alias", ["same", "overlap", "b"])
def test_aliased_output_runs_the_original(alias):
    """``c is a`` (or overlapping views): reordering would change what the
    updates read -- a naive (k, i, j) in Python gives other numbers -- so the
    overlap check runs the original nest."""
    rng = np.random.default_rng(2)
    X0 = rng.standard_normal((6, 7))
    def make():
        X = X0.copy()
        if alias == "same":
            return X[:, :6], X[:6, :6].copy(), X[:, :6]
        if alias == "overlap":
            return X[:, :6], X[:6, :6].copy(), X[:, 1:7]
        return X[:6, :6].copy(), X[:, :6], X[:, :6]
    a, b, c = make()
    ref = make()
    matmul_acc(*ref)                                 # CPython, in (i, j, k) order
    naive = make()
    _naive_kij(*naive)
    assert naive[2].tobytes() != ref[2].tobytes()    # the naive interchange differs
    for g in GENES[::2]:
        a, b, c = make()
        _runner(matmul_acc, (a, b, c), {0: g})(a, b, c)
        assert c.tobytes() == ref[2].tobytes(), g
    ref = make()
    matmul(*ref)                                     # the local-sum form
    for g in GENES[::5]:
        a, b, c = make()
        _runner(matmul, (a, b, c), {0: g})(a, b, c)
        assert c.tobytes() == ref[2].tobytes(), g


def _orders(src_fn, *args):
    found = _nests(src_fn, *args)
    return [n.orders() for _, _, n in found]


def k2_sum(a, c):
    for i in range(a.shape[0]):
        for k1 in range(a.shape[1]):
            for k2 in range(a.shape[2]):
                c[i] += a[i, k1, k2] * 0.5


def test_reduction_order_is_never_permuted():
    """Two reduction loops: swapping them would add each c[i]'s terms in another
    order, so no offered order does; only the outer one may be tiled."""
    a, c = np.ones((2, 3, 4)), np.zeros(2)
    (orders,) = _orders(k2_sum, a, c)
    assert set(orders) == {("i", "k1", "k2"), ("k1", "i", "k2"), ("k1", "k2", "i")}
    (_, _, nest), = _nests(k2_sum, a, c)
    assert nest.tileable(("k1", "k2", "i")) == [True, False, True]
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 6, 7)) * 1e5
    for o in range(3):
        for t in ((), (3, 3, 3), (0, 4, 0)):
            c = rng.standard_normal(5)
            ok, _, _ = _same(k2_sum, _runner(k2_sum, (a, c), {0: {"order": o,
                                                                  "tiles": t}}),
                             (a, c))
            assert ok


def rowsum(a, out):
    for i in range(a.shape[0]):
        s = 0.0
        for k in range(a.shape[1]):
            s += a[i, k] * a[i, k] - 1.0
        out[i] = s


def test_one_dimensional_local_sum():
    """``out[i] = s`` (the frontend copies the index into a temporary first):
    promoted and reordered column-wise, same bits."""
    rng = np.random.default_rng(7)
    a, out = rng.standard_normal((37, 29)) * 1e4, np.empty(37)
    (_, _, nest), = _nests(rowsum, a, out)
    assert nest.orders() == [("i", "k"), ("k", "i")] and nest.acc == "s"
    for g in ({"order": 1}, {"order": 1, "tiles": (8, 8)}, {"order": 0, "tiles": (0, 4)}):
        for shape in ((37, 29), (1, 0), (0, 3), (5, 1)):
            args = (rng.standard_normal(shape), np.empty(shape[0]))
            ok, _, _ = _same(rowsum, _runner(rowsum, args, {0: g}), args)
            assert ok, (g, shape)


def reads_c_elsewhere(a, c):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * c[k, j]


def recurrence(a, c):
    for i in range(1, a.shape[0]):
        for j in range(a.shape[1]):
            c[i, j] = c[i - 1, j] + a[i, j]


def triangular(a, c):
    for i in range(a.shape[0]):
        for j in range(i):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k]


def early_exit(a, c):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[1]):
                if a[i, k] > 0:
                    break
                c[i, j] += a[i, k]


def with_call(a, c):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += np.sqrt(a[i, k])


def with_division(a, c):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] / a[k, j]


def narrower_store(a, c32):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k]
            c32[i, j] = s


def store_misses_a_loop(a, c1):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * a[k, j]
            c1[i] = s


def local_sum_reads_c(a, c):
    """Found by test_random_nests_match_cpython: ``c[i]`` here is the old value,
    which promoting ``s`` into ``c`` would turn into the partial sum."""
    for i in range(a.shape[0]):
        s = 0.0
        for k in range(a.shape[1]):
            s += a[i, k] + c[i]
        c[i] = s


def counter_bound(a, c):
    n = a.shape[0]
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c[i, j] += a[i, k]
                n = 3


@pytest.mark.parametrize("fn", [reads_c_elsewhere, recurrence, triangular, early_exit,
                                with_call, with_division, narrower_store,
                                store_misses_a_loop, counter_bound, local_sum_reads_c])
def test_unprovable_nests_are_refused(fn):
    a = np.ones((4, 4))
    second = {"narrower_store": np.zeros((4, 4), np.float32),
              "store_misses_a_loop": np.zeros(4),
              "local_sum_reads_c": np.zeros(4)}.get(fn.__name__, np.zeros((4, 4)))
    assert _nests(fn, a, second) == []


def test_search_space_offers_nests():
    A, B, C = np.ones((8, 8)), np.ones((8, 8)), np.zeros((8, 8))
    f = jit(fallback=False)(matmul)
    f(A, B, C)
    s = E._Search(f, (A, B, C), hyper=False, rtol=0, atol=0, seed=0, checks=1)
    assert len(s.nests) == 1 and len(s.nests[0]["orders"]) == 6
    g = s.canonical(dict(G.baseline(s.nloops, 1), nests=((7, 0, 0, 64, 32),)))
    assert g["nests"] == ((1, 0, 0, 64, 0),)           # order 7 % 6; no 4th loop
    par = s.canonical(dict(g, parallel=True)) if s.space["parallel"] else None
    assert par is None or par["nests"] == ((0,) * G.NEST_GENE,)
    assert "order (i, k, j), tiles j=64" in G.describe(g, s.nests)


def _fake_clock(monkeypatch, fast):
    """Replace evolve's timing: candidates for which ``fast(key)`` holds take 0.2,
    everything else 1.0 (the final runs see the winner as "best")."""
    def interleaved(calls, repeats, number):
        out = {}
        for k in calls:
            t = 1.0 if k == "baseline" else (0.2 if k == "best" or fast(k) else 1.0)
            out[k] = [t] * repeats
        return out
    monkeypatch.setattr(E, "_interleaved", interleaved)


def _nested(k):
    return any(any(gene) for gene in k[3])


def test_evolve_installs_the_interchanged_winner(monkeypatch):
    _fake_clock(monkeypatch, _nested)
    rng = np.random.default_rng(4)
    A, B = rng.standard_normal((24, 17)), rng.standard_normal((17, 31))
    f = jit(fallback=False)(matmul)
    C0 = np.empty((24, 31))
    f(A, B, C0)
    rep = f.evolve(A, B, np.empty((24, 31)), generations=2, population=6, seed=1,
                   progress=False)
    assert rep.installed and _nested(G.key(rep.genome))
    assert "nest line" in rep.strategy
    C1 = np.empty((24, 31))
    f(A, B, C1)
    assert C1.tobytes() == C0.tobytes()
    A2, B2 = rng.standard_normal((5, 9)), rng.standard_normal((9, 2))
    C2, C3 = np.empty((5, 2)), np.empty((5, 2))
    f(A2, B2, C2)
    jit(fallback=False)(matmul)(A2, B2, C3)
    assert C2.tobytes() == C3.tobytes()


def test_structural_candidates_are_every_order_untiled_and_tiled():
    space = {"nests": [{"orders": ["ijk", "ikj", "jik"]}, {"orders": ["ij"]}]}
    genes = [g["nests"] for g in G.structural(2, space)]
    tiled = (32,) * (G.NEST_GENE - 1)
    untiled = (0,) * (G.NEST_GENE - 1)
    first = [n[0] for n in genes if n[1] == (0,) + untiled]
    assert first == [(0,) + tiled, (1,) + untiled, (1,) + tiled, (2,) + untiled,
                     (2,) + tiled]
    assert [n[1] for n in genes if n[0] == (0,) + untiled] == [(0,) + tiled]
    assert all(g["loops"] == ((0, 0, 0),) * 2 for g in G.structural(2, space))


@pytest.mark.parametrize("seed", range(5))
def test_evolve_finds_the_interchange_on_every_seed(monkeypatch, seed):
    """The loop interchange is tried in the first generation whatever the random
    draws: with one generation of one random genome, the one fast order wins."""
    want = (3,) + (0,) * (G.NEST_GENE - 1)
    _fake_clock(monkeypatch, lambda k: k[3] == (want,))
    A, B = np.ones((6, 5)), np.ones((5, 7))
    f = jit(fallback=False)(matmul)
    f(A, B, np.empty((6, 7)))
    rep = f.evolve(A, B, np.empty((6, 7)), generations=1, population=2, seed=seed,
                   progress=False)
    assert rep.installed and rep.genome["nests"] == (want,)


def test_evolve_never_installs_a_slower_candidate(monkeypatch):
    monkeypatch.setattr(E, "_interleaved", lambda calls, r, n: {
        k: [1.0 if k == "baseline" else 1.5] * r for k in calls})
    A, B = np.ones((6, 6)), np.ones((6, 6))
    f = jit(fallback=False)(matmul)
    f(A, B, np.empty((6, 6)))
    rep = f.evolve(A, B, np.empty((6, 6)), generations=2, population=4, progress=False)
    assert not rep.installed
    assert rep["speedup"] == 1.0 and rep["installed"] is False


def test_evolve_never_installs_a_different_candidate(monkeypatch):
    """A pass that wrongly offered every order -- swapping the two reduction loops
    of k2_sum adds each c[i]'s terms in another order -- is caught by the checker:
    such candidates are rejected even when the (fake) clock says they are the
    fastest, and the function keeps the plain bits."""
    import itertools

    monkeypatch.setattr(X.Nest, "orders", lambda self: list(
        itertools.permutations(self.names)))
    monkeypatch.setattr(X.Nest, "tileable", lambda self, order: [False] * len(order))
    _fake_clock(monkeypatch, _nested)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 40, 50)) * np.logspace(-8, 8, 50)
    f = jit(fallback=False)(k2_sum)
    want = rng.standard_normal(6)
    c = want.copy()
    f(a, c)
    rep = f.evolve(a, want.copy(), generations=3, population=8, seed=2,
                   progress=False)
    assert rep.rejected > 0
    got = want.copy()
    f(a, got)
    assert got.tobytes() == c.tobytes()
    if rep.installed:
        order = rep.nests[0]["orders"][rep.genome["nests"][0][0]]
        assert order.index("k1") < order.index("k2")


def test_apply_checks_the_genome():
    A, B = np.ones((5, 4)), np.ones((4, 3))
    f = jit(fallback=False)(matmul)
    f(A, B, np.empty((5, 3)))
    genome = {"nests": ((1, 0, 0, 0, 0),)}
    assert E.apply(f, A, B, np.empty((5, 3)), genome=genome) is False  # no cache
    assert f._compiled[next(iter(f._compiled))].artifact.metadata["evolved"][
        "nests"] == ((1, 0, 0, 0, 0),)
    with pytest.raises(ValueError, match="not a safe"):
        E.apply(f, A, B, np.empty((5, 3)), genome={"reassoc": True})


# ------------------------------------------------------------------ disk cache
_KERNEL = '''
import numpy as np
from hanajit import jit


@jit(cache=True, fallback=False)
def mm(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]


def args():
    rng = np.random.default_rng(0)
    return rng.standard_normal((12, 7)), rng.standard_normal((7, 9)), np.zeros((12, 9))
'''


def _run(tmp_path, code):
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, check=False,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_cached_winner_loads_in_a_fresh_process(tmp_path):
    (tmp_path / "kern_cache.py").write_text(_KERNEL)
    out = _run(tmp_path, """
        from hanajit import evolve as E
        from kern_cache import mm, args
        a, b, c = args()
        mm(a, b, c)
        print(E.apply(mm, *args(), genome={"nests": ((4, 0, 0, 0, 0),)}))
        a, b, c = args()
        mm(a, b, c)
        print(c.tobytes().hex())
    """)
    assert out[0] == "True"
    out2 = _run(tmp_path, """
        from hanajit import cache
        from kern_cache import mm, args
        a, b, c = args()
        mm(a, b, c)
        spec = next(iter(mm._compiled.values()))
        nests = spec.artifact.metadata.get("evolved", {}).get("nests")
        print(cache.stats["hits"], str(nests).replace(" ", ""))
        ir = mm.inspect_ir()                  # rebuilt with the winner's nest order
        print(ir.count("if ") > 0 and ir.index("k = ") < ir.index("i = "))
        print(c.tobytes().hex())
    """)
    assert out2[:3] == ["1", "((4,0,0,0,0),)", "True"]
    assert out2[-1] == out[-1]


def test_evolve_hyper_winner_is_never_cached(tmp_path):
    (tmp_path / "kern_cache.py").write_text(_KERNEL)
    out = _run(tmp_path, """
        from hanajit import evolve as E
        from kern_cache import mm, args
        def plain(k):
            return not (k[0] or k[1] or any(map(any, k[2])) or any(map(any, k[3])))
        E._interleaved = lambda calls, r, n: {
            k: [1.0 if k == "baseline" or (k != "best" and plain(k)) else 0.2] * r
            for k in calls}
        mm(*args())
        rep = mm.evolve_hyper(*args(), confirmed=True, generations=1, population=3,
                              progress=False)
        print(rep.installed, rep.cached)
    """)
    assert out == ["True", "False"]
    out2 = _run(tmp_path, """
        from hanajit import cache
        from kern_cache import mm, args
        mm(*args())
        spec = next(iter(mm._compiled.values()))
        print(cache.stats["hits"], "evolved" in spec.artifact.metadata)
    """)
    assert out2 == ["1", "False"]
