"""evolve's prefetch and alignment genes: the lowering issues llvm.prefetch for
loads affine in the loop counter (never for gathers) and versions a loop on a
64-byte alignment test (llvm.assume only in the tested copy); every gene value
keeps every bit on reductions, stencils, strided, reversed, aligned, misaligned
and empty arrays, and evolve installs such a winner only when it is checked and
(fake-clock) faster.  No test asserts on time."""

import random

import numpy as np
import pytest
from hanajit import evolve as E
from hanajit import jit
from hanajit.evolve import _Search
from hanajit.evolve import genome as G
from hanajit.ir import types as T
from hanajit.lowering import prefetch as P
from hanajit.lowering.llvm import ModuleLowering
from hanajit.pipeline import compile_ir

CALL = 'call void @"llvm.prefetch.p0"('


def fsum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * 1.5
    return s


def isum(x):
    s = 0
    for i in range(x.shape[0]):
        s += x[i] * 3
    return s


def stencil(x, out):
    for i in range(1, x.shape[0] - 1):
        out[i] = x[i - 1] + x[i + 1] - 2.0 * x[i]


def gather(x, idx):
    s = 0.0
    for i in range(idx.shape[0]):
        s += x[idx[i]]
    return s


def rowsum(a, out):
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j]
        out[i] = s


def _ir(fn, types, distance):
    strategy = {"loops": {0: {"prefetch": distance}}} if distance else None
    module, _ = compile_ir(fn, types, {"strategy": strategy} if strategy else {})
    return str(ModuleLowering(module).lower())


