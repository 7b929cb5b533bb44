"""The search space of ``evolve``: which loops a module has, what may vary per loop.

A *genome* is a plain dict::

    {"parallel": False,                    # parallel=True for loops prange accepts
     "reassoc": False,                     # evolve_hyper only: reduce_reassoc=True
     "recip": False,                       # evolve_hyper only: fastmath flag arcp
     "afn": False,                         # evolve_hyper only: fastmath flag afn
     "loops": ((unroll, interleave, width), ...),   # one triple per counted loop
     "nests": ((order, t0, t1, t2, t3), ...),       # one per reorderable loop nest
     "prefetch": (distance, ...),          # one per counted loop, 0: none
     "align": (0 or 64, ...)}              # one per counted loop, 0: none

A 0 means "no hint" (LLVM decides), 1 disables the transform.  Loop ``k`` is the
``k``-th counted loop in lowering order (``ModuleLowering.loop_metadata``: the
module's functions in order, in each the loops in post-order, since a back edge is
emitted after its body).  Nest ``k`` is the ``k``-th nest
``passes.interchange.find_nests`` proves reorderable: ``order`` indexes its legal
loop orders (0: as written), ``t0..`` tile the loops of that order (0: not
tiled).  ``strategy()`` turns a genome into the ``strategy`` compile option the
pipeline and the lowering read.

Safety by construction: a vector width above 1 lets LLVM's vectoriser reorder a
floating-point reduction (``LoopVectorizeHints::allowReordering``), which changes
results.  So in safe mode a loop that accumulates floats -- a float variable
updated from itself, or an array element stored from a load of the same array,
anywhere inside the loop -- never gets a width hint, and parallel execution is
only offered when no outermost loop carries a float scalar across its iterations
(``parallel_is_exact``).  Unroll and interleave counts never reorder arithmetic;
nest genes only choose among the orders and tilings the interchange pass proves
keep every accumulation's order (and it checks at run time what it cannot prove).
Nest genes apply to serial compilations only (a parallel loop is outlined).

Prefetch genes (``PREFETCH``, iterations ahead) make the lowering issue
``llvm.prefetch`` for the loop's loads whose address is affine in its counter
(``lowering/prefetch.py``); a prefetch never faults nor changes a value, so any
distance keeps every bit.  Like the other loop hints they go to innermost loops
only.  Align genes (``ALIGN``) make the lowering version the loop on a run-time
test that every array it touches has 64-byte-aligned data, and tell LLVM so
(``llvm.assume``) in that copy only (``lowering/align.py``); the operations are
the same, so the bits are.  Genomes from before these genes read as zeros.

Hyper genes (``evolve_hyper`` only, each offered where it can change something:
``hyper_offers``): ``reassoc`` compiles with ``reduce_reassoc=True``; ``recip``
and ``afn`` add the LLVM fast-math flags ``arcp`` and ``afn`` to the user's
functions through the ``fastmath`` option (``fastmath.py``: hanajit's helpers
stay exact).  ``arcp`` lets LLVM turn ``x / d`` into ``x * (1 / d)``: with a
loop-invariant ``d`` its LICM pass computes ``1 / d`` once before the loop and
leaves a multiplication in it (and InstCombine does the same for a constant
divisor).  ``afn`` lets math calls be approximated: ``x ** 2`` becomes ``x * x``
instead of a ``pow`` call (``lib/python/operators.py``) and LLVM may simplify the math
intrinsics it knows.  Both change rounding, so they are never offered to
``evolve()``; their candidates are checked within a tolerance like reassociation.
Genomes without them read as False.
"""

from __future__ import annotations

import random

from ..ir import nodes as N
from ..passes.interchange import nest_plan

UNROLL = (0, 1, 2, 4, 8)
INTERLEAVE = (0, 1, 2, 4, 8)
WIDTH = (0, 1, 2, 4, 8, 16)
TILE = (0, 8, 16, 32, 64, 128)
PREFETCH = (0, 8, 16, 32, 64)
ALIGN = (0, 64)
NEST_GENE = 5  # (order, t0, t1, t2, t3): interchange.MAX_DEPTH tiles
HYPER_FLAGS = (("recip", "arcp"), ("afn", "afn"))  # gene -> LLVM fast-math flag
# intrinsics whose result afn cannot change (exact operations)
_EXACT_INTRINSICS = frozenset(("fabs", "copysign", "floor", "ceil", "trunc", "rint",
                               "round", "nearbyint", "fma", "minnum", "maxnum",
                               "minimum", "maximum"))


