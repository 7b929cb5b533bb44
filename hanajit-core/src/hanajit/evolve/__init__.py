"""``f.evolve(*args)`` and ``f.evolve_hyper(*args, confirmed=True)``: a genetic
search over compilation strategies for one specialisation.

It runs outside the pipeline: it compiles the specialisation matching the example
arguments again with a ``strategy`` compile option (per-loop unroll, interleave
and vector-width hints and prefetch distances, read by
``ModuleLowering.loop_metadata``) and with
``parallel=True`` where that is offered (see ``genome.py`` for the space and what
keeps it safe).  Every candidate is

1. checked: its outcome on the example arguments and on fresh random arguments of
   the same types must have the same bits as the baseline's (``verify.py``;
   ``evolve_hyper``: close within ``rtol``/``atol`` on a larger batch);
2. timed: the baseline and the candidates are timed in interleaved rounds (each
   round starts at a different candidate), medians compared.

The winner replaces the specialisation's entry (and the native dispatcher is
regenerated) only when it is faster beyond the measured noise: in each of two final
runs of 21 interleaved rounds of the baseline and the winner, the winner/baseline
time ratio of a round must be below 0.99 in nine rounds out of ten (its 90th
percentile), and the winner's median below the baseline's.

Loop nests: the genome also chooses, per nest that ``passes.interchange`` proves
reorderable, a loop order and tile sizes (``genome.py``); such candidates are
checked and timed like any other.

With ``@jit(cache=True)`` an installed ``evolve()`` winner replaces the disk cache
entry of the specialisation: its machine code, with the genome in the artifact's
metadata (``"evolved"``), so a fresh process loads the evolved code.
``evolve_hyper`` adds genes that change rounding (reassociation, reciprocals,
approximate functions: ``genome.py``), checked within ``rtol``/``atol``; its
winners are never written to the cache.  ``apply(f, *args,
genome=...)`` installs a genome from an earlier report (checked, not timed).
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import sys
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..dispatch.specialization import Specialization
from . import genome as G
from . import verify as V


_REPORT_KEYS = ("speedup", "baseline_ms", "best_ms", "genome", "installed",
                "candidate_speedup", "function", "strategy", "cached", "noise",
                "candidates", "rejected", "generations", "hyper", "tolerance",
                "history", "verdict")
# a confirmation run whose paired ratios spread more than this (inter-quartile
# range over the median) cannot tell a real speedup from a busy machine
NOISY = 0.05


@dataclass
class EvolveReport(Mapping):
    """What ``evolve`` found.  Times are seconds per call (medians).

    ``speedup`` is how much faster the function got: ``baseline_s / best_s`` when
    the winner was installed, 1.0 when nothing was; ``candidate_speedup`` is the
    best candidate's ratio either way.  The report also reads as a read-only
    mapping, as the product description uses it: ``report["speedup"]``,
    ``["baseline_ms"]``, ``["best_ms"]`` (milliseconds), ``["genome"]``,
    ``["installed"]`` and the other keys of ``report.keys()``."""

    function: str
    baseline_s: float
    best_s: float
    speedup: float
    genome: dict
    installed: bool
    noise: float  # inter-quartile range of the paired ratios
    candidates: int = 0  # distinct strategies compiled
    rejected: int = 0  # of those, results that differed
    generations: int = 0
    hyper: bool = False
    tolerance: tuple | None = None  # (rtol, atol) for evolve_hyper
    history: list = field(default_factory=list)  # best speedup after each generation
    nests: list = field(default_factory=list)  # the reorderable nests (interchange)
    cached: bool = False  # the winner was written to the disk cache
    candidate_speedup: float = 1.0  # baseline_s / best_s, installed or not
    verdict: str = ""  # why the winner was installed or not, in words

    @property
    def strategy(self) -> str:
        return G.describe(self.genome, self.nests)

    @property
    def baseline_ms(self) -> float:
        return self.baseline_s * 1e3

    @property
    def best_ms(self) -> float:
        return self.best_s * 1e3

    def __getitem__(self, key):
        if key not in _REPORT_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self):
        return iter(_REPORT_KEYS)

    def __len__(self):
        return len(_REPORT_KEYS)

    def __str__(self):
        what = "installed" if self.installed else "not installed"
        ratio = f"{self.speedup:.2f}x"
        if self.candidate_speedup != self.speedup:
            ratio += f", best candidate {self.candidate_speedup:.2f}x"
        return (
            f"evolve {self.function}: baseline {self.baseline_s * 1e6:.1f} us, best "
            f"{self.best_s * 1e6:.1f} us ({ratio}, noise "
            f"{self.noise * 100:.1f}%), {what}; {self.strategy}; "
            f"{self.candidates} candidates, {self.rejected} rejected"
            + (f"; {self.verdict}" if self.verdict else "")
        )


class _Progress:
    """A one-line text progress bar on stderr."""

    def __init__(self, name, total, enabled):
        self.name, self.total, self.enabled = name, total, enabled

    def show(self, done, best):
        if not self.enabled:
            return
        width = 20
        fill = int(width * done / max(1, self.total))
        sys.stderr.write(
            f"\revolve {self.name}: [{'#' * fill}{'.' * (width - fill)}] "
            f"generation {done}/{self.total}  best {best:.2f}x "
        )
        sys.stderr.flush()
        if done == self.total:
            sys.stderr.write("\n")


def _time(fn, number):
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def _interleaved(calls: dict, repeats: int, number: int) -> dict:
    names = list(calls)
    out = {n: [] for n in names}
    for r in range(repeats):
        k = r % len(names)
        for n in names[k:] + names[:k]:
            out[n].append(_time(calls[n], number))
    return out


def _spread(xs) -> float:
    if len(xs) < 4:
        return 0.0
    q = statistics.quantiles(xs, n=4)
    return (q[2] - q[0]) / statistics.median(xs)


class _Search:
    def __init__(self, jf, args, *, hyper, rtol, atol, seed, checks):
        from ..typing_rules import typeof

        self.jf, self.hyper, self.rtol, self.atol = jf, hyper, rtol, atol
        if len(args) != jf._nparams:
            args = jf._bind(args, {})
        self.args = tuple(args)
        self.key = tuple(map(typeof, self.args))
        runner = jf._specialize(self.key, ())
        if runner is jf.py_func:
            raise ValueError(
                f"{jf.__qualname__} runs in the interpreter for these "
                "argument types; there is nothing to evolve: "
                f"{jf._fallback_reasons.get(self.key, '')}"
            )
        self.spec_key = next(k for k, s in jf._compiled.items() if s.runner is runner)
        self.base_runner = runner
        self.rng = random.Random(seed)
        self.target = jf._target()
        self.check_args = [self.args] + [
            V.random_args(self.args, self.rng) for _ in range(checks)
        ]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.expected = [V.outcome(runner, a) for a in self.check_args]
            serial = self._module(G.baseline(0))
            par = None
            if not jf.options["parallel"]:
                try:
                    par = self._module(dict(G.baseline(0), parallel=True))
                except Exception:  # noqa: BLE001 -- parallel=True does not compile:
                    par = None  # the search stays serial
        from ..ir import nodes as N

        self.nests = list(getattr(serial.functions[serial.entry], "nests", []))
        zero = G.baseline(0, len(self.nests))
        # per structure: which loops accumulate floats, which hold loops
        self.inv = {G.structure(zero): _loops(serial)}
        offers_parallel = par is not None and any(
            isinstance(s, N.ParallelFor)
            for fn in par.functions.values()
            for s in N.walk_stmts(fn.body)
        )
        if offers_parallel:
            self.inv[G.structure(dict(zero, parallel=True))] = _loops(par)
        # a rewritten nest adds loops (the original is kept behind its guard): room
        # for an initialising nest, the reordered one and its tile loops
        self.nloops = max(len(f) for f, _ in self.inv.values()) + sum(
            3 * len(info["orders"][0]) + 2 for info in self.nests
        )
        offers = G.hyper_offers(serial) if hyper else {}
        self.space = {
            "parallel": offers_parallel and (hyper or G.parallel_is_exact(serial)),
            "reassoc": hyper,
            "recip": hyper and offers["recip"],
            "afn": hyper and offers["afn"],
            "nests": self.nests,
        }
        self.compiled = {}  # genome key -> runner or None (rejected)
        self.times = {}  # genome key -> [seconds]
        self.rejected = 0
        self.timing_args = V.copy_args(self.args)

    def _options(self, g):
        opts = dict(self.jf.options)
        if g["parallel"]:
            opts["parallel"] = True
        if g["reassoc"]:
            opts["reduce_reassoc"] = True
        extra = G.fastmath_flags(g)
        if extra:       # the fastmath option's path, added to the user's own flags
            from ..fastmath import flags
            opts["fastmath"] = tuple(sorted(set(flags(opts.get("fastmath"))) | set(extra)))
        return opts

    def _module(self, g):
        """The IR module of ``g``'s structure (parallel flag, nest genes), without
        loop hints."""
        from ..pipeline import build

        opts = self._options(g)
        opts["strategy"] = {"nests": G.nest_strategy(g)}  # (the nests are analysed)
        return build(self.jf.py_func, self.spec_key, opts).module

    def inventory(self, g) -> tuple:
        """Which counted loops of ``g``'s compilation accumulate floats, and which
        hold other loops."""
        k = G.structure(g)
        if k not in self.inv:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    self.inv[k] = _loops(self._module(g))
                except Exception:  # noqa: BLE001 -- rejected when built
                    self.inv[k] = ([], [])
        return self.inv[k]

    def canonical(self, g):
        g = G.canonical_nests(g, self.nests)
        floats, outer = self.inventory(g)
        return G.effective(g, {g["parallel"]: floats}, self.hyper, outer)

    def build(self, g):
        """Compile and check genome ``g``; the runner, or None when rejected."""
        k = G.key(g)
        if k in self.compiled:
            return self.compiled[k]
        runner = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = self._module(g)
                floats, outer = self.inv[G.structure(g)] = _loops(module)
                module.strategy = G.strategy(g, floats, self.hyper, outer)  # + hints
                opts = self._options(g)
                with _quiet_stderr():  # LLVM remarks on hints it cannot honour
                    artifact = self.target.compile(module, opts)
                runner = self.target.load(artifact, self.jf.py_func)
                runner.hj_evolve = (module, artifact)
            if not self._matches(runner):
                runner = None
        except Exception:  # noqa: BLE001 -- a strategy that does not compile: rejected
            runner = None
        if runner is None:
            self.rejected += 1
        self.compiled[k] = runner
        return runner

    def _matches(self, runner) -> bool:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for args, want in zip(self.check_args, self.expected):
                got = V.outcome(runner, args)
                ok = (
                    V.close(got, want, self.rtol, self.atol)
                    if self.hyper
                    else V.same_bits(got, want)
                )
                if not ok:
                    return False
        return True

    def calibrate(self):
        call = self._call(self.base_runner)
        t = _time(call, 1)
        self.number = max(1, min(10_000, int(2e-3 / max(t, 1e-9))))

    def _call(self, runner):
        args = self.timing_args
        return lambda: runner(*args)

    def time_round(self, genomes, repeats):
        calls = {"baseline": self._call(self.base_runner)}
        for g in genomes:
            r = self.build(g)
            if r is not None:
                calls[G.key(g)] = self._call(r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = _interleaved(calls, repeats, self.number)
        for k, xs in res.items():
            self.times.setdefault(k, []).extend(xs)

    def median(self, g):
        xs = self.times.get(G.key(g) if isinstance(g, dict) else g)
        return statistics.median(xs) if xs else float("inf")


def _loops(module) -> tuple:
    return G.inventory(module), G.outer_loops(module)


def evolve(
    jf,
    *args,
    generations=8,
    population=8,
    seed=0,
    progress=True,
    checks=3,
    hyper=False,
    rtol=1e-6,
    atol=1e-9,
) -> EvolveReport:
    """The genetic search behind ``JitFunction.evolve`` / ``evolve_hyper``."""
    s = _Search(jf, args, hyper=hyper, rtol=rtol, atol=atol, seed=seed, checks=checks)
    rng = s.rng
    s.calibrate()
    base = G.baseline(s.nloops, len(s.nests))
    # the first generation: the baseline, every structural candidate (each legal
    # loop order of each nest, untiled and tiled: deterministic, so a known win is
    # found on every run), then random genomes up to ``population``
    pop, seen = [base], {G.key(base)}
    for g in G.structural(s.nloops, s.space):
        g = s.canonical(g)
        if G.key(g) not in seen:
            seen.add(G.key(g))
            pop.append(g)
    while len(pop) < max(1, population):
        pop.append(s.canonical(G.random_genome(rng, s.nloops, s.space)))
    bar = _Progress(jf.__qualname__, generations, progress)
    history = []
    for gen in range(generations):
        s.time_round(pop, repeats=3)
        alive = [g for g in pop if s.compiled.get(G.key(g)) is not None]
        alive.sort(key=s.median)
        best = alive[0] if alive else base
        history.append(s.median("baseline") / s.median(best))
        bar.show(gen + 1, history[-1])
        elite = alive[: max(1, len(alive) // 2)] or [base]
        seen = {G.key(g) for g in elite}
        nxt = list(elite)
        tries = 0
        while len(nxt) < max(1, population) and tries < 20 * population:
            tries += 1
            a, b = rng.choice(elite), rng.choice(elite)
            child = s.canonical(G.mutate(G.crossover(a, b, rng), rng, s.space))
            if G.key(child) not in seen:
                seen.add(G.key(child))
                nxt.append(child)
        pop = nxt
    ranked = sorted((k for k, r in s.compiled.items() if r is not None), key=s.median)
    best_key = ranked[0] if ranked else G.key(base)
    best_genome = G.from_key(best_key)
    # the decision: a fresh interleaved run of the baseline and the winner only
    installed = cached = False
    runner = s.compiled.get(best_key)
    if runner is not None and best_key != G.key(base):
        # two independent confirmation runs must both agree (a busy machine can
        # fake one); the reported times are the second run's
        for _ in range(2):
            final = _interleaved(
                {"baseline": s._call(s.base_runner), "best": s._call(runner)},
                21,
                max(s.number, 3),
            )
            t_base = statistics.median(final["baseline"])
            t_best = statistics.median(final["best"])
            # paired by round, so a slow phase of the machine hits both alike
            ratios = [b / a for a, b in zip(final["baseline"], final["best"])]
            q1, _, q3 = statistics.quantiles(ratios, n=4)
            noise = (q3 - q1) / statistics.median(ratios)
            q9 = statistics.quantiles(ratios, n=10)[8]
            if not (q9 < 0.99 and t_best < t_base):
                verdict = (
                    f"too noisy to decide: the best candidate was "
                    f"{t_base / t_best:.2f}x on the median, but the paired rounds "
                    f"spread {noise:.0%}; nothing installed (a quieter machine "
                    "may decide)" if t_best < t_base and noise > NOISY else
                    "the best candidate was not faster in the confirmation runs")
                break
        else:
            cached = _install(jf, s.spec_key, runner, best_genome, cache=not hyper)
            installed = True
            verdict = ("faster in nine paired rounds out of ten of both "
                       "confirmation runs")
    else:
        t_base = t_best = s.median("baseline")
        noise = _spread(s.times.get("baseline", []))
        others = [k for k, r in s.compiled.items() if r is not None and k != G.key(base)]
        verdict = ("no candidate was faster than the baseline" if others else
                   "every candidate's results differed from the baseline's"
                   if s.rejected else "no candidate besides the baseline")
    return EvolveReport(
        function=jf.__qualname__,
        baseline_s=t_base,
        best_s=t_best,
        speedup=t_base / t_best if installed and t_best else 1.0,
        candidate_speedup=t_base / t_best if t_best else 1.0,
        genome=best_genome,
        installed=installed,
        noise=noise,
        candidates=len(s.compiled),
        rejected=s.rejected,
        generations=generations,
        hyper=hyper,
        tolerance=(rtol, atol) if hyper else None,
        history=history,
        nests=s.nests,
        cached=cached,
        verdict=verdict,
    )


def apply(jf, *args, genome: dict, checks=3, seed=0) -> bool:
    """Install ``genome`` (an ``EvolveReport.genome`` of ``evolve()``) for the
    specialisation matching ``args`` without searching or timing: it is compiled
    and checked bit for bit like any candidate, and installed (and, with
    ``cache=True``, written to the disk cache) only if it matches; ValueError
    otherwise.  Returns whether the disk cache entry was written."""
    s = _Search(jf, args, hyper=False, rtol=0, atol=0, seed=seed, checks=checks)
    g = s.canonical(dict(G.baseline(s.nloops, len(s.nests)), **genome))
    if (g["reassoc"] or G.fastmath_flags(g)
            or (g["parallel"] and not s.space["parallel"])):
        raise ValueError(f"{jf.__qualname__}: genome {G.describe(g, s.nests)} is "
                         "not a safe evolve() genome for these arguments")
    runner = s.build(g)
    if runner is None:
        raise ValueError(f"{jf.__qualname__}: genome {G.describe(g, s.nests)} does "
                         "not compile to the same results; not installed")
    return _install(jf, s.spec_key, runner, G.from_key(G.key(g)), cache=True)


@contextlib.contextmanager
def _quiet_stderr():
    """Silence file descriptor 2 (LLVM prints "loop not vectorized" remarks for
    width hints it cannot honour, from C++, past Python's sys.stderr)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _install(jf, spec_key, runner, genome=None, cache=False) -> bool:
    """Replace the specialisation's entry with ``runner`` and regenerate the native
    dispatcher; argument types served by the old entry are served by the new.
    With ``cache`` and ``@jit(cache=True)``, write it to the disk cache with
    ``genome`` in its metadata; returns whether it was written."""

    module, artifact = runner.hj_evolve
    if genome is not None:
        artifact.metadata["evolved"] = genome
    with jf._lock:
        old = jf._compiled[spec_key]
        jf._compiled[spec_key] = Specialization(spec_key, module, artifact, runner)
        for k, r in list(jf._specs.items()):
            if r is old.runner:
                jf._specs[k] = runner
        jf._native_stale = jf._shape is not None
        jf._update_native()
    if not (cache and genome is not None and jf.options.get("cache")):
        return False
    from ..cache import open_entry

    entry = open_entry(jf, spec_key, jf._target())
    return bool(entry is not None and entry.store(artifact))
