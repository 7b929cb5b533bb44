"""Write ``hanajit/lib/arrays/lane_kernels.py``: the vector loops of float
``min``/``max``, 32 accumulators written out value by value (hanajit compiles
Python source, and LLVM's SLP vectoriser makes vector instructions of the
written-out lanes).  The two loops differ only in their compare, so they are
made here from one template; ``tests/test_generated_sources.py`` checks that the
committed module is this script's output.

    python scripts/gen_lane_kernels.py          # rewrite the module
    python scripts/gen_lane_kernels.py --check  # exit 1 when it differs
"""
import pathlib
import sys

TARGET = (pathlib.Path(__file__).resolve().parent.parent / "hanajit-core" / "src" /
          "hanajit" / "lib" / "arrays" / "lane_kernels.py")
L = 32

HEAD = '''"""The vector loops of ``np.min``/``np.max`` (``extreme_lanes``): the least or
largest of a contiguous run of float values in 32 accumulators, LLVM's SLP
vectoriser making them vector ``min``/``max`` instructions, NaNs watched beside
them; and of a short run in eight (``short_extremes``).  Python source compiled
by hanajit; the loops are written out value by value, from one template per
kind where only the compare differs: written by ``scripts/gen_lane_kernels.py``
(edit the script, not this module).
"""
import numpy as np

LANES = 16


def keep(v, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15):
    """``v[:16] = x0 .. x15``: the lanes' accumulators stored after a loop, which
    makes LLVM's SLP vectoriser take them as vectors (:func:`_lanes`).  Inlined
    where it is called."""
    v[0] = x0
    v[1] = x1
    v[2] = x2
    v[3] = x3
    v[4] = x4
    v[5] = x5
    v[6] = x6
    v[7] = x7
    v[8] = x8
    v[9] = x9
    v[10] = x10
    v[11] = x11
    v[12] = x12
    v[13] = x13
    v[14] = x14
    v[15] = x15


'''

TAIL = '''def first_nan_value(a, lo, n, step):
    """The first NaN of ``a[lo:lo + n:step]`` (there is one)."""
    for i in range(lo, lo + n, step):
        if a[i] != a[i]:                                # noqa: PLR0124
            return a[i]
    return a[lo]


# every index above is in range by construction: no checks (pipeline.py)
for _f in (keep, lanes_min, lanes_max, short_min, short_max, first_nan_value):
    _f.hj_unchecked = True
keep.hj_inline = True
lanes_min.hj_inline = True
lanes_max.hj_inline = True
short_min.hj_inline = True
short_max.hj_inline = True
'''

DOC = {">": '''    """:func:`lanes_min`'s largest instead of least."""''',
       "<": '''    """The least of ``a[lo:lo + n]`` (``n >= 2 * LANES``), or a NaN of ``a``
    when there is one.  Each of 32 accumulators keeps ``m if m < x else x``
    (vector ``min`` instructions; a NaN ``x`` would be dropped again by the next
    value, so NaNs are watched apart, in ``u``: int32 masks, 0 or -1, which stay
    vector registers where bools were packed to bytes at every step).  32
    accumulators, not 16: each vector ``min`` waits on the one before in its
    accumulator, and 16 float64 lanes were only four chains of 256-bit vectors,
    below what L2 delivers.  One mask watches lanes ``j`` and ``j + 16``
    (``(x != x) | (y != y)`` is one unordered compare of ``x`` and ``y``), and
    the two are folded after the loop, so the lanes left in ``scratch`` and
    ``nans`` are still :data:`LANES`: lane ``k`` of the values at ``k`` modulo
    16 from ``lo`` (``_stepped_at`` keeps some of them), its least and whether
    it met a NaN.  (The min and the max are two functions: as the max of ``-a``
    the min paid a negation of every value.)"""'''}

TAIL_OF_LOOP = """    u = (u0 | u1 | u2 | u3 | u4 | u5 | u6 | u7
         | u8 | u9 | u10 | u11 | u12 | u13 | u14 | u15) != 0
    for i in range(lo + done, lo + n):
        x = a[i]
        r = r if r {cmp} x else x
        u = u | (x != x)
    if u:
        return first_nan_value(a, lo, n, 1)
    return r
"""


