"""evolve_hyper's reciprocal (``arcp``) and approximate-function (``afn``) genes:
offered to evolve_hyper only and only where they can change the code, applied
through the ``fastmath`` option, checked within the tolerance on the random batch
(a candidate outside it is rejected), never offered to evolve() nor cached.  The
clock is faked where a test needs a winner; no test asserts on time."""

import random
import re

import numpy as np
import pytest
from hanajit import cache, jit
from hanajit import evolve as E
from hanajit.evolve import _Search
from hanajit.evolve import genome as G

SMALL = {"generations": 2, "population": 6, "progress": False}


def scale(x, d, out):
    for i in range(x.shape[0]):
        out[i] = x[i] / d


def square(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] ** 2


def _args(n=1000, seed=0):
    x = np.random.default_rng(seed).standard_normal(n)
    return x, 3.3, np.empty_like(x)


def _fake_clock(monkeypatch, fast):
    """Candidates whose genome key satisfies ``fast`` take half the baseline's
    time, in the search and in the final confirmation runs."""
    monkeypatch.setattr(E, "_interleaved", lambda calls, r, n: {
        k: [0.5 if k == "best" or (k != "baseline" and fast(k)) else 1.0] * r
        for k in calls})


def _serial_recip(k):
    return G.from_key(k)["recip"] and not G.from_key(k)["parallel"]


def _loop_lines(ir: str, word: str) -> list:
    """The lines holding ``word`` in blocks of a loop: from a block that a later
    (or the same) block branches back to, up to that block."""
    out = []
    for fn in ir.split("\ndefine ")[1:]:
        blocks = re.split(r"\n(?=[\w.$-]+:)", fn.split("\n}")[0])
        index = {}
        for k, b in enumerate(blocks):
            m = re.match(r"([\w.$-]+):", b)
            if m:
                index[m.group(1)] = k
        inside = set()
        for k, b in enumerate(blocks):
            for target in re.findall(r"label %([\w.$-]+)", b):
                j = index.get(target)
                if j is not None and j <= k:
                    inside.update(range(j, k + 1))
        out += [ln for k in sorted(inside) for ln in blocks[k].splitlines()
                if word in ln]
    return out


def _ir(runner) -> str:
    return runner.hj_evolve[1].stages["llvm"]


def _genome(s, **genes):
    return s.canonical(dict(G.baseline(s.nloops, len(s.nests)), **genes))


def test_genes_are_offered_where_they_change_something():
    f, g = jit(fallback=False)(scale), jit(fallback=False)(square)
    s = _Search(f, _args(), hyper=True, rtol=1e-6, atol=1e-9, seed=0, checks=2)
    assert s.space["recip"] and not s.space["afn"]
    x, _, out = _args()
    s = _Search(g, (x, out), hyper=True, rtol=1e-6, atol=1e-9, seed=0, checks=2)
    assert s.space["afn"] and not s.space["recip"]


def test_reciprocal_gene_hoists_the_division():
    """arcp on the division by a loop-invariant: the loop multiplies by 1/d and
    has no fdiv left (the plain compilation divides in the loop)."""
    f = jit(fallback=False)(scale)
    s = _Search(f, _args(), hyper=True, rtol=1e-6, atol=1e-9, seed=0, checks=4)
    plain = s.build(_genome(s))
    assert _loop_lines(_ir(plain), " fdiv ")          # the helper sees loops
    recip = s.build(_genome(s, recip=True))
    assert recip is not None
    ir = _ir(recip)
    assert not _loop_lines(ir, " fdiv ")
    assert [ln for ln in _loop_lines(ir, " fmul ") if "arcp" in ln]
    assert re.search(r"fdiv arcp double 1\.0+e\+00, ", ir)


def test_approximate_function_gene_replaces_the_pow_call():
    g = jit(fallback=False)(square)
    x, _, out = _args()
    s = _Search(g, (x, out), hyper=True, rtol=1e-6, atol=1e-9, seed=0, checks=4)
    assert [ln for ln in _ir(s.build(_genome(s))).splitlines()
            if "call" in ln and "pow" in ln]
    ir = _ir(s.build(_genome(s, afn=True)))
    assert not [ln for ln in ir.splitlines() if "call" in ln and "pow" in ln]
    assert [ln for ln in _loop_lines(ir, " fmul ") if "afn" in ln]