def two_loops(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * 2.0
    for i in range(x.shape[0]):
        out[i] += 1.0


def aligned(n, dtype=np.float64, off=0):
    """A zeroed 1-D array whose data starts ``off`` elements past 64 bytes."""
    buf = np.zeros(n + 16, dtype)
    k = (-buf.ctypes.data % 64) // buf.itemsize
    return buf[k + off:k + off + n]


A1 = T.ArrayType(T.FLOAT64, 1, "A")
C1 = T.ArrayType(T.FLOAT64, 1, "C")


def test_lowering_emits_prefetch_for_affine_loads():
    text = _ir(stencil, (A1, A1), 16)
    assert text.count(CALL) == 3                       # x[i-1], x[i+1], x[i]
    assert "i32 0, i32 3, i32 1)" in text              # read, locality 3, data
    assert CALL not in _ir(stencil, (A1, A1), 0)
    assert "llvm.prefetch" not in _ir(stencil, (A1, A1), 0)


def test_gathers_get_no_prefetch():
    text = _ir(gather, (C1, T.ArrayType(T.INT64, 1, "C")), 32)
    assert text.count(CALL) == 1                       # idx[i] only, not x[idx[i]]


def test_align_versions_the_loop_behind_a_test():
    strategy = {"loops": {0: {"align": 64, "unroll": 4}, 1: {"unroll": 2}}}
    module, _ = compile_ir(two_loops, (C1, C1), {"strategy": strategy})
    text = str(ModuleLowering(module).lower())
    assert text.count('call void @"llvm.assume"(') == 2     # x and out, tested copy
    assert text.count("align.yes:") == 1 and text.count("align.no:") == 1
    assert text.count('llvm.loop.unroll.count", i32 4') == 1  # hinted copy only
    assert text.count('llvm.loop.unroll.count", i32 2') == 1  # loop 1 is still 1
    assert text.count("!llvm.loop !") == 2
    plain, _ = compile_ir(two_loops, (C1, C1), {})
    assert "llvm.assume" not in str(ModuleLowering(plain).lower())


def test_affine_names_follow_the_counter():
    module, _ = compile_ir(stencil, (C1, C1), {})
    from hanajit.ir import nodes as N
    loops = G.counted_loops(module)
    names = P.affine_names(loops[0])
    assert "i" in names and loops[0].counter in names
    assert not any(isinstance(s, N.ForCount) for s in N.walk_stmts(loops[0].body))


def _cases():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(1001)
    x[[3, 50, 400]] = [np.nan, np.inf, -0.0]
    misaligned = np.empty(1002)[1:]
    misaligned[:] = x
    on64 = aligned(1001)
    on64[:] = x
    ints64 = aligned(777, np.int64)
    ints = rng.integers(-(2**62), 2**62, 777)
    ints[:3] = [np.iinfo(np.int64).max, np.iinfo(np.int64).min, -1]
    ints64[:] = ints
    a2 = rng.standard_normal((37, 53))
    idx = rng.integers(0, x.shape[0], 500)
    return [
        ("fsum", fsum, lambda: (x,)),
        ("fsum strided", fsum, lambda: (x[::3],)),
        ("fsum reversed", fsum, lambda: (x[::-1],)),
        ("fsum misaligned", fsum, lambda: (misaligned,)),
        ("fsum empty", fsum, lambda: (np.empty(0),)),
        ("fsum aligned", fsum, lambda: (on64,)),
        ("isum aligned", isum, lambda: (ints64,)),
        ("stencil aligned", stencil, lambda: (on64, aligned(1001))),
        ("stencil half aligned", stencil, lambda: (on64, aligned(1001, off=1))),
        ("two loops aligned", two_loops, lambda: (on64, aligned(1001))),
        ("isum limits", isum, lambda: (ints,)),
        ("isum strided", isum, lambda: (ints[1::2],)),
        ("stencil", stencil, lambda: (x, np.zeros_like(x))),
        ("stencil misaligned", stencil, lambda: (misaligned, np.zeros(1002)[1:])),
        ("stencil strided", stencil, lambda: (x[::2], np.zeros(x.shape[0] * 2)[::4])),
        ("stencil empty", stencil, lambda: (np.empty(0), np.empty(0))),
        ("gather", gather, lambda: (x, idx)),
        ("rowsum F", rowsum, lambda: (np.asfortranarray(a2), np.empty(37))),
        ("rowsum transposed", rowsum, lambda: (a2.T, np.empty(53))),
    ]


def _outcome(fn, make):
    """Result and arrays afterwards of ``fn`` on fresh arguments (the kernels
    write only their output arrays, which ``make`` makes anew each time)."""
    args = make()
    with np.errstate(all="ignore"):      # int64 wrap-around in CPython's reference
        r = fn(*args)
    return np.asarray(r).tobytes(), [a.tobytes() for a in args if isinstance(a, np.ndarray)]


GENES = [{"prefetch": d} for d in G.PREFETCH[1:]] + [
    {"align": 64}, {"align": 64, "prefetch": 16}]


@pytest.mark.parametrize("name,fn,make", _cases(), ids=[c[0] for c in _cases()])
def test_every_gene_keeps_every_bit(name, fn, make):
    want = _outcome(fn, make)                          # CPython
    jf = jit(fallback=False)(fn)
    assert _outcome(jf, make) == want
    s = _Search(jf, make(), hyper=False, rtol=0, atol=0, seed=0, checks=2)
    for genes in GENES:
        g = s.canonical(dict(G.baseline(s.nloops, len(s.nests)),
                             **{k: (v,) * s.nloops for k, v in genes.items()}))
        runner = s.build(g)                            # checked bit for bit inside
        assert runner is not None, (name, genes)
        assert _outcome(runner, make) == want, (name, genes)
        module, _ = runner.hj_evolve
        hints = module.strategy["loops"].values()
        assert all(any(h.get(k) == v for h in hints) for k, v in genes.items())


def test_genome_operators_keep_prefetch_genes():
    rng = random.Random(3)
    space = {"parallel": False, "reassoc": False, "nests": []}
    base = G.baseline(3)
    assert base["prefetch"] == (0, 0, 0) and G.describe(base) == "baseline (no hints)"
    seen = set()
    for _ in range(60):
        a = G.random_genome(rng, 3, space)
        b = G.mutate(G.crossover(a, base, rng), rng, space)
        for g in (a, b):
            assert len(g["prefetch"]) == 3 and set(g["prefetch"]) <= set(G.PREFETCH)
            assert len(g["align"]) == 3 and set(g["align"]) <= set(G.ALIGN)
            assert G.from_key(G.key(g)) == g
            seen.update(("p", d) for d in g["prefetch"])
            seen.update(("a", d) for d in g["align"])
    assert seen == {("p", d) for d in G.PREFETCH} | {("a", d) for d in G.ALIGN}
    assert base["align"] == (0, 0, 0)
    g = dict(base, prefetch=(16, 0, 64), align=(64, 64, 64))
    # loop 2 holds a loop: no hint there
    eff = G.effective(g, {False: [True, False, False]}, False, [False, False, True])
    assert eff["prefetch"] == (16, 0, 0) and eff["align"] == (64, 64, 0)
    st = G.strategy(eff, [True, False, False], False, [False, False, True])
    assert st["loops"] == {0: {"prefetch": 16, "align": 64}, 1: {"align": 64}}
    assert G.describe(eff) == "loop 0: prefetch=16, align=64; loop 1: align=64"
    old = {"parallel": False, "reassoc": False, "loops": ((0, 0, 0),), "nests": ()}
    assert G.prefetch_genes(old) == (0,) and G.align_genes(old) == (0,)
    assert G.from_key(G.key(old))["prefetch"] == (0,)     # a genome from before
    assert G.from_key(G.key(old)[:4])["align"] == (0,)


def _fake_clock(monkeypatch, fast):
    def interleaved(calls, repeats, number):
        return {k: [1.0 if k == "baseline" else 0.2 if k == "best" or fast(k)
                    else 1.0] * repeats for k in calls}
    monkeypatch.setattr(E, "_interleaved", interleaved)


def _prefetching(k):
    return any(k[4])


def test_evolve_installs_a_checked_prefetch_winner(monkeypatch):
    _fake_clock(monkeypatch, _prefetching)
    x = np.random.default_rng(2).standard_normal(3000)
    out, ref = np.zeros_like(x), np.zeros_like(x)
    stencil(x, ref)
    f = jit(fallback=False)(stencil)
    rep = f.evolve(x, np.zeros_like(x), generations=2, population=6, seed=1,
                   progress=False)
    assert rep.installed and any(rep.genome["prefetch"])
    assert "prefetch=" in rep.strategy and "prefetch=" in str(rep)
    f(x, out)
    assert out.tobytes() == ref.tobytes()


def test_evolve_installs_a_checked_align_winner(monkeypatch):
    _fake_clock(monkeypatch, lambda k: any(k[5]))
    x = aligned(2000)
    x[:] = np.random.default_rng(6).standard_normal(2000)
    f = jit(fallback=False)(stencil)
    rep = f.evolve(x, aligned(2000), generations=2, population=6, seed=1,
                   progress=False)
    assert rep.installed and any(rep.genome["align"]) and "align=64" in rep.strategy
    for src, dst in ((x, aligned(2000)), (aligned(2000, off=1), aligned(2000, off=3))):
        src[:] = x
        ref = np.zeros_like(dst)
        stencil(src, ref)
        f(src, dst)
        assert dst.tobytes() == ref.tobytes()


def test_evolve_never_installs_a_slower_prefetch(monkeypatch):
    monkeypatch.setattr(E, "_interleaved", lambda calls, r, n: {
        k: [1.0 if k == "baseline" else 1.3] * r for k in calls})
    x = np.random.default_rng(3).standard_normal(500)
    f = jit(fallback=False)(fsum)
    want = f(x)
    rep = f.evolve(x, generations=2, population=6, seed=2, progress=False)
    assert not rep.installed
    assert rep["speedup"] == 1.0 and rep["installed"] is False
    assert np.float64(f(x)).tobytes() == np.float64(want).tobytes()


def test_a_prefetch_that_fails_to_build_is_rejected(monkeypatch):
    """A broken prefetch lowering makes its candidates fail to compile: they are
    rejected, never installed, though the fake clock calls them fastest."""
    def broken(fl, sites, distance):
        raise RuntimeError("broken prefetch")
    monkeypatch.setattr(P, "emit", broken)
    _fake_clock(monkeypatch, _prefetching)
    x = np.random.default_rng(4).standard_normal(800)
    f = jit(fallback=False)(fsum)
    want = f(x)
    rep = f.evolve(x, generations=2, population=6, seed=5, progress=False)
    assert rep.rejected > 0 and not any(rep.genome["prefetch"])
    assert np.float64(f(x)).tobytes() == np.float64(want).tobytes()


def test_no_alignment_copy_under_reassociation():
    """With reassoc the aligned and the plain copy could round a sum differently,
    so a result would depend on where the arrays lie (a candidate checked on
    copies of the arguments then differed on the caller's own array, 1 run in 6):
    the align gene is dropped, in the strategy and in the genome's key."""
    g = {"parallel": False, "reassoc": True, "loops": ((4, 8, 1), (0, 0, 0)),
         "nests": (), "prefetch": (8, 0), "align": (64, 0)}
    assert all("align" not in h for h in G.strategy(g, [True, False], True)["loops"]
               .values())
    assert G.effective(g, {False: [True, False]}, True)["align"] == (0, 0)
    plain = dict(g, reassoc=False)
    assert G.strategy(plain, [True, False], True)["loops"][0]["align"] == 64
