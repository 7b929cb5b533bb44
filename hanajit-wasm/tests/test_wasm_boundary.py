"""The JavaScript loader prints as Python prints the CPU JIT's result
(``format(result)``, and ``node k.mjs ARGS`` as a program with the executable's
exit statuses); floats through hypothesis, batched into one node run each."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hanajit.testing.reference import python_numbers
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.toolkit.boundary import Exit
from hanajit_wasm.toolchain import find_node, find_wasm_ld

pytestmark = [
    pytest.mark.skipif(find_wasm_ld() is None, reason="no wasm-ld (or HANAJIT_WASM_LD)"),
    pytest.mark.skipif(find_node() is None, reason="node not installed"),
]


def shown(value):
    """How the exported program prints a result (NumPy scalars as Python numbers)."""
    return repr(python_numbers(value))


@jit
def ident(x):
    return x, np.float32(x)


@jit
def mix(x, n, b):
    # NumPy scalars converted, which wrap (np.int8(n) of a Python int out of
    # range is OverflowError, as in NumPy)
    w = np.int64(n)
    return (x * 0.5, b, None, n, np.int8(w), np.uint16(w), np.uint64(w) * np.uint64(3),
            (x,), (), n > 2)


@jit
def div(a, b):
    return a // b


# argv: loader, JSON list of argument lists (floats as [hex bits]); prints JSON of
# format(result) or "raised Name: message" per call
DRIVER = r"""
const [,, loader, callsJson] = process.argv;
const { default: load } = await import(loader);
const k = await load();
const F = new Float64Array(1), U = new BigUint64Array(F.buffer);
const dec = (a) => Array.isArray(a) ? (U[0] = BigInt("0x" + a[0]), F[0])
  : typeof a === "string" ? BigInt(a) : a;
const out = [];
for (const call of JSON.parse(callsJson)) {
  try { out.push(k.format(k[k.manifest.name](...call.map(dec)))); }
  catch (e) { out.push(`raised ${e.name}: ${e.message}`); }
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def mjs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wasm_boundary")
    (folder / "driver.mjs").write_text(DRIVER)
    paths = {f.__name__: f.export_wasm(folder / f.__name__, sig=sig).mjs
             for f, sig in ((ident, "f64"), (mix, "f64, i64, bool"), (div, "i64, i64"))}
    paths["driver"] = folder / "driver.mjs"
    return paths


def hexf(x: float) -> list:
    return [np.float64(x).view(np.uint64).item().to_bytes(8, "big").hex()]


def formatted(mjs, name, calls) -> list:
    proc = subprocess.run([find_node(), str(mjs["driver"]), str(Path(mjs[name]).resolve()),
                           json.dumps(calls)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@settings(max_examples=5, deadline=None)
@given(st.lists(st.floats(allow_subnormal=True), min_size=1, max_size=200))
def test_floats_format_as_python(mjs, xs):
    xs = [0.0, -0.0, float("inf"), float("nan"), 1e16, 1e-5, 0.1, 5e-324] + xs
    assert formatted(mjs, "ident", [[hexf(x)] for x in xs]) == [shown(ident(x)) for x in xs]


def test_tuples_ints_bools_none_and_raises(mjs):
    args = [(2.5, 7, True), (-0.0, -3, False), (1e300, 300, True)]
    assert formatted(mjs, "mix", [[hexf(x), str(n), b] for x, n, b in args]) == \
        [shown(mix(*a)) for a in args]
    assert formatted(mjs, "div", [["7", "2"], ["7", "0"]]) == \
        ["3", "raised ZeroDivisionError: integer division or modulo by zero"]


def node(mjs, name, *args):
    return subprocess.run([find_node(), str(mjs[name]), *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def test_the_loader_is_the_executables_command_line(mjs):
    proc = node(mjs, "mix", "1e300", "300", "true")
    assert (proc.returncode, proc.stdout) == (Exit.OK, shown(mix(1e300, 300, True)) + "\n")
    proc = node(mjs, "ident", "-inf")
    assert proc.stdout == shown(ident(float("-inf"))) + "\n"
    proc = node(mjs, "div", -7, 0)
    assert (proc.returncode, proc.stdout) == (Exit.RAISED, "")
    assert proc.stderr == "ZeroDivisionError: integer division or modulo by zero\n"
    assert node(mjs, "div", 7).returncode == Exit.USAGE
    proc = node(mjs, "div", "7.5", 1)
    assert proc.returncode == Exit.USAGE
    # the executable's message, with the loader for the program
    assert proc.stderr.splitlines() == [
        f"{mjs['div']}: argument 1 (a: expected int64, got '7.5')",
        f"usage: {mjs['div']} <a:i64> <b:i64>"]
    assert node(mjs, "mix", "x", 1, "True").returncode == Exit.USAGE
    assert node(mjs, "mix", 1, 1, "yes").returncode == Exit.USAGE
