"""Plugin discovery across distributions: fault isolation, env vars, errors.

Entry-point cases install a fake distribution (a ``*.dist-info`` folder with
``entry_points.txt`` plus a module) in a temporary directory and run a fresh
interpreter with it on ``PYTHONPATH``, so discovery goes through the real
``importlib.metadata`` path.  In-process cases use :func:`plugins.register_plugin`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import types
from pathlib import Path

import pytest

from hanajit import hookimpl, plugins
from hanajit.errors import HanaJitPluginWarning, PluginError, TargetError
from hanajit.target import Capabilities, Target

ENV_VARS = ("HANAJIT_DISABLE_PLUGINS", "HANAJIT_LOAD_PLUGINS", "HANAJIT_TARGET")


@pytest.fixture(autouse=True)
def fresh_plugins(monkeypatch):
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    plugins.reset()
    yield
    plugins.reset()


# -- helpers: a fake installed distribution, a fresh interpreter ----------------------
def make_dist(root: Path, name: str, source: str) -> None:
    """Install distribution ``hanajit-fake-<name>`` 0.3 with entry point ``name``."""
    module = f"fake_{name}_plugin"
    (root / f"{module}.py").write_text(textwrap.dedent(source))
    info = root / f"hanajit_fake_{name}-0.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: hanajit-fake-{name}\nVersion: 0.3\n")
    (info / "entry_points.txt").write_text(f"[hanajit]\n{name} = {module}\n")


PROBE = """
import json, warnings
from hanajit import plugins
out = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        out["targets"] = list(plugins.target_classes())
        out["cpu"] = plugins.get_target("cpu").name
        out["example"] = plugins.get_target("example").name
        out["failed"] = plugins.failed_plugins()
    except Exception as exc:
        out["error"] = [type(exc).__name__, str(exc)]