def counted_loops(module: N.Module) -> list:
    """The ``ForCount`` loops of ``module`` in the order the LLVM lowering meets
    their back edges (``ParallelFor`` regions are lowered without one; the checked
    copy of a nest ``passes.version_bounds`` versioned takes no hints)."""
    out = []

    def post(body):
        for s in body:
            # (a try is lowered body, else, handlers)
            for attr in ("body", "orelse", "then") if isinstance(s, N.Try) else (
                    "then", "orelse", "body"):
                if attr == "orelse" and getattr(s, "versioned", False):
                    continue
                sub = getattr(s, attr, None)
                if isinstance(sub, list) and not isinstance(s, N.ParallelFor):
                    post(sub)
            if isinstance(s, N.ForCount) and not isinstance(s, N.ParallelFor):
                out.append(s)

    for fn in module.functions.values():
        post(fn.body)
    return out


def _float_var(fn_locals, name) -> bool:
    t = fn_locals.get(name)
    return bool(getattr(t, "is_float", False) or getattr(t, "is_complex", False))


def accumulates_floats(loop: N.ForCount, fn_locals: dict) -> bool:
    """Does ``loop`` (nested loops included) carry a floating-point value from one
    iteration to the next, so that reordering iterations changes rounding?"""
    for s in N.walk_stmts(loop.body):
        if (
            isinstance(s, N.Assign)
            and _float_var(fn_locals, s.target)
            and any(
                isinstance(x, N.Var) and x.name == s.target
                for x in N.walk_expr(s.value)
            )
        ):
            return True
        if isinstance(s, N.Store) and not getattr(s.array.type.dtype, "is_int", False):
            arr = s.array
            for x in N.walk_expr(s.value):
                if isinstance(x, N.Load) and (
                    x.array is arr
                    or (
                        isinstance(x.array, N.Var)
                        and isinstance(arr, N.Var)
                        and x.array.name == arr.name
                    )
                ):
                    return True
    return False


def _reads_var(s, name) -> bool:
    return any(isinstance(x, N.Var) and x.name == name
               for t in N.walk_stmts([s]) for e in N.stmt_exprs(t) if e is not None
               for x in N.walk_expr(e))


def _carried(stmts, name) -> bool:
    """Can ``stmts`` read a value of ``name`` set before they started?  A top-level
    assignment that does not read it ends the question; a nested loop is looked
    into (it may also run no iteration, so it kills nothing)."""
    for s in stmts:
        if isinstance(s, N.Assign) and s.target == name and not _reads_var(s, name):
            return False
        if isinstance(s, (N.ForCount, N.Loop)):
            if any(isinstance(x, N.Var) and x.name == name for e in N.stmt_exprs(s)
                   if e is not None for x in N.walk_expr(e)):
                return True
            if _carried(s.body, name):
                return True
            continue
        if _reads_var(s, name):
            return True
    return False


def carries_float_scalar(loop: N.ForCount, fn_locals: dict) -> bool:
    """Does a float variable updated from itself inside ``loop`` keep its value from
    one iteration of ``loop`` to the next?  Not when it is set, without being
    read, before anything reads it in each iteration (``s = 0.0`` at the start of
    each dot product of a matrix multiply)."""
    accs = {s.target for s in N.walk_stmts(loop.body)
            if isinstance(s, N.Assign) and _float_var(fn_locals, s.target)
            and _reads_var(s, s.target)}
    return any(_carried(loop.body, name) for name in accs)


def parallel_is_exact(module: N.Module) -> bool:
    """With ``parallel=True`` the outermost loops of the entry function run in
    chunks; prange's dependence analysis refuses every cross-iteration dependence
    through arrays, and scalar reductions are combined in chunk order -- which
    reorders float sums.  So parallel execution keeps every bit when no outermost
    loop carries a float scalar from one iteration to the next."""
    fn = module.functions[module.entry]
    outer = [s for s in N.walk_stmts(fn.body) if isinstance(s, N.ForCount)]
    inner = {id(t) for s in outer for t in N.walk_stmts(s.body)}
    return not any(carries_float_scalar(s, fn.locals) for s in outer
                   if id(s) not in inner)


