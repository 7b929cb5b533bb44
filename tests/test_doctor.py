"""The doctor: its report file, its exit status, and the host-runtime checks
(host target, native dispatcher, thread pool, disk cache), each run in process
on a :class:`hanajit.doctor.Report` and through the command line."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

import hanajit
from hanajit import doctor_checks
from hanajit.dispatch.heaptype import interpreter_supports_native
from hanajit.doctor import Report, report_name

ENV_VARS = ("HANAJIT_DISABLE_PLUGINS", "HANAJIT_LOAD_PLUGINS", "HANAJIT_TARGET",
            "HANAJIT_NATIVE_DISPATCH")


def run(args, cwd, **env):
    environ = {k: v for k, v in os.environ.items() if k not in ENV_VARS}
    environ.update(env)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          env=environ, cwd=cwd, timeout=600)


def checks(report: Report) -> dict:
    return {c.name: c for g in report.groups.values() for c in g.checks}


def test_report_name_names_the_platform():
    name = report_name()
    assert re.fullmatch(r"hanajit_report_[a-z0-9_]+\.md", name)
    if sys.platform.startswith("linux"):
        assert name == "hanajit_report_linux.md"


# (the second command with the host target's plugins only: the full report, every
# target's checks, runs in the first and in test_doctor_json_and_output)
@pytest.mark.parametrize("command, env", [
    (["-m", "hanajit.doctor"], {}),
    (["-m", "hanajit", "doctor"], {"HANAJIT_LOAD_PLUGINS": "cpu"})])
def test_doctor_prints_writes_the_report_and_says_where(tmp_path, command, env):
    proc = run(command, tmp_path, **env)
    path = tmp_path / report_name()
    assert path.read_text() == proc.stdout
    assert proc.stdout.startswith("# hanajit doctor")
    assert f"report written to {path}" in proc.stderr
    failed = "FAILED" in proc.stdout
    assert proc.returncode == (1 if failed else 0), proc.stdout
    for name in ("host target", "native dispatcher", "thread pool", "disk cache"):
        assert re.search(rf"^\| {name} \| (ok|skipped) \|", proc.stdout, re.M), name


def test_doctor_json_and_output(tmp_path):
    out = tmp_path / "sub.json"
    proc = run(["-m", "hanajit.doctor", "--json", "--output", str(out)], tmp_path)
    report = json.loads(out.read_text())
    assert json.loads(proc.stdout) == report
    failed = [c for g in report["groups"] for c in g["checks"] if c["ok"] is False]
    assert report["ok"] is (not failed) and proc.returncode == (1 if failed else 0)
    assert not (tmp_path / report_name()).exists()
    core = {c["name"] for g in report["groups"] if g["kind"] == "core" for c in g["checks"]}
    assert {"Python", "llvmlite", "NumPy"} <= core
    assert any(g["kind"] == "target" and g["name"] == "cpu" for g in report["groups"])


def test_no_host_target_fails_doctor_and_demo(tmp_path):
    proc = run(["-m", "hanajit", "doctor", "--json"], tmp_path,
               HANAJIT_DISABLE_PLUGINS="cpu,example")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    host = [c for g in report["groups"] for c in g["checks"] if c["name"] == "host target"]
    assert host and host[0]["ok"] is False and "no host target" in host[0]["detail"]
    # the runtime checks that need a host target are not attempted
    names = {c["name"] for g in report["groups"] for c in g["checks"]}
    assert "native dispatcher" not in names
    demo = run(["-m", "hanajit", "demo", "--quick", "--repeats", "1"], tmp_path,
               HANAJIT_DISABLE_PLUGINS="cpu,example")
    assert demo.returncode == 1
    assert "no kernel compiled" in demo.stderr


def test_host_target_check_in_process():
    report = Report()
    assert doctor_checks.host_target(report)
    assert checks(report)["host target"].ok and "cpu" in checks(report)["host target"].detail


def test_native_dispatch_check():
    report = Report()
    doctor_checks.native_dispatch(report)
    c = checks(report)["native dispatcher"]
    if interpreter_supports_native()[0]:
        assert c.ok is True, c.detail
        assert re.fullmatch(r"f\(1, 2\) in \d+ ns per call", c.detail)
    else:
        assert c.ok is None


def test_native_dispatch_check_skips_when_turned_off(monkeypatch):
    monkeypatch.setenv("HANAJIT_NATIVE_DISPATCH", "0")
    report = Report()
    doctor_checks.native_dispatch(report)
    assert checks(report)["native dispatcher"].ok is None


def test_thread_pool_check():
    report = Report()
    doctor_checks.thread_pool(report)
    c = checks(report)["thread pool"]
    n = hanajit.get_num_threads()
    if n >= 2 and os.path.isdir("/proc/self/task"):
        worked = int(re.fullmatch(r"a prange loop ran on (\d+) of (\d+) threads.*",
                                  c.detail).group(1))
        assert 1 <= worked <= n and c.ok is (worked >= 2)


def test_thread_pool_check_one_thread_and_no_workers(monkeypatch):
    saved = hanajit.get_num_threads()
    hanajit.set_num_threads(1)
    try:
        report = Report()
        doctor_checks.thread_pool(report)
        assert checks(report)["thread pool"].ok is True
    finally:
        hanajit.set_num_threads(saved)
    if saved < 2 or not os.path.isdir("/proc/self/task"):
        return
    # a pool whose threads never do any work: only the caller's ticks move
    calls = iter(range(10 ** 6))
    monkeypatch.setattr(doctor_checks, "_thread_ticks",
                        lambda: {"caller": next(calls), "worker": 0})
    report = Report()
    doctor_checks.thread_pool(report, attempts=1)
    c = checks(report)["thread pool"]
    assert c.ok is False and "ran on 1 of" in c.detail


def test_disk_cache_check_writes_and_reads_back_in_a_child():
    before = os.environ.get("HANAJIT_CACHE_DIR")
    report = Report()
    doctor_checks.disk_cache(report)
    c = checks(report)["disk cache"]
    assert c.ok is True, c.detail
    assert "loaded in a child process" in c.detail
    assert "the cache folder is " in c.detail and "compiled library pieces" in c.detail
    assert os.environ.get("HANAJIT_CACHE_DIR") == before
