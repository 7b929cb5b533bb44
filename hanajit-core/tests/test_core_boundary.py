"""The boundary's printers and parsers against CPython: the Python rules
(``boundary.float_text``), the generated C (compiled with the host C compiler,
and as C++ as the HLS testbench is) and the generated JavaScript (node)."""
from __future__ import annotations

import json
import math
import random
import shutil
import struct
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.toolkit import boundary as B
from hanajit.toolkit import boundary_c, boundary_js

CC = shutil.which("cc") or shutil.which("gcc")
CXX = shutil.which("g++") or shutil.which("clang++")
NODE = shutil.which("node")

# reads lines "f <hex bits>", "c <hex re> <hex im>", "p <text>", "q <text>"
# (float and complex parsing), prints one result line each
HARNESS = r"""
int main(void) {
    char line[256], kind;
    unsigned long long a, b;
    double x, y;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        kind = line[0];
        if (kind == 'f' && sscanf(line + 2, "%llx", &a) == 1) {
            memcpy(&x, &a, 8);
            hj_print_float(x);
        } else if (kind == 'c' && sscanf(line + 2, "%llx %llx", &a, &b) == 2) {
            memcpy(&x, &a, 8);
            memcpy(&y, &b, 8);
            hj_print_complex(x, y);
        } else if (kind == 'q') {
            if (hj_parse_complex(line + 2, &x, &y)) hj_print_complex(x, y);
            else fputs("error", stdout);
        }
        putchar('\n');
    }
    return 0;
}
"""