def inventory(module: N.Module) -> list:
    """One flag per counted loop: True where it accumulates floats."""
    owner = {}
    for fn in module.functions.values():
        for s in N.walk_stmts(fn.body):
            owner[id(s)] = fn.locals
    return [
        accumulates_floats(lp, owner.get(id(lp), {})) for lp in counted_loops(module)
    ]


def outer_loops(module: N.Module) -> list:
    """One flag per counted loop: True where it holds another counted loop.  Such
    loops get no hints: LLVM vectorises and interleaves innermost loops only, and
    unrolling an outer loop copies every loop inside it (nested unroll counts
    multiply: seconds of LLVM time per candidate for nothing)."""
    return [any(isinstance(t, N.ForCount) for t in N.walk_stmts(lp.body))
            for lp in counted_loops(module)]


def hyper_offers(module: N.Module) -> dict:
    """Which hyper genes can change ``module``'s code: ``recip`` where a float
    division is, ``afn`` where a float math call other than an exact one is."""
    found = {"recip": False, "afn": False}
    for fn in module.functions.values():
        for s in N.walk_stmts(fn.body):
            for e in N.stmt_exprs(s):
                for x in N.walk_expr(e) if e is not None else ():
                    t = getattr(x, "type", None)
                    if not (getattr(t, "is_float", False)
                            or getattr(t, "is_complex", False)):
                        continue
                    if isinstance(x, N.BinOp) and x.op == "fdiv":
                        found["recip"] = True
                    elif isinstance(x, N.Intrinsic) and x.name not in _EXACT_INTRINSICS:
                        found["afn"] = True
    return found


def fastmath_flags(g: dict) -> tuple:
    """The fast-math flags ``g``'s hyper genes ask for (``()``: none)."""
    return tuple(flag for gene, flag in HYPER_FLAGS if g.get(gene))


def baseline(nloops: int, nnests: int = 0) -> dict:
    return {"parallel": False, "reassoc": False, "recip": False, "afn": False,
            "loops": ((0, 0, 0),) * nloops,
            "nests": ((0,) * NEST_GENE,) * nnests, "prefetch": (0,) * nloops,
            "align": (0,) * nloops}


def _per_loop(g: dict, name: str) -> tuple:
    pf = tuple(g.get(name, ()))[:len(g["loops"])]
    return pf + (0,) * (len(g["loops"]) - len(pf))


def prefetch_genes(g: dict) -> tuple:
    """``g``'s prefetch distances, one per loop (zeros where it has none)."""
    return _per_loop(g, "prefetch")


def align_genes(g: dict) -> tuple:
    """``g``'s alignment genes, one per loop (zeros where it has none)."""
    return _per_loop(g, "align")


def _random_nest(rng: random.Random, info: dict) -> tuple:
    order = rng.randrange(len(info["orders"])) if rng.random() < 0.7 else 0
    tiles = tuple(rng.choice(TILE) if rng.random() < 0.3 else 0
                  for _ in range(NEST_GENE - 1))
    return (order,) + tiles


def structural(nloops: int, space: dict, tile: int = 32) -> list:
    """The structural candidates, tried before any random one: for each
    reorderable nest, every legal order other than the written one, untiled and
    with the loops of that order tiled by ``tile`` (everything else as the
    baseline).  A loop interchange's 5x must not depend on the random draws."""
    infos = space.get("nests", ())
    base = baseline(nloops, len(infos))
    out = []
    for k, info in enumerate(infos):
        for order in range(len(info["orders"])):
            for tiled in ((False, True) if order else (True,)):
                gene = (order,) + ((tile,) * (NEST_GENE - 1) if tiled
                                   else (0,) * (NEST_GENE - 1))
                nests = list(base["nests"])
                nests[k] = gene
                out.append(dict(base, nests=tuple(nests)))
    return out