out["warnings"] = [[type(w.message).__name__, str(w.message)] for w in caught]
print(json.dumps(out))
"""


def probe(root: Path, **env: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(root), environ.get("PYTHONPATH")]))
    environ.update(env)
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True,
                          text=True, env=environ, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def plugin_warnings(out: dict) -> list[str]:
    return [msg for kind, msg in out["warnings"] if kind == "HanaJitPluginWarning"]


# -- broken plugins warn, once, and the others keep working --------------------------
def test_plugin_that_fails_to_import_warns_once_and_others_work(tmp_path):
    make_dist(tmp_path, "broken", "import vendor_sdk_that_is_not_installed\n")
    out = probe(tmp_path)
    assert "error" not in out
    assert out["cpu"] == "cpu" and out["example"] == "example"
    [message] = plugin_warnings(out)
    assert "'broken'" in message and "hanajit-fake-broken" in message
    assert "vendor_sdk_that_is_not_installed" in message
    [failed] = out["failed"]
    assert failed["name"] == "broken"
    assert failed["distribution"] == "hanajit-fake-broken"
    assert failed["reason"].startswith("ModuleNotFoundError")


def test_plugin_whose_registration_hook_raises_is_rolled_back(tmp_path):
    make_dist(tmp_path, "halfway", """
        from hanajit import hookimpl
        from hanajit.target import Target

        class HalfwayTarget(Target):
            name = "halfway"

        @hookimpl
        def hanajit_register_target(register):
            register(HalfwayTarget)
            raise RuntimeError("no device library")
    """)
    out = probe(tmp_path)
    assert "halfway" not in out["targets"]
    assert out["cpu"] == "cpu" and out["example"] == "example"
    [message] = plugin_warnings(out)
    assert "'halfway'" in message and "RuntimeError: no device library" in message


def test_misspelt_hook_in_entry_point_raises_plugin_error(tmp_path):
    make_dist(tmp_path, "typo", """
        from hanajit import hookimpl

        @hookimpl
        def hanajit_register_targt(register):
            pass
    """)
    out = probe(tmp_path)
    kind, message = out["error"]
    assert kind == "PluginError"
    assert "'typo'" in message and "hanajit_register_targt" in message


def test_disabling_the_broken_plugin_silences_it(tmp_path):
    make_dist(tmp_path, "broken", "raise ImportError('nope')\n")
    out = probe(tmp_path, HANAJIT_DISABLE_PLUGINS="broken")
    assert plugin_warnings(out) == [] and out["failed"] == []
    assert out["cpu"] == "cpu"


# -- environment variables -----------------------------------------------------------
def test_disable_plugins_blocks_named_entry_points(monkeypatch):
    monkeypatch.setenv("HANAJIT_DISABLE_PLUGINS", "example, nothing")
    assert "example" not in plugins.target_classes()
    assert "cpu" in plugins.target_classes()
    with pytest.raises(TargetError, match="disabled by HANAJIT_DISABLE_PLUGINS"):
        plugins.get_target("example")
    assert "example" not in [p["name"] for p in plugins.plugin_info()]


def test_load_plugins_loads_only_those(monkeypatch):
    monkeypatch.setenv("HANAJIT_LOAD_PLUGINS", "example")
    assert list(plugins.target_classes()) == ["example"]
    assert [p["name"] for p in plugins.plugin_info()] == ["example"]


def test_load_plugins_naming_a_missing_plugin_warns(monkeypatch):
    monkeypatch.setenv("HANAJIT_LOAD_PLUGINS", "cpu,cdua")
    with pytest.warns(HanaJitPluginWarning, match="cdua"):
        assert list(plugins.target_classes()) == ["cpu"]


# -- misdeclared plugins raise -------------------------------------------------------
def plugin_module(name: str, **attrs) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


def test_misspelt_hook_raises_naming_plugin_and_hook():
    @hookimpl
    def hanajit_register_targt(register):
        pass

    bad = plugin_module("typo_plugin", hanajit_register_targt=hanajit_register_targt)
    with pytest.raises(PluginError, match=r"'typo'.*hanajit_register_targt"):
        plugins.register_plugin(bad, "typo")
    assert "typo" not in [p["name"] for p in plugins.plugin_info()]
    plugins.get_target("cpu")             # the manager is still usable


def test_hook_without_hookimpl_marker_raises():
    def hanajit_register_target(register):
        pass

    bad = plugin_module("unmarked", hanajit_register_target=hanajit_register_target)
    with pytest.raises(PluginError, match="without @hanajit.hookimpl"):
        plugins.register_plugin(bad, "unmarked")


def test_duplicate_target_name_names_both_plugins():
    class OtherCpu(Target):
        name = "cpu"

    @hookimpl
    def hanajit_register_target(register):
        register(OtherCpu)

    dup = plugin_module("dup", hanajit_register_target=hanajit_register_target)
    with pytest.raises(PluginError, match=r"'cpu'.*two plugins: 'cpu' and 'dup'"):
        plugins.register_plugin(dup, "dup")
    assert plugins.target_classes()["cpu"] is not OtherCpu


def test_target_aliases_select_the_target_by_its_name(monkeypatch):
    class Aliased(Target):
        name = "aliased"
        aliases = ("nickname",)

    @hookimpl
    def hanajit_register_target(register):
        register(Aliased)

    plugins.register_plugin(plugin_module("aliased", hanajit_register_target=
                                          hanajit_register_target), "aliased")
    target = plugins.get_target("nickname")
    assert target is plugins.get_target("aliased") and target.name == "aliased"
    assert plugins.capabilities_of("nickname") is Aliased.capabilities
    monkeypatch.setenv("HANAJIT_TARGET", "nickname")
    assert plugins.select_target(lambda: None) == "aliased"


@pytest.mark.parametrize("registered", [int, type("Nameless", (Target,), {})])
def test_register_rejects_non_targets_and_nameless_targets(registered):
    @hookimpl
    def hanajit_register_target(register):
        register(registered)

    bad = plugin_module("bad", hanajit_register_target=hanajit_register_target)
    with pytest.raises(PluginError, match="'bad' registered"):
        plugins.register_plugin(bad, "bad")


def test_in_process_plugin_whose_hook_raises_is_an_error_and_rolled_back():
    class Flaky(Target):
        name = "flaky"

    @hookimpl
    def hanajit_register_target(register):
        register(Flaky)
        raise OSError("driver missing")

    flaky = plugin_module("flaky", hanajit_register_target=hanajit_register_target)
    with pytest.raises(PluginError, match="OSError: driver missing"):
        plugins.register_plugin(flaky, "flaky")
    assert "flaky" not in plugins.target_classes()


# -- targets, exporters, info --------------------------------------------------------
def test_unknown_target_lists_available_and_install_hint():
    with pytest.raises(TargetError) as info:
        plugins.get_target("tpu")
    message = str(info.value)
    assert "'tpu'" in message and "cpu" in message and "example" in message
    assert "pip install hanajit-tpu" in message


def test_get_target_instantiates_once_even_across_threads():
    found = []
    threads = [threading.Thread(target=lambda: found.append(plugins.get_target("cpu")))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(t) for t in found}) == 1
    assert found[0] is plugins.get_target("cpu")


def test_in_process_plugin_registers_target_and_exporter():
    class Mine(Target):
        name = "mine"
        kind = "export"

    def export_mine(jitfunc, path):
        return path

    class Plugin:
        @hookimpl
        def hanajit_register_target(self, register):
            register(Mine)

        @hookimpl
        def hanajit_register_exporters(self, register):
            register("mine", export_mine)

    plugins.register_plugin(Plugin(), "mine")
    assert isinstance(plugins.get_target("mine"), Mine)
    assert plugins.exporters()["mine"] is export_mine
    [info] = [p for p in plugins.plugin_info() if p["name"] == "mine"]
    assert info["distribution"] is None and info["module"] == __name__
    assert info["hooks"] == ["hanajit_register_exporters", "hanajit_register_target"]


def test_target_aliases():
    """``Target.aliases``: another name for the same target, instance and
    capabilities (hanajit-hip answers to "amd")."""
    class Named(Target):
        name = "named"
        aliases = ("also-named",)
        capabilities = Capabilities(kernel_model=True)

    class Plugin:
        @hookimpl
        def hanajit_register_target(self, register):
            register(Named)

    plugins.register_plugin(Plugin(), "named")
    target = plugins.get_target("also-named")
    assert isinstance(target, Named) and target is plugins.get_target("named")
    assert plugins.capabilities_of("also-named").kernel_model
    assert "also-named" not in plugins.target_classes()


def test_reset_forgets_in_process_plugins():
    class Gone(Target):
        name = "gone"

    @hookimpl
    def hanajit_register_target(register):
        register(Gone)

    plugins.register_plugin(plugin_module("gone", hanajit_register_target=
                                          hanajit_register_target), "gone")
    assert "gone" in plugins.target_classes()
    plugins.reset()
    assert "gone" not in plugins.target_classes()


# -- target="auto" -------------------------------------------------------------------
def test_select_target_defaults_to_cpu():
    assert plugins.select_target(lambda: None) == "cpu"


def test_select_target_env_var_wins(monkeypatch):
    monkeypatch.setenv("HANAJIT_TARGET", "example")
    assert plugins.select_target(lambda: None) == "example"
    monkeypatch.setenv("HANAJIT_TARGET", "nope")
    with pytest.raises(TargetError, match="HANAJIT_TARGET.*pip install hanajit-nope"):
        plugins.select_target(lambda: None)


def test_select_target_hook_chooses_among_available_runnable_targets():
    seen = {}

    class Fast(Target):
        name = "fast"
        kind = "gpu"

    class Offline(Target):
        name = "offline"
        kind = "gpu"

        def status(self):
            return False, "no device"

    class Chooser:
        @hookimpl
        def hanajit_register_target(self, register):
            register(Fast)
            register(Offline)

        @hookimpl
        def hanajit_select_target(self, candidates, function):
            seen["candidates"], seen["function"] = candidates, function
            return "fast" if function.__name__ == "kernel" else None

    plugins.register_plugin(Chooser(), "chooser")

    def kernel():
        pass

    assert plugins.select_target(kernel) == "fast"
    # the available host and gpu targets (the example plugin's target is a host one;
    # metal is available wherever its simulation's g++ is, vulkan wherever a Vulkan
    # device is -- lavapipe counts)
    assert seen["function"] is kernel and seen["candidates"][0] == "cpu"
    assert set(seen["candidates"]) - {"metal", "vulkan"} == {"cpu", "example", "fast"}
    assert plugins.select_target(lambda: None) == "cpu"


def test_select_target_hook_returning_a_non_candidate_is_an_error():
    class Wrong:
        @hookimpl
        def hanajit_select_target(self, candidates, function):
            return "exe"              # export-only: never a candidate

    plugins.register_plugin(Wrong(), "wrong")
    with pytest.raises(PluginError, match=r"'exe'.*\[.*'wrong'.*\]"):
        plugins.select_target(None)


def test_importing_plugins_is_cheap():
    code = ("import sys, hanajit.plugins; "
            "print(sorted({'llvmlite', 'numpy'} & set(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_get_target_loads_only_the_plugin_named_like_the_target(tmp_path):
    """A warm start needs the cpu target alone: its entry point is loaded and no
    other; asking for anything else loads the rest, and a clash between plugins
    is still an error then."""
    make_dist(tmp_path, "clash", """
        from hanajit import hookimpl
        from hanajit.target import Target
        class Cpu(Target):
            name = "cpu"
        @hookimpl
        def hanajit_register_target(register):
            register(Cpu)
    """)
    code = textwrap.dedent("""
        import json, sys
        from hanajit import plugins
        from hanajit.errors import PluginError
        plugins.get_target("cpu")
        loaded = sorted(m for m in sys.modules if m.startswith("hanajit_"))
        try:
            plugins.target_classes()
            err = None
        except PluginError as exc:
            err = str(exc)
        print(json.dumps([loaded, err]))
    """)
    environ = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(tmp_path), environ.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=environ, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded, err = json.loads(proc.stdout)
    assert loaded and all(m.startswith("hanajit_cpu") for m in loaded), loaded
    assert err is not None and "'cpu'" in err and "'clash'" in err


def test_hook_with_wrong_argument_names_raises():
    @hookimpl
    def hanajit_register_target(registr):
        pass

    bad = plugin_module("args", hanajit_register_target=hanajit_register_target)
    with pytest.raises(PluginError, match=r"(?s)'args'.*registr"):
        plugins.register_plugin(bad, "args")


def test_registering_a_taken_plugin_name_raises():
    with pytest.raises(PluginError, match="'cpu'.*already registered by hanajit-cpu"):
        plugins.register_plugin(plugin_module("again"), "cpu")
