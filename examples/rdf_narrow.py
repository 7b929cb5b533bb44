"""Protein-water coordination numbers and a radial distribution function g(r).

A synthetic solvated system (no real protein is needed offline): a compact
"protein" blob of 400 atoms in a periodic box of water oxygens, seeded.  A @jit
kernel writes one int8 indicator per protein-water pair (1 where the pair is
within the cutoff, minimum-image distances), `f.narrow(..., confirmed=True)` sums
the 1.7 million indicators in narrow lanes, and a second kernel histograms the
pair distances into shells for g(r).  Every count is checked against NumPy.

    python examples/rdf_narrow.py
"""
import numpy as np

from hanajit import jit

BOX, CUTOFF, DR, NBINS = 50.0, 3.5, 0.25, 48       # angstrom; g(r) up to 12 A


@jit(fallback=False)
def pair_r2(protein, water, i, j, box):
    """Squared minimum-image distance of protein atom i and water j."""
    r2 = 0.0
    for k in range(3):
        d = water[j, k] - protein[i, k]
        if d > 0.5 * box:
            d -= box
        elif d < -0.5 * box:
            d += box
        r2 += d * d
    return r2


@jit(fallback=False)
def contacts(protein, water, box, cutoff, flags):
    m, c2 = water.shape[0], cutoff * cutoff
    for i in range(protein.shape[0]):
        for j in range(m):
            flags[i * m + j] = 1 if pair_r2(protein, water, i, j, box) < c2 else 0


@jit(fallback=False)
def total(flags):
    acc = np.int64(0)               # 0 would add in int8, as NumPy 2 does
    for i in range(len(flags)):
        acc += flags[i]
    return acc


@jit(fallback=False)
def shells(protein, water, box, dr, counts):
    for i in range(protein.shape[0]):
        for j in range(water.shape[0]):
            b = int(np.sqrt(pair_r2(protein, water, i, j, box)) / dr)
            if b < counts.shape[0]:
                counts[b] += 1


def numpy_r2(protein, water, box):
    d = water[None, :, :] - protein[:, None, :]
    d = np.where(d > 0.5 * box, d - box, np.where(d < -0.5 * box, d + box, d))
    return (d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]) + d[..., 2] * d[..., 2]


rng = np.random.default_rng(7)
protein = BOX / 2 + rng.normal(scale=5.0, size=(400, 3))
water = rng.uniform(0.0, BOX, size=(5200, 3))              # ~0.033 per A^3, as water
water = water[numpy_r2(protein, water, BOX).min(axis=0) > 2.6 ** 2]  # no overlaps
n, m = len(protein), len(water)

flags = np.empty(n * m, dtype=np.int8)
contacts(protein, water, BOX, CUTOFF, flags)
pairs = total.narrow(flags, confirmed=True)                 # narrow int8 lanes
counts = np.zeros(NBINS, dtype=np.int64)
shells(protein, water, BOX, DR, counts)

r2 = numpy_r2(protein, water, BOX)
assert pairs == total(flags) == np.count_nonzero(r2 < CUTOFF ** 2)
assert np.array_equal(flags, (r2 < CUTOFF ** 2).ravel().astype(np.int8))
assert np.array_equal(counts, np.bincount((np.sqrt(r2) / DR).astype(np.int64).ravel(),
                                          minlength=NBINS)[:NBINS])
shell_cut = int(CUTOFF / DR)                    # the cutoff is a shell boundary
assert counts[:shell_cut].sum() == pairs

edges = DR * np.arange(NBINS + 1)
rho = m / BOX ** 3
gr = counts / (n * rho * 4.0 / 3.0 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3))
print(f"{n} protein atoms, {m} waters, {n * m} pair indicators (int8)")
print(f"coordination number within {CUTOFF} A: {pairs / n:.3f} waters per atom "
      f"({pairs} contacts), same as NumPy")
print("g(r), shells from r:", " ".join(f"{edges[k]:.1f}:{gr[k]:.2f}"
                                       for k in range(4, NBINS, 4)))
