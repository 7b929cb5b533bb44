"""The codegen fork server (``toolkit/codegen_workers.py``): one server forks a
child per request, each starting from the server's state; a crash, an error
exit, an exception or a timeout gives the error a one-shot child gives, and the
next request is served by the same server."""
from __future__ import annotations

import os

import pytest

from hanajit.errors import TargetError
from hanajit.toolkit import codegen_workers
from hanajit.toolkit import llvm_toolchain as tc

PROBE = """\
import os, sys, time
STATE = []
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
    seen = STATE.copy()
    STATE.append(req["x"])                   # gone with the child
    return {"pid": os.getpid(), "ppid": os.getppid(), "twice": req["x"] * 2,
            "env": os.environ.get("HJ_PROBE_ENV"), "seen": seen}
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
                               error=TargetError, fork_server=True)
    return run


def test_one_server_forks_a_fresh_child_per_request(probe):
    first = probe(x=1)
    answers = [probe(x=x, noisy=x % 2 == 0) for x in range(2, 12)]
    assert [a["twice"] for a in answers] == [2 * x for x in range(2, 12)]
    # one server, a child per request, none seeing what an earlier one did
    assert {a["ppid"] for a in answers} == {first["ppid"]} != {os.getpid()}
    assert len({a["pid"] for a in answers + [first]}) == 11
    assert all(a["seen"] == [] for a in answers)


def test_a_crash_is_the_one_shot_error_and_the_next_request_is_served(probe):
    server = probe()["ppid"]
    with pytest.raises(TargetError, match="probe codegen was killed by SIGABRT"):
        probe("abort")
    with pytest.raises(TargetError, match="probe codegen exited with status 3"):
        probe("exit")
    again = probe(x=5)
    assert again["twice"] == 10 and again["ppid"] == server


def test_an_exception_reports_its_traceback(probe):
    server = probe()["ppid"]
    with pytest.raises(TargetError, match=r"(?s)probe codegen exited with status 1:.*"
                                          r"ValueError: no such kernel"):
        probe("raise")
    assert probe()["ppid"] == server


def test_a_timeout_kills_the_child_not_the_server(probe):
    server = probe()["ppid"]
    with pytest.raises(TargetError, match="probe codegen took over 1 s"):
        probe("sleep", timeout=1)
    assert probe()["ppid"] == server


def test_another_environment_gets_another_server(probe, monkeypatch):
    plain = probe()["ppid"]
    monkeypatch.setenv("HJ_PROBE_ENV", "set")
    answer = probe()
    assert answer["env"] == "set" and answer["ppid"] != plain


def test_idle_servers_are_bounded(probe, monkeypatch):
    for k in range(codegen_workers.MAX_IDLE + 3):
        monkeypatch.setenv("HJ_PROBE_ENV", str(k))
        assert probe()["env"] == str(k)
    with codegen_workers._lock:
        idle = sum(len(ws) for ws in codegen_workers._idle.values())
    assert idle <= codegen_workers.MAX_IDLE


def test_turned_off_a_python_per_request(probe, monkeypatch):
    monkeypatch.setenv("HANAJIT_CODEGEN_WORKERS", "0")
    assert {probe(x=x)["ppid"] for x in range(3)} == {os.getpid()}
