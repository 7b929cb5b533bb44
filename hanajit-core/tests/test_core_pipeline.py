"""hanajit.pipeline: the passes run as PASSES lists them, each can be dumped, and
the options and the entry decide which run."""
import os
import re
import subprocess
import sys

from hanajit.pipeline import PASSES, compile_ir

SCRIPT = r'''
from hanajit.pipeline import compile_ir
from hanajit.ir import types as T

def total(n):
    s = 0
    for i in range(n):
        s += i * i
    return s

compile_ir(total, (T.INT64,), {OPTIONS})
'''


def _dumped(tmp_path, options: str) -> list:
    env = dict(os.environ, HANAJIT_DUMP="after:*")
    script = tmp_path / "dump_probe.py"
    script.write_text(SCRIPT.replace("{OPTIONS}", options))
    out = subprocess.run([sys.executable, str(script)],
                         capture_output=True, text=True, env=env, timeout=120,
                         check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    return re.findall(r"^--- after (\w+) ---$", out.stderr, flags=re.M)


def _always():
    """The passes that run whatever the options, on the CPU target (which has every
    capability a pass asks for) and its entry."""
    return [p.name for p in PASSES if p.when.__name__ in ("_always", "_host_entry")
            or p.when.__qualname__.startswith(("capability ", "unless options "))]


def test_every_pass_that_runs_is_dumped_in_order(tmp_path):
    got = _dumped(tmp_path, "{}")
    assert got == ["infer"] + _always() + ["all"]


def test_options_switch_passes_on(tmp_path):
    got = _dumped(tmp_path, '{"rewrite": True, "reduce_reassoc": True, "narrow": (16, 32), '
                  '"general_copies": True}')
    want = [p.name for p in PASSES
            if p.name not in ("interchange", "fastmath", "result_flags", "jam_loops")]
    assert got == ["infer"] + want + ["all"]


def test_narrow_reports_come_back_on_the_context():
    def count(a):
        s = 0
        for i in range(a.shape[0]):
            s += a[i]
        return s
    from hanajit.ir import types as T
    arr = T.ArrayType(T.INT8, 1, "C")
    _, ctx = compile_ir(count, (arr,), {"narrow": (16, 32)})
    assert ctx.narrow_report and all(hasattr(r, "why") for r in ctx.narrow_report)
    _, plain = compile_ir(count, (arr,), {})
    assert plain.narrow_report == []