def loop(name: str, cmp: str) -> str:
    """``lanes_min`` (``cmp`` "<") or ``lanes_max`` (">")."""
    s = [f"def {name}(a, lo, n, scratch, nans):", DOC[cmp]]
    for j in range(L):
        s.append(f"    m{j} = a[lo + {j}]")
    for j in range(16):
        s.append(f"    u{j} = -np.int32((m{j} != m{j}) | (m{j + 16} != m{j + 16}))")
    s.append(f"    pairs = n // {L}")
    s.append("    for b in range(1, pairs):")
    s.append(f"        j = lo + {L} * b")
    for j in range(L):
        s.append(f"        x{j} = a[j + {j}]")
        s.append(f"        m{j} = m{j} if m{j} {cmp} x{j} else x{j}")
    for j in range(16):
        s.append(f"        u{j} = u{j} | -np.int32((x{j} != x{j}) | (x{j + 16} != x{j + 16}))")
    s.append("    # lanes j and j + 16 folded: the values at j modulo 16")
    for j in range(16):
        s.append(f"    m{j} = m{j} if m{j} {cmp} m{j + 16} else m{j + 16}")
    s.append(f"    done = {L} * pairs")
    s.append("    if n - done >= LANES:     # one block of 16 more")
    s.append("        j = lo + done")
    for j in range(16):
        s.append(f"        x{j} = a[j + {j}]")
        s.append(f"        m{j} = m{j} if m{j} {cmp} x{j} else x{j}")
        s.append(f"        u{j} = u{j} | -np.int32(x{j} != x{j})")
    s.append("        done += LANES")
    s.append("    keep(scratch, m0, m1, m2, m3, m4, m5, m6, m7,")
    s.append("         m8, m9, m10, m11, m12, m13, m14, m15)")
    s.append("    keep(nans, u0 != 0, u1 != 0, u2 != 0, u3 != 0, u4 != 0, u5 != 0, u6 != 0, "
             "u7 != 0,")
    s.append("         u8 != 0, u9 != 0, u10 != 0, u11 != 0, u12 != 0, u13 != 0, u14 != 0, "
             "u15 != 0)")
    s.append("    r = m0")
    for j in range(1, 16):
        s.append(f"    r = r if r {cmp} m{j} else m{j}")
    return "\n".join(s) + "\n" + TAIL_OF_LOOP.format(cmp=cmp)


SHORT_DOC = {">": "largest", "<": "least"}


def short(name: str, cmp: str) -> str:
    """``short_min`` / ``short_max``: 4 to 255 values (``short_extremes``) in
    eight accumulators, blocks of eight with the last moved back; four to seven
    values as two overlapping blocks of four."""
    def pick(m, x):
        return f"{m} = {m} if {m} {cmp} {x} else {x}"
    s = [f"def {name}(a, lo, n):",
         f'    """The {SHORT_DOC[cmp]} of ``a[lo:lo + n]`` (``n >= 4``), or a NaN of '
         '``a``\n    (``short_extremes``)."""',
         "    if n < 8:"]
    s += [f"        m{j} = a[lo + {j}]" for j in range(4)]
    s += [f"        x{j} = a[lo + n - {4 - j}]" for j in range(4)]
    s += ["        if ((m0 != m0) | (m1 != m1) | (m2 != m2) | (m3 != m3)",
          "                | (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3)):",
          "            return first_nan_value(a, lo, n, 1)"]
    s += ["        " + pick(f"m{j}", f"x{j}") for j in range(4)]
    s += ["        " + pick("m0", "m2"), "        " + pick("m1", "m3"),
          f"        return m0 if m0 {cmp} m1 else m1"]
    s += [f"    m{j} = a[lo + {j}]" for j in range(8)]
    s += [f"    u{j} = -np.int32((m{j} != m{j}) | (m{j + 4} != m{j + 4}))" for j in range(4)]
    s += ["    for t in range((n - 1) // 8):",
          "        j = lo + min(8 + 8 * t, n - 8)"]
    s += [f"        x{j} = a[j + {j}]" for j in range(8)]
    s += ["        " + pick(f"m{j}", f"x{j}") for j in range(8)]
    s += [f"        u{j} = u{j} | -np.int32((x{j} != x{j}) | (x{j + 4} != x{j + 4}))"
          for j in range(4)]
    s += ["    if (u0 | u1 | u2 | u3) != 0:",
          "        return first_nan_value(a, lo, n, 1)"]
    s += ["    " + pick(f"m{j}", f"m{j + 4}") for j in range(4)]
    s += ["    " + pick("m0", "m2"), "    " + pick("m1", "m3"),
          f"    return m0 if m0 {cmp} m1 else m1"]
    return "\n".join(s) + "\n"


def source() -> str:
    return (HEAD + loop("lanes_min", "<") + "\n\n" + loop("lanes_max", ">") + "\n\n"
            + short("short_min", "<") + "\n\n" + short("short_max", ">") + "\n\n" + TAIL)


if __name__ == "__main__":
    text = source()
    if "--check" in sys.argv[1:]:
        sys.exit(0 if TARGET.read_text() == text else 1)
    TARGET.write_text(text)
