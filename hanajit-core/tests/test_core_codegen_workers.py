"""Kept codegen children (``toolkit/codegen_workers.py``): one child serves many
requests, and a crash, an error exit, an exception or a timeout gives the error a
one-shot child gives, after which the next request is served again."""
from __future__ import annotations

import os

import pytest

from hanajit.errors import TargetError
from hanajit.toolkit import codegen_workers
from hanajit.toolkit import llvm_toolchain as tc

PROBE = """\
import os, sys, time
def emit(req):
    how = req.get("how")
    if req.get("noisy"):
        print("stray output on stdout")      # must not break the answers
    if how == "abort":
        os.abort()
    if how == "exit":
        sys.exit(3)
    if how == "raise":
        raise ValueError("no such kernel")
    if how == "sleep":
        time.sleep(60)
    return {"pid": os.getpid(), "twice": req["x"] * 2,
            "env": os.environ.get("HJ_PROBE_ENV")}
if __name__ == "__main__":
    import json
    json.dump(emit(json.load(sys.stdin)), sys.stdout)
"""


@pytest.fixture
def probe(tmp_path, monkeypatch):
    (tmp_path / "hj_kept_probe.py").write_text(PROBE)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(tmp_path)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    monkeypatch.delenv("HANAJIT_CODEGEN_WORKERS", raising=False)

    def run(how="ok", x=21, timeout=60, **request):
        return tc.run_isolated("hj_kept_probe", {"how": how, "x": x, **request},
                               what="probe codegen", timeout=timeout,
                               error=TargetError, kept=True)
    return run


def test_one_child_serves_many_requests(probe):
    first = probe(x=1)
    answers = [probe(x=x, noisy=x % 2 == 0) for x in range(2, 12)]
    assert [a["twice"] for a in answers] == [2 * x for x in range(2, 12)]
    assert {a["pid"] for a in answers} == {first["pid"]} != {os.getpid()}


def test_a_crash_is_the_one_shot_error_and_the_next_request_is_served(probe):
    pid = probe()["pid"]
    with pytest.raises(TargetError, match="probe codegen was killed by SIGABRT"):
        probe("abort")
    with pytest.raises(TargetError, match="probe codegen exited with status 3"):
        probe("exit")
    again = probe(x=5)
    assert again["twice"] == 10 and again["pid"] != pid


def test_an_exception_reports_its_traceback_and_the_child_serves_on(probe):
    pid = probe()["pid"]
    with pytest.raises(TargetError, match=r"(?s)probe codegen exited with status 1:.*"
                                          r"ValueError: no such kernel"):
        probe("raise")
    assert probe()["pid"] == pid


def test_a_timeout_ends_the_child(probe):
    pid = probe()["pid"]
    with pytest.raises(TargetError, match="probe codegen took over 1 s"):
        probe("sleep", timeout=1)
    assert probe()["pid"] != pid


def test_other_llvm_options_or_environment_get_another_child(probe, monkeypatch):
    plain = probe()["pid"]
    assert probe(llvm_options=["--spirv-ext=+SPV_KHR_float_controls"])["pid"] != plain
    monkeypatch.setenv("HJ_PROBE_ENV", "set")
    answer = probe()
    assert answer["env"] == "set" and answer["pid"] != plain


def test_idle_children_are_bounded(probe, monkeypatch):
    for k in range(codegen_workers.MAX_IDLE + 3):
        monkeypatch.setenv("HJ_PROBE_ENV", str(k))
        assert probe()["env"] == str(k)
    with codegen_workers._lock:
        idle = sum(len(ws) for ws in codegen_workers._idle.values())
    assert idle <= codegen_workers.MAX_IDLE


def test_turned_off_a_child_per_request(probe, monkeypatch):
    monkeypatch.setenv("HANAJIT_CODEGEN_WORKERS", "0")
    pids = {probe(x=x)["pid"] for x in range(3)}
    assert len(pids) == 3 and os.getpid() not in pids
