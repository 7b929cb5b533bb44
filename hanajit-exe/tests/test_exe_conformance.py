"""The exporter case list on hanajit-exe: each case built into a program, run once
per argument tuple, what it prints compared with CPython."""
from __future__ import annotations

import math
import subprocess

from hanajit.testing.conformance import ExporterConformance


def _arg(v) -> str:
    return str(int(v)) if isinstance(v, bool) else repr(v)


def _parse(text: str):
    return eval(text, {"__builtins__": {}}, {"inf": math.inf, "nan": math.nan})  # noqa: S307


class TestExeConformance(ExporterConformance):
    target = "exe"

    def run_export(self, func, signature, argsets, tmp_path):
        out = func.export_executable(tmp_path / "prog", sig=signature)
        results = []
        for args in argsets:
            proc = subprocess.run([str(out.executable), *map(_arg, args)],
                                  capture_output=True, text=True, timeout=30)
            if proc.returncode == 0:
                results.append(("ok", _parse(proc.stdout.strip())))
            else:
                name, _, message = proc.stderr.strip().partition(": ")
                results.append(("raise", name, message))
        return results