def _bits(v: float) -> str:
    return "%016x" % struct.unpack("<Q", struct.pack("<d", v))[0]


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    if CC is None:
        pytest.skip("no C compiler")
    folder = tmp_path_factory.mktemp("boundary")
    src = folder / "h.c"
    src.write_text(boundary_c.source() + HARNESS)
    exe = folder / "h"
    proc = subprocess.run([CC, "-std=c11", "-O2", "-Wall", "-Wno-unused-function",
                           "-Werror", "-o", str(exe), str(src), "-lm"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return exe


def run(exe, lines: list) -> list:
    proc = subprocess.run([str(exe)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def edge_floats() -> list:
    vals = [0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, 1e16, 1e-5, 1e-4,
            0.1, 0.5, 1.0, 1e15, 9999999999999998.0, 1e16 - 2, 123456789012345678.0,
            5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
            1.7976931348623157e308, 1e22, 1e21, 1e23, 0.0001234, 100.0, 1.5e300]
    vals += [math.ldexp(1.0, k) for k in range(-1074, 1024)]
    r = random.Random(20)
    vals += [struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
             for _ in range(3000)]
    vals += [r.uniform(-1e5, 1e5) for _ in range(1000)]
    return vals + [-v for v in vals]


def test_python_rules_are_repr():
    for v in edge_floats():
        assert B.float_text(v) == repr(v)
    for re in (0.0, -0.0, 1.0, -2.5, math.nan, math.inf, 1e16, 1e-7):
        for im in (0.0, -0.0, 1.0, -1.0, math.nan, -math.inf, 3e20, 1e-5):
            assert B.complex_text(re, im) == repr(complex(re, im))


def test_c_float_repr_edges(harness):
    vals = edge_floats()
    assert run(harness, [f"f {_bits(v)}" for v in vals]) == [repr(v) for v in vals]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(allow_subnormal=True), min_size=1, max_size=300))
def test_c_float_repr_hypothesis(harness, vals):
    assert run(harness, [f"f {_bits(v)}" for v in vals]) == [repr(v) for v in vals]


def test_c_complex_repr_and_parse(harness):
    parts = [0.0, -0.0, 1.0, -1.0, 2.5, math.nan, math.inf, -math.inf, 1e16, 1e-5]
    pairs = [(a, b) for a in parts for b in parts]
    assert run(harness, [f"c {_bits(a)} {_bits(b)}" for a, b in pairs]) == \
        [repr(complex(a, b)) for a, b in pairs]
    texts = ["1+2j", "(1-2j)", "2j", "-j", "j", "+j", "1.5", " (3+j) ", "nan+infj",
             "-0-1j", "1e5-2.5e-3j", "1e16j", "1+2", "", "j1", "(1+2j", "1+2jj", "()"]
    want = []
    for text in texts:
        try:
            want.append(repr(complex(text)))
        except ValueError:
            want.append("error")
    assert run(harness, [f"q {t}" for t in texts]) == want


def test_c_printers_compile_as_cpp(tmp_path):
    """The HLS testbench is C++: the printers must compile there too."""
    if CXX is None:
        pytest.skip("no C++ compiler")
    src = tmp_path / "h.cpp"
    src.write_text(boundary_c.source(parse=False, raises=False)
                   + "int main() { hj_print_float(0.1); hj_print_complex(1, 2); "
                     "return 0; }\n")
    proc = subprocess.run([CXX, "-std=c++14", "-Wall", "-Wno-unused-function",
                           "-Werror", "-o", str(tmp_path / "h"), str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = subprocess.run([str(tmp_path / "h")], capture_output=True, text=True)
    assert out.stdout == "0.1(1+2j)"


def test_exception_names():
    import numpy as np
    assert B.exception_name(ZeroDivisionError) == "ZeroDivisionError"
    assert B.exception_name(np.linalg.LinAlgError) == "numpy.linalg.LinAlgError"
    table = B.raise_table([(IndexError, "index {} is out of bounds", False),
                           (ValueError, "", False)])
    assert [B.raise_text(*e) for e in table] == ["IndexError: index {} is out of bounds",
                                                 "ValueError"]


def test_js_float_repr(tmp_path):
    if NODE is None:
        pytest.skip("node not installed")
    vals = edge_floats()
    script = tmp_path / "r.mjs"
    script.write_text(boundary_js.source() + """
import { readFileSync } from "node:fs";
const F = new Float64Array(1), U = new BigUint64Array(F.buffer);
const out = [];
for (const line of readFileSync(0, "utf8").trim().split("\\n")) {
  const [kind, a, b] = line.split(" ");
  U[0] = BigInt("0x" + a);
  const x = F[0];
  if (kind === "f") { out.push(pyFloat(x, true)); continue; }
  U[0] = BigInt("0x" + b);
  out.push(pyComplex(x, F[0]));
}
console.log(out.join("\\n"));
""")
    parts = [0.0, -0.0, 1.0, -1.0, math.nan, math.inf, 1e16, 1e-5]
    lines = [f"f {_bits(v)}" for v in vals] + \
        [f"c {_bits(a)} {_bits(b)}" for a in parts for b in parts]
    proc = subprocess.run([NODE, str(script)], input="\n".join(lines),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [repr(v) for v in vals] + \
        [repr(complex(a, b)) for a in parts for b in parts]


def test_js_values_print_as_python(tmp_path):
    """``pyRepr(value, type)`` on the values the loader returns."""
    if NODE is None:
        pytest.skip("node not installed")
    cases = [(1.0, "f64", "1.0"), (True, "bool", "True"), (None, "none", "None"),
             ({"big": "-9223372036854775808"}, "i64", "-9223372036854775808"),
             ({"big": "18446744073709551615"}, "u64", "18446744073709551615"),
             (7, "i32", "7"), (0.1, "f32", "0.1"),
             ([{"big": "1"}, 2.5], ["i64", "f64"], "(1, 2.5)"),
             ([False], ["bool"], "(False,)"), ([], [], "()"),
             ([[None, 1e16], 3], [["none", "f64"], "u8"], "((None, 1e+16), 3)"),
             ({"data": [1.5, -0.0, 3, 4], "shape": [2, 2]},
              {"array": "f64", "ndim": 2}, "[[1.5, -0.0], [3.0, 4.0]]"),
             ({"data": [1, 0], "shape": [2]}, {"array": "bool", "ndim": 1},
              "[True, False]")]
    script = tmp_path / "v.mjs"
    script.write_text(boundary_js.source() + """
const cases = JSON.parse(process.argv[2]);
const dec = (v) => v !== null && typeof v === "object" && "big" in v ? BigInt(v.big)
  : Array.isArray(v) ? v.map(dec)
  : v !== null && typeof v === "object" ? { data: v.data, shape: v.shape } : v;
console.log(JSON.stringify(cases.map(([v, t]) => pyRepr(dec(v), t))));
""")
    proc = subprocess.run([NODE, str(script), json.dumps([[v, t] for v, t, _ in cases])],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [want for *_, want in cases]


def test_the_exit_statuses_are_documented():
    from pathlib import Path
    docs = Path(__file__).resolve().parents[2] / "docs" / "exports.md"
    if not docs.exists():
        pytest.skip("not a source checkout")
    rows = {int(line.split("|")[1]) for line in docs.read_text().splitlines()
            if line.startswith("| ") and line.split("|")[1].strip().isdigit()}
    assert rows == {int(e) for e in B.Exit}