def random_genome(rng: random.Random, nloops: int, space: dict) -> dict:
    return {
        "parallel": space["parallel"] and rng.random() < 0.5,
        "reassoc": space["reassoc"] and rng.random() < 0.5,
        "recip": bool(space.get("recip")) and rng.random() < 0.5,
        "afn": bool(space.get("afn")) and rng.random() < 0.5,
        "loops": tuple(
            (rng.choice(UNROLL), rng.choice(INTERLEAVE), rng.choice(WIDTH))
            for _ in range(nloops)
        ),
        "nests": tuple(_random_nest(rng, info) for info in space.get("nests", ())),
        "prefetch": tuple(rng.choice(PREFETCH) if rng.random() < 0.3 else 0
                          for _ in range(nloops)),
        "align": tuple(rng.choice(ALIGN) if rng.random() < 0.3 else 0
                       for _ in range(nloops)),
    }


def mutate(g: dict, rng: random.Random, space: dict, rate: float = 0.3) -> dict:
    loops = []
    for u, i, w in g["loops"]:
        if rng.random() < rate:
            u = rng.choice(UNROLL)
        if rng.random() < rate:
            i = rng.choice(INTERLEAVE)
        if rng.random() < rate:
            w = rng.choice(WIDTH)
        loops.append((u, i, w))
    nests = []
    for gene, info in zip(g.get("nests", ()), space.get("nests", ())):
        gene = list(gene)
        if rng.random() < rate:
            gene[0] = rng.randrange(len(info["orders"]))
        for p in range(1, NEST_GENE):
            if rng.random() < rate / 2:
                gene[p] = rng.choice(TILE)
        nests.append(tuple(gene))
    prefetch = tuple(rng.choice(PREFETCH) if rng.random() < rate / 2 else d
                     for d in prefetch_genes(g))
    align = tuple(rng.choice(ALIGN) if rng.random() < rate / 2 else a
                  for a in align_genes(g))
    out = dict(g, loops=tuple(loops), nests=tuple(nests), prefetch=prefetch,
               align=align)
    if space["parallel"] and rng.random() < rate / 2:
        out["parallel"] = not g["parallel"]
    if space["reassoc"] and rng.random() < rate / 2:
        out["reassoc"] = not g["reassoc"]
    for gene, _ in HYPER_FLAGS:
        if space.get(gene) and rng.random() < rate / 2:
            out[gene] = not g.get(gene, False)
    return out


def crossover(a: dict, b: dict, rng: random.Random) -> dict:
    loops = tuple(
        x if rng.random() < 0.5 else y for x, y in zip(a["loops"], b["loops"])
    )
    nests = tuple(
        x if rng.random() < 0.5 else y
        for x, y in zip(a.get("nests", ()), b.get("nests", ()))
    )
    prefetch = tuple(
        x if rng.random() < 0.5 else y
        for x, y in zip(prefetch_genes(a), prefetch_genes(b))
    )
    align = tuple(
        x if rng.random() < 0.5 else y for x, y in zip(align_genes(a), align_genes(b))
    )
    return {
        "parallel": rng.choice((a["parallel"], b["parallel"])),
        "reassoc": rng.choice((a["reassoc"], b["reassoc"])),
        "recip": rng.choice((a.get("recip", False), b.get("recip", False))),
        "afn": rng.choice((a.get("afn", False), b.get("afn", False))),
        "loops": loops,
        "nests": nests,
        "prefetch": prefetch,
        "align": align,
    }


def key(g: dict) -> tuple:
    return (g["parallel"], g["reassoc"], g["loops"], tuple(g.get("nests", ())),
            prefetch_genes(g), align_genes(g), bool(g.get("recip")),
            bool(g.get("afn")))


def from_key(k: tuple) -> dict:
    g = {"parallel": k[0], "reassoc": k[1], "loops": k[2], "nests": k[3]}
    g["prefetch"] = k[4] if len(k) > 4 else (0,) * len(k[2])
    g["align"] = k[5] if len(k) > 5 else (0,) * len(k[2])
    g["recip"] = bool(k[6]) if len(k) > 6 else False
    g["afn"] = bool(k[7]) if len(k) > 7 else False
    return g


def canonical_nests(g: dict, infos: list) -> dict:
    """``g`` with its nest genes made canonical: the order index taken modulo the
    number of orders, tiles dropped where ``Nest.tileable`` forbids them or beyond
    the nest's depth, every gene zero under ``parallel`` (nests are rewritten in
    serial compilations only)."""
    nests = []
    for k, info in enumerate(infos):
        gene = tuple(g.get("nests", ())[k]) if k < len(g.get("nests", ())) else ()
        gene = (gene + (0,) * NEST_GENE)[:NEST_GENE]
        if g["parallel"]:
            nests.append((0,) * NEST_GENE)
            continue
        order = gene[0] % len(info["orders"])
        ok = info["tileable"][order]
        tiles = tuple(t if p < len(ok) and ok[p] else 0
                      for p, t in enumerate(gene[1:]))
        nests.append((order,) + tiles)
    return dict(g, nests=tuple(nests))


