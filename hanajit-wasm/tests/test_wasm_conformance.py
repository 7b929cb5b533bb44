"""The exporter case list on hanajit-wasm: each case exported, loaded by its
JavaScript loader under node, called once per argument tuple, compared with CPython."""
from __future__ import annotations

import json
import math
import subprocess

import pytest

from hanajit.testing.conformance import ExporterConformance
from hanajit_wasm.toolchain import find_node

# arguments as JSON with non-finite floats as strings; results likewise
DRIVER = r"""
const [,, loader, argsJson] = process.argv;
const { default: load } = await import(loader);
const k = await load();
const special = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };
const argsets = JSON.parse(argsJson, (key, v) => (typeof v === "string" && v in special)
  ? special[v] : v);
const out = [];
for (const args of argsets) {
  try { out.push(["ok", k[k.manifest.name](...args)]); }
  catch (e) { out.push(["raise", e.name, e.message]); }
}
const enc = (v) => typeof v === "bigint" ? v.toString() :
  (typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0))) ? String(v) : v;
console.log(JSON.stringify(out, (key, v) => Object.is(v, -0) ? "-0" : enc(v)));
"""


def _arg(v):
    return v if not isinstance(v, float) or math.isfinite(v) else str(v).replace(
        "inf", "Infinity").replace("nan", "NaN")


def _value(v):
    if isinstance(v, list):
        return tuple(_value(x) for x in v)
    if v in ("NaN", "Infinity", "-Infinity", "-0"):
        return float(v.replace("Infinity", "inf"))
    return v


class TestWasmConformance(ExporterConformance):
    target = "wasm"

    def run_export(self, func, signature, argsets, tmp_path):
        node = find_node()
        if node is None:
            pytest.skip("node not installed")
        out = func.export_wasm(tmp_path / "k", sig=signature)
        driver = tmp_path / "driver.mjs"
        driver.write_text(DRIVER)
        proc = subprocess.run([node, str(driver), str(out.mjs.resolve()),
                               json.dumps([[_arg(a) for a in args] for args in argsets])],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return [("ok", _value(r[1])) if r[0] == "ok" else tuple(r)
                for r in json.loads(proc.stdout)]
