"""The example plugin is found end to end through its installed entry point."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

import pytest

from hanajit import plugins
from hanajit.doctor import run_doctor
from hanajit_example_target.target import ExampleTarget


@pytest.fixture(autouse=True)
def fresh_plugins(monkeypatch):
    for var in ("HANAJIT_DISABLE_PLUGINS", "HANAJIT_LOAD_PLUGINS", "HANAJIT_TARGET"):
        monkeypatch.delenv(var, raising=False)
    plugins.reset()
    yield
    plugins.reset()


def test_plugin_info_lists_distribution_and_version():
    [info] = [p for p in plugins.plugin_info() if p["name"] == "example"]
    assert info["distribution"] == "hanajit-example-target"
    assert info["version"] == version("hanajit-example-target")
    assert info["module"] == "hanajit_example_target.plugin"
    assert info["hooks"] == ["hanajit_doctor", "hanajit_register_exporters",
                             "hanajit_register_target"]


def test_get_target():
    target = plugins.get_target("example")
    assert isinstance(target, ExampleTarget)
    assert target.kind == "host"
    assert target.status()[0] is True       # a C compiler is installed here


def test_exporter_writes_the_function_name(tmp_path):
    def saxpy(a, x, y):
        return a * x + y

    path = plugins.exporters()["example_listing"](saxpy, tmp_path / "saxpy.txt")
    text = path.read_text()
    assert "function: saxpy" in text and "arguments: a, x, y" in text


def test_doctor_includes_target_and_plugin_checks():
    groups = {(g["kind"], g["name"]): g for g in run_doctor().to_dict()["groups"]}
    target_checks = {c["name"]: c["ok"] for c in groups["target", "example"]["checks"]}
    assert target_checks["example available"] is True
    plugin_checks = {c["name"]: c["ok"] for c in groups["plugin", "example"]["checks"]}
    assert plugin_checks == {"example plugin python": True}
    assert "hanajit-example-target" in groups["target", "example"]["source"]


def test_cli_targets_shows_it():
    proc = subprocess.run([sys.executable, "-m", "hanajit", "targets", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = {t["name"]: t for t in json.loads(proc.stdout)["targets"]}
    assert rows["example"] == {
        "name": "example", "kind": "host", "status": "available",
        "reason": ExampleTarget().status()[1],
        "distribution": "hanajit-example-target",
    }
