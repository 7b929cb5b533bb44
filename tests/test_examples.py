"""Every program in examples/ runs to completion (each checks its own results)."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


def test_there_are_examples():
    assert len(EXAMPLES) >= 4
    # the ones README.md and docs/ link to
    assert {"nbody_step", "rdf_narrow"} <= {p.stem for p in EXAMPLES}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs(path, tmp_path):
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=600, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "HanaJitFallbackWarning" not in proc.stderr, proc.stderr[-3000:]
    # f.narrow() ran narrow lanes, not the ordinary code (rdf_narrow.py)
    assert "HanaJitNarrowWarning" not in proc.stderr, proc.stderr[-3000:]