def test_the_winner_carries_the_reciprocal_gene_and_stays_within_tolerance(
        monkeypatch):
    _fake_clock(monkeypatch, _serial_recip)
    f = jit(fallback=False)(scale)
    x, d, out = _args()
    f(x, d, out)
    rep = f.evolve_hyper(x, d, out, confirmed=True, checks=8, **SMALL)
    assert rep.installed and rep.genome["recip"] and not rep.genome["afn"]
    assert "reciprocals (arcp)" in rep.strategy
    spec = next(iter(f._compiled.values()))
    assert not _loop_lines(spec.artifact.stages["llvm"], " fdiv ")
    for seed in range(4):                                   # fresh arguments too
        x, _, out = _args(777 + seed, seed)
        for dd in (d, -0.37, 1e-3, 7.0):
            f(x, dd, out)
            np.testing.assert_allclose(out, x / dd, rtol=1e-6, atol=1e-9)


def test_a_candidate_outside_the_tolerance_is_rejected(monkeypatch):
    """x * (1/d) differs from x / d in the last bit for some x: with a zero
    tolerance the reciprocal candidate is rejected, and even when the clock
    says it is fastest the exact division stays."""
    f = jit(fallback=False)(scale)
    x, d, out = _args()
    s = _Search(f, (x, d, out), hyper=True, rtol=0.0, atol=0.0, seed=0, checks=4)
    assert s.build(_genome(s, recip=True)) is None and s.rejected == 1
    s = _Search(f, (x, d, out), hyper=True, rtol=1e-6, atol=1e-9, seed=0, checks=4)
    assert s.build(_genome(s, recip=True)) is not None and s.rejected == 0
    _fake_clock(monkeypatch, _serial_recip)
    rep = f.evolve_hyper(x, d, out, confirmed=True, rtol=0.0, atol=0.0, checks=4,
                         **SMALL)
    assert not rep.genome["recip"]
    f(x, d, out)
    assert out.tobytes() == (x / d).tobytes()


def test_plain_evolve_never_uses_the_hyper_genes(monkeypatch):
    f = jit(fallback=False)(scale)
    args = _args()
    s = _Search(f, args, hyper=False, rtol=0, atol=0, seed=0, checks=2)
    assert not s.space["recip"] and not s.space["afn"]
    rng = random.Random(0)
    for _ in range(200):
        g = G.random_genome(rng, s.nloops, s.space)
        g = G.mutate(G.crossover(g, g, rng), rng, s.space, rate=1.0)
        assert not G.fastmath_flags(g)
    _fake_clock(monkeypatch, lambda k: True)            # anything is "faster"
    f(*args)
    rep = f.evolve(*args, **SMALL)
    assert not rep.genome["recip"] and not rep.genome["afn"]
    spec = next(iter(f._compiled.values()))
    assert "arcp" not in spec.artifact.stages["llvm"]
    x, d, out = _args()
    f(x, d, out)
    assert out.tobytes() == (x / d).tobytes()
    with pytest.raises(ValueError, match="not a safe evolve"):
        E.apply(f, *_args(), genome={"recip": True})
    with pytest.raises(ValueError, match="not a safe evolve"):
        E.apply(f, *_args(), genome={"afn": True})


def test_old_genome_keys_read_without_the_genes():
    g = G.from_key((False, False, ((0, 0, 0),), (), (0,), (0,)))
    assert g["recip"] is False and g["afn"] is False
    assert G.from_key(G.key(dict(g, recip=True)))["recip"] is True


def test_a_hyper_winner_with_these_genes_is_never_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path / "cache"))
    _fake_clock(monkeypatch, _serial_recip)
    f = jit(cache=True, fallback=False)(scale)
    x, d, out = _args()
    f(x, d, out)
    rep = f.evolve_hyper(x, d, out, confirmed=True, checks=4, **SMALL)
    assert rep.installed and rep.genome["recip"] and rep.cached is False
    hits = cache.stats["hits"]
    fresh = jit(cache=True, fallback=False)(scale)        # loads the disk entry
    fresh(x, d, out)
    assert cache.stats["hits"] == hits + 1
    spec = next(iter(fresh._compiled.values()))
    assert "evolved" not in spec.artifact.metadata
    assert out.tobytes() == (x / d).tobytes()
