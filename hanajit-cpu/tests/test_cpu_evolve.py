"""f.evolve / f.evolve_hyper: candidates are checked bit for bit, only a checked
winner is installed, float reductions never get reordering hints in safe mode,
arguments are never mutated, evolve_hyper needs confirmation.  Searches are tiny
(a couple of generations of a few candidates) and no test asserts on time."""

import numpy as np
import pytest
from hanajit import jit
from hanajit import evolve as E
from hanajit.evolve import EvolveReport, _install, _Search
from hanajit.evolve import genome as G
from hanajit.evolve import verify as V
from hanajit.ir import types as T
from hanajit.lowering.llvm import ModuleLowering
from hanajit.pipeline import compile_ir

SMALL = {"generations": 2, "population": 3, "progress": False}


def poly(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        out[i] = ((0.3 * v + 1.2) * v - 0.7) * v + 2.0


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


def bump(x):
    for i in range(x.shape[0]):
        x[i] += 1.0


def matmul(A, B, C):
    n, m = A.shape
    p = B.shape[1]
    for i in range(n):
        for j in range(p):
            s = 0.0
            for k in range(m):
                s += A[i, k] * B[k, j]
            C[i, j] = s


def _bits(a):
    return np.asarray(a).tobytes()


def test_loop_metadata_from_strategy():
    strategy = {"loops": {0: {"unroll": 4, "interleave": 2, "width": 8}}}
    module, _ = compile_ir(
        poly, (T.ArrayType(T.FLOAT64, 1, "C"),) * 2, {"strategy": strategy}
    )
    text = str(ModuleLowering(module).lower())
    for hint in (
        'llvm.loop.unroll.count", i32 4',
        'llvm.loop.interleave.count", i32 2',
        'llvm.loop.vectorize.width", i32 8',
    ):
        assert hint in text
    assert "!llvm.loop" in text
    plain, _ = compile_ir(poly, (T.ArrayType(T.FLOAT64, 1, "C"),) * 2, {})
    assert "llvm.loop" not in str(ModuleLowering(plain).lower())


# evolve compiles with a strategy (passes/jam_loops.py then leaves the loops as
# written, which its genes name)
EVOLVED = {"strategy": {}}


def test_inventory_marks_float_accumulators():
    arr = T.ArrayType(T.FLOAT64, 2, "C")
    module, _ = compile_ir(matmul, (arr, arr, arr), EVOLVED)
    assert G.inventory(module) == [True, True, True]
    module, _ = compile_ir(poly, (T.ArrayType(T.FLOAT64, 1, "C"),) * 2, {})
    assert G.inventory(module) == [False]
    module, _ = compile_ir(bump, (T.ArrayType(T.FLOAT64, 1, "C"),), {})
    assert G.inventory(module) == [True]  # x[i] = x[i] + 1.0: kept in order


def test_safe_mode_drops_widths_on_float_reductions():
    g = {"parallel": False, "reassoc": False, "loops": ((4, 2, 16), (2, 2, 8))}
    s = G.strategy(g, [True, False], hyper=False)
    assert s["loops"][0] == {"unroll": 4, "interleave": 2, "width": 0}
    assert s["loops"][1]["width"] == 8
    assert G.strategy(g, [True, False], hyper=True)["loops"][0]["width"] == 16


def test_evolve_elementwise_bit_identical():
    f = jit(fallback=False)(poly)
    x = np.random.default_rng(1).standard_normal(5000)
    out, ref = np.empty_like(x), np.empty_like(x)
    f(x, ref)
    x_before = x.copy()
    rep = f.evolve(x, out, seed=3, **SMALL)
    assert rep.baseline_s > 0 and rep.best_s > 0 and rep.speedup > 0
    assert isinstance(rep.installed, bool) and rep.rejected == 0
    # the function got faster only if the winner was installed
    assert rep.candidate_speedup == rep.baseline_s / rep.best_s
    assert rep.speedup == (rep.candidate_speedup if rep.installed else 1.0)
    assert set(rep.genome) == {"parallel", "reassoc", "recip", "afn", "loops", "nests",
                               "prefetch", "align"}
    assert not rep.genome["recip"] and not rep.genome["afn"]
    assert _bits(x) == _bits(x_before)
    f(x, out)
    assert _bits(out) == _bits(ref)
    assert "evolve poly" in str(rep)


def _report(**kw):
    fields = dict(function="f", baseline_s=2e-3, best_s=1e-3, speedup=2.0,
                  genome=G.baseline(1, 0), installed=True, noise=0.01,
                  candidate_speedup=2.0)
    return EvolveReport(**dict(fields, **kw))


def test_the_report_reads_as_a_mapping():
    """The product description's ``report["speedup"]`` and friends."""
    from collections.abc import Mapping
    rep = _report()
    assert isinstance(rep, Mapping)
    assert rep["speedup"] == 2.0 and rep["installed"] is True
    assert rep["baseline_ms"] == pytest.approx(2.0)
    assert rep["best_ms"] == pytest.approx(1.0)
    assert rep["genome"] is rep.genome and rep["candidate_speedup"] == 2.0
    assert list(rep)[:5] == ["speedup", "baseline_ms", "best_ms", "genome", "installed"]
    assert len(rep) == len(list(rep.keys())) == len(dict(rep))
    assert "speedup" in rep and "baseline_s" not in rep and "nope" not in rep
    assert [] not in rep            # an unhashable key is simply absent
    assert rep.get("nope", 7) == 7 and dict(rep.items())["installed"] is True
    with pytest.raises(KeyError):
        rep["nope"]
    assert rep["strategy"] == rep.strategy and rep.baseline_ms == rep["baseline_ms"]
    # attributes, equality and the printed form are the dataclass's
    assert rep == _report() and rep != _report(installed=False)
    assert str(rep).startswith("evolve f: baseline 2000.0 us, best 1000.0 us (2.00x, ")


def test_the_printed_report_names_a_rejected_candidates_ratio():
    rep = _report(installed=False, speedup=1.0, candidate_speedup=2.0)
    assert rep["speedup"] == 1.0
    assert "(1.00x, best candidate 2.00x, noise" in str(rep)
    assert "not installed" in str(rep)


def test_nothing_installed_means_speedup_one(monkeypatch):
    """A candidate faster on the median but not in nine rounds out of ten is not
    installed: the function did not get faster (``speedup`` 1.0); the candidate's
    own ratio is ``candidate_speedup``.  Times are faked, nothing is timed."""
    first = {}

    def fake(calls, r, n):
        if "best" in calls:     # the final run: faster on the median only
            return {"baseline": [1.0] * r, "best": [0.8] * (r - 6) + [1.2] * 6}
        first.setdefault("base", list(calls)[1])     # the baseline genome
        return {k: [1.0 if k in ("baseline", first["base"]) else 0.8] * r
                for k in calls}

    monkeypatch.setattr(E, "_interleaved", fake)
    f = jit(fallback=False)(fsum)
    x = np.random.default_rng(6).standard_normal(300)
    want = f(x)
    for search in (f.evolve, lambda *a, **k: f.evolve_hyper(*a, confirmed=True, **k)):
        rep = search(x, **SMALL)
        assert not rep.installed and rep.genome != G.from_key(first["base"])
        assert rep["speedup"] == rep.speedup == 1.0
        assert rep["candidate_speedup"] == pytest.approx(1.25)
        assert rep["best_ms"] == pytest.approx(0.8e3) and rep["baseline_ms"] == 1e3
        # the paired rounds spread 50%: said in words
        assert rep["verdict"].startswith("too noisy to decide: the best candidate was "
                                         "1.25x on the median, but the paired rounds "
                                         "spread 50%"), rep.verdict
        assert rep.verdict in str(rep)
        assert _bits(f(x)) == _bits(want)


def test_the_verdict_of_an_installed_winner_and_of_a_steady_loser(monkeypatch):
    """Installed: the words say why; a candidate that is steadily not faster is
    not "too noisy".  Times are faked."""
    first = {}

    def steady(win):
        def fake(calls, r, n):
            if "best" in calls:
                return {"baseline": [1.0] * r, "best": [0.5 if win else 1.0] * r}
            first.setdefault("base", list(calls)[1])
            return {k: [1.0 if k in ("baseline", first["base"]) else 0.8] * r
                    for k in calls}
        return fake
    x = np.random.default_rng(6).standard_normal(300)
    monkeypatch.setattr(E, "_interleaved", steady(True))
    rep = jit(fallback=False)(fsum).evolve(x, **SMALL)
    assert rep.installed and rep.verdict.startswith("faster in nine paired rounds")
    first.clear()
    monkeypatch.setattr(E, "_interleaved", steady(False))
    rep = jit(fallback=False)(fsum).evolve(x, **SMALL)
    assert not rep.installed
    assert rep.verdict == "the best candidate was not faster in the confirmation runs"


def test_evolve_float_sum_keeps_bits():
    f = jit(fallback=False)(fsum)
    x = np.random.default_rng(2).standard_normal(3001)
    want = f(x)
    rep = f.evolve(x, seed=1, **SMALL)
    assert all(w == 0 for (_, _, w) in rep.genome["loops"][:1])
    assert _bits(f(x)) == _bits(want)
    y = np.random.default_rng(5).standard_normal(3001)
    assert _bits(f(y)) == _bits(jit(fallback=False)(fsum)(y))


def test_evolve_mutating_kernel_runs_on_copies():
    f = jit(fallback=False)(bump)
    x = np.arange(100.0)
    f(x)
    snapshot = x.copy()
    f.evolve(x, **SMALL)
    assert _bits(x) == _bits(snapshot)
    f(x)
    assert _bits(x) == _bits(snapshot + 1.0)


def test_install_replaces_the_entry():
    f = jit(fallback=False)(isum)
    x = np.arange(1000, dtype=np.int64)
    assert f(x) == isum(x)
    s = _Search(f, (x,), hyper=False, rtol=0, atol=0, seed=0, checks=2)
    g = {"parallel": False, "reassoc": False, "loops": ((4, 2, 8),)}
    runner = s.build(s.canonical(g))
    assert runner is not None
    _install(f, s.spec_key, runner)
    assert f._compiled[s.spec_key].runner is runner
    assert f(x) == isum(x)
    assert f(np.arange(7, dtype=np.int64)) == isum(np.arange(7))


def test_checker_rejects_different_bits():
    """A reassociated float sum differs in the last bits: with zero tolerance
    evolve_hyper must reject those candidates and keep the exact result."""
    f = jit(fallback=False)(fsum)
    x = np.random.default_rng(3).standard_normal(4099) * 1e3
    want = f(x)
    s = _Search(f, (x,), hyper=True, rtol=0.0, atol=0.0, seed=0, checks=4)
    g = {"parallel": False, "reassoc": True, "loops": ((0, 4, 8),)}
    assert s.build(s.canonical(g)) is None and s.rejected == 1
    rep = f.evolve_hyper(x, confirmed=True, rtol=0.0, atol=0.0, checks=4, **SMALL)
    assert _bits(f(x)) == _bits(want)
    assert not rep.installed or not rep.genome["reassoc"]


def test_evolve_hyper_within_tolerance():
    f = jit(fallback=False)(fsum)
    x = np.random.default_rng(4).standard_normal(2000)
    want = fsum(x)
    rep = f.evolve_hyper(x, confirmed=True, checks=4, **SMALL)
    assert rep.hyper and rep.tolerance == (1e-6, 1e-9)
    assert rep["speedup"] == rep.speedup and rep["installed"] == rep.installed
    assert f(x) == pytest.approx(want, rel=1e-9)


def test_evolve_hyper_needs_confirmation():
    f = jit(fallback=False)(fsum)
    x = np.ones(10)
    with pytest.raises(ValueError, match="confirmed=True"):
        f.evolve_hyper(x)
    with pytest.raises(ValueError, match="confirmed=True"):
        f.evolve_hyper(x, confirmed="yes")


def test_evolve_of_interpreted_function_is_a_clear_error():
    def uses_dict(n):
        return {"a": n}["a"]

    f = jit(uses_dict)
    with pytest.warns(Warning):
        f(3)
    with pytest.raises(ValueError, match="interpreter"):
        f.evolve(3, **SMALL)


def test_progress_bar_on_stderr(capsys):
    f = jit(fallback=False)(isum)
    x = np.arange(50, dtype=np.int64)
    f.evolve(x, generations=2, population=2, progress=True)
    err = capsys.readouterr().err
    assert "generation 2/2" in err


# ------------------------------------------------------------------ the checker
def test_same_bits_is_exact():
    o = V.Outcome
    assert V.same_bits(o(0.0), o(0.0)) and not V.same_bits(o(0.0), o(-0.0))
    assert V.same_bits(o(float("nan")), o(float("nan")))
    a = np.array([1.0, np.nan, -0.0])
    assert V.same_bits(o(a), o(a.copy()))
    assert not V.same_bits(o(a), o(np.array([1.0, np.nan, 0.0])))
    assert not V.same_bits(o(a), o(a.astype(np.float32)))
    assert V.same_bits(o(error=(IndexError, "x")), o(error=(IndexError, "x")))
    assert not V.same_bits(o(1), o(error=(IndexError, "x")))
    assert V.close(o(1.0), o(1.0 + 1e-12), 1e-9, 0.0)
    assert not V.close(o(np.array([np.nan])), o(np.array([1.0])), 1e-3, 1.0)


def test_random_args_keep_types():
    import random

    from hanajit.typing_rules import typeof

    base = np.arange(24.0).reshape(4, 6)
    ro = np.arange(5)
    ro.flags.writeable = False
    args = (base, base[:, ::2], np.asfortranarray(base), ro, 7, 2.5, True, (1, 2.0))
    fresh = V.random_args(args, random.Random(0))
    assert [typeof(a) for a in fresh] == [typeof(a) for a in args]
    assert 0 <= fresh[4] <= 9 or -2 <= fresh[4] <= 9


def test_parallel_offered_only_when_exact():
    arr2 = T.ArrayType(T.FLOAT64, 2, "C")
    module, _ = compile_ir(matmul, (arr2, arr2, arr2), EVOLVED)
    assert G.parallel_is_exact(module)             # s = 0.0 for every (i, j)
    module, _ = compile_ir(fsum, (T.ArrayType(T.FLOAT64, 1, "C"),), {})
    assert not G.parallel_is_exact(module)         # a float sum across iterations
    rng = np.random.default_rng(6)
    A, B = rng.standard_normal((17, 9)), rng.standard_normal((9, 13))
    f = jit(fallback=False)(matmul)
    C = np.empty((17, 13))
    f(A, B, C)
    s = _Search(f, (A, B, C), hyper=False, rtol=0, atol=0, seed=0, checks=2)
    assert s.space["parallel"]
    g = {"parallel": True, "reassoc": False, "loops": ((0, 0, 0),) * s.nloops}
    assert s.build(s.canonical(g)) is not None     # same bits: rows split, not sums
    x = rng.standard_normal(100)
    jf = jit(fallback=False)(fsum)
    jf(x)
    assert not _Search(jf, (x,), hyper=False, rtol=0, atol=0, seed=0,
                       checks=1).space["parallel"]
