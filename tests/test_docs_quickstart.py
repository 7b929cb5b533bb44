"""Every Python block of docs/quickstart.md runs as written (in a child process, a
fresh interpreter per block, from a file so that hanajit can read the source);
blocks that start with ``# needs a GPU target`` are compiled only if a GPU
target is available, else skipped."""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "quickstart.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_there_are_blocks():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_block_runs(k, tmp_path):
    code = BLOCKS[k]
    if code.startswith("# needs a GPU target"):
        from hanajit import plugins
        ok, why = plugins.get_target("cuda").status()
        if not ok:
            pytest.skip(f"the quickstart's GPU block needs a CUDA device: {why}")
    script = tmp_path / f"block{k}.py"
    script.write_text(code)
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONWARNINGS="error::UserWarning")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