def structure(g: dict) -> tuple:
    """What decides the loops of a compilation: parallel flag and nest genes."""
    return (g["parallel"], tuple(g.get("nests", ())))


def effective(g: dict, floats: dict, hyper: bool, outer: list = ()) -> dict:
    """``g`` with the hints that ``strategy`` would drop set to 0 (so equal
    strategies have equal keys).  ``floats`` maps the parallel flag to the loop
    inventory of that compilation; ``outer`` flags its loops holding loops."""
    inv = floats.get(g["parallel"], [])
    loops = tuple(
        (0, 0, 0) if k < len(outer) and outer[k]
        else (u, i, 0 if (k >= len(inv) or (inv[k] and not hyper)) else w)
        if k < len(inv)
        else (0, 0, 0)
        for k, (u, i, w) in enumerate(g["loops"])
    )
    def keep(genes):
        return tuple(0 if k >= len(inv) or (k < len(outer) and outer[k]) else d
                     for k, d in enumerate(genes))
    align = keep(align_genes(g))
    if g.get("reassoc"):
        align = (0,) * len(align)       # see strategy()
    return dict(g, loops=loops, prefetch=keep(prefetch_genes(g)), align=align)


def strategy(g: dict, floats: list, hyper: bool, outer: list = ()) -> dict:
    """The ``strategy`` compile option for genome ``g`` on a module whose counted
    loops accumulate floats where ``floats`` says so (widths dropped there unless
    ``hyper``) and hold other loops where ``outer`` says so (no hints there)."""
    loops = {}
    prefetch, align = prefetch_genes(g), align_genes(g)
    for k, acc in enumerate(floats):
        if k >= len(g["loops"]):
            break
        u, i, w = g["loops"][k]
        if k < len(outer) and outer[k]:
            continue
        if acc and not hyper:
            w = 0
        if u or i or w:
            loops[k] = {"unroll": u, "interleave": i, "width": w}
        if prefetch[k]:
            loops.setdefault(k, {})["prefetch"] = prefetch[k]
        # not with reassociation: the aligned copy and the plain one may then
        # round a sum differently, so the result would depend on where the
        # arrays happen to lie (a candidate checked on copies could differ on
        # the caller's own arrays)
        if align[k] and not g.get("reassoc"):
            loops.setdefault(k, {})["align"] = align[k]
    return {"loops": loops, "nests": nest_strategy(g)}


def nest_strategy(g: dict) -> dict:
    """The ``nests`` part of the strategy option (``passes.interchange``)."""
    return nest_plan(g.get("nests", ()))


def describe(g: dict, infos: list = ()) -> str:
    parts = []
    if g["parallel"]:
        parts.append("parallel")
    if g["reassoc"]:
        parts.append("reassoc")
    if g.get("recip"):
        parts.append("reciprocals (arcp)")
    if g.get("afn"):
        parts.append("approximate functions (afn)")
    for k, gene in enumerate(g.get("nests", ())):
        if not any(gene):
            continue
        if k < len(infos):
            order = infos[k]["orders"][gene[0] % len(infos[k]["orders"])]
            text = f"nest {infos[k]['where']}: order ({', '.join(order)})"
            tiles = [f"{order[p]}={t}" for p, t in enumerate(gene[1:])
                     if t and p < len(order)]
        else:
            text, tiles = f"nest {k}: order #{gene[0]}", [str(t) for t in gene[1:] if t]
        parts.append(text + (f", tiles {' '.join(tiles)}" if tiles else ""))
    for k, ((u, i, w), d, a) in enumerate(zip(g["loops"], prefetch_genes(g),
                                              align_genes(g))):
        hint = ", ".join(
            f"{n}={v}" for n, v in (("unroll", u), ("interleave", i), ("width", w),
                                    ("prefetch", d), ("align", a)) if v
        )
        if hint:
            parts.append(f"loop {k}: {hint}")
    return "; ".join(parts) or "baseline (no hints)"
