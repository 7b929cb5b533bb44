"""Passes added by plugins (``hanajit_register_passes``): placed where they ask, run
on every compilation, verified and dumped like the built-in ones."""
from __future__ import annotations

import pytest

from hanajit import hookimpl, jit, plugins
from hanajit.errors import PluginError
from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.pipeline import PASSES, compile_ir, passes

seen: list = []


def answer(x):
    return x + 41


def _bump(fn, ctx):
    """41 -> 42 in every integer constant of primitive IR: a visible change."""
    seen.append(fn.pyname)
    for st in N.walk_stmts(fn.body):
        for e in N.stmt_exprs(st):
            for sub in N.walk_expr(e) if e is not None else ():
                if isinstance(sub, N.Const) and sub.value == 41 and not isinstance(
                        sub.value, bool):
                    sub.value = 42


class BumpPlugin:
    @staticmethod
    @hookimpl
    def hanajit_register_passes(register):
        register("bump_answers", _bump, after="lower_semantics",
                 when=lambda ctx, spec, entry: ctx.capabilities.host_calls,
                 doc="test: 41 becomes 42")


class MisplacedPlugin:
    @staticmethod
    @hookimpl
    def hanajit_register_passes(register):
        register("lost", _bump, after="no_such_pass")


@pytest.fixture
def fresh_plugins():
    plugins.reset()
    yield
    plugins.reset()


def test_a_plugin_pass_runs_where_it_asks(fresh_plugins, monkeypatch):
    plugins.register_plugin(BumpPlugin, "bump")
    names = [p.name for p in passes()]
    assert names.index("bump_answers") == names.index("lower_semantics") + 1
    assert [p.name for p in PASSES] == [n for n in names if n != "bump_answers"]
    seen.clear()
    assert jit(answer, cache=False, fallback=False)(1) == 43
    assert "answer" in seen[0]


def test_a_plugin_pass_is_verified_and_dumped(fresh_plugins, monkeypatch, capfd):
    plugins.register_plugin(BumpPlugin, "bump")
    monkeypatch.setenv("HANAJIT_VERIFY", "1")
    monkeypatch.setenv("HANAJIT_DUMP", "after:bump_answers")
    compile_ir(answer, (T.INT64,))
    err = capfd.readouterr().err
    assert "--- after bump_answers ---" in err and "42" in err


def _break(fn, ctx):
    """An int64 constant retyped as float64 inside an int64 addition: invalid IR."""
    for st in N.walk_stmts(fn.body):
        for e in N.stmt_exprs(st):
            for sub in N.walk_expr(e) if e is not None else ():
                if isinstance(sub, N.BinOp) and isinstance(sub.right, N.Const):
                    sub.right.type = T.FLOAT64


class BreakingPlugin:
    @staticmethod
    @hookimpl
    def hanajit_register_passes(register):
        register("break_ir", _break, after="lower_semantics", doc="test: invalid IR")


@pytest.mark.parametrize("mode, where", [
    ("1", r"after the passes \(HANAJIT_VERIFY=passes names the one\)"),
    ("passes", "after the pass break_ir")])
def test_ir_a_pass_breaks_is_caught(fresh_plugins, monkeypatch, mode, where):
    """HANAJIT_VERIFY=1 (the test suite's) finds it after the passes;
    HANAJIT_VERIFY=passes right after the pass, naming it."""
    from hanajit.ir.verifier import VerifyError
    plugins.register_plugin(BreakingPlugin, "breaking")
    monkeypatch.setenv("HANAJIT_VERIFY", mode)
    with pytest.raises(VerifyError, match=f"BinOp add .*{where}"):
        compile_ir(answer, (T.INT64,))


def test_a_pass_after_an_unknown_pass_names_the_plugin(fresh_plugins):
    plugins.register_plugin(MisplacedPlugin, "misplaced")
    with pytest.raises(PluginError, match="misplaced.*no_such_pass"):
        passes()


def test_bad_registrations_raise(fresh_plugins):
    class Bad:
        @staticmethod
        @hookimpl
        def hanajit_register_passes(register):
            register("bad name", _bump, after="prune")

    with pytest.raises(PluginError, match="identifier"):
        plugins.register_plugin(Bad, "bad")


def test_the_cache_key_names_installed_plugins(fresh_plugins):
    before = plugins.installed_key()
    assert "cpu=" in before
    plugins.register_plugin(BumpPlugin, "bump")
    assert plugins.installed_key() == before + ",inproc:bump"


# -- installed plugins: the hanajit.passes group --------------------------------------
PASS_PLUGIN = '''
from hanajit import hookimpl


def mark(module, ctx):
    module.functions[module.entry].pyname += "_marked"


@hookimpl
def hanajit_register_passes(register):
    register("mark_entry", mark, after="analyze_raises", scope="module")
'''

PROBE = '''
import json, sys, warnings
warnings.simplefilter("ignore")
from hanajit import plugins
from hanajit.ir import types as T
from hanajit.pipeline import compile_ir


def inc(x):
    return x + 1


try:
    module, _ = compile_ir(inc, (T.INT64,))
    out = {"entry": module.functions[module.entry].pyname}
except Exception as exc:
    out = {"error": [type(exc).__name__, str(exc)]}
out["loaded"] = sorted(m for m in sys.modules if m.startswith(("hanajit_", "fake_")))
out["key"] = plugins.installed_key()
print(json.dumps(out))
'''


def _run_with(tmp_path, groups):
    import json
    import os
    import subprocess
    import sys
    (tmp_path / "fake_mark_plugin.py").write_text(PASS_PLUGIN)
    info = tmp_path / "hanajit_fake_mark-0.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hanajit-fake-mark\n"
                                   "Version: 0.3\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{g}]\nmark = fake_mark_plugin\n" for g in groups))
    (tmp_path / "probe.py").write_text(PROBE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, str(tmp_path / "probe.py")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_an_installed_pass_plugin_applies_from_the_first_compile(tmp_path):
    out = _run_with(tmp_path, ["hanajit", "hanajit.passes"])
    assert out.get("entry") == "inc_marked", out
    # only the pass plugin was loaded, not every installed plugin
    assert "fake_mark_plugin" in out["loaded"]
    assert not any(m.startswith("hanajit_exe") for m in out["loaded"])
    assert "mark=hanajit-fake-mark 0.3" in out["key"] and "passes:mark" in out["key"]


def test_a_pass_plugin_outside_the_passes_group_is_refused(tmp_path):
    import os
    import subprocess
    import sys
    _run_with(tmp_path, ["hanajit"])          # writes the files
    code = ("from hanajit import plugins\n"
            "try:\n    plugins.target_classes(); print('loaded')\n"
            "except Exception as exc:\n    print(type(exc).__name__, exc)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert "PluginError" in proc.stdout and "hanajit.passes" in proc.stdout, (
        proc.stdout + proc.stderr)
