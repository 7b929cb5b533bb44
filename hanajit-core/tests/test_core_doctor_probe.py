"""The doctor's probe launch (:mod:`hanajit.doctor_probe`): run in a child process,
whose failures -- an error, a crash, silence -- become a failed check with the
reason, never the doctor's own failure.  Real launches are the plugins' tests
(lavapipe, PoCL, the Metal simulation, the fake HIP runtime)."""
from __future__ import annotations

import sys

from hanajit.doctor import Report
from hanajit import doctor_probe as probe

NAME = "{}: probe launch (saxpy on the device, in a child process)"


def outcome(report, target):
    return {c.name: (c.ok, c.detail) for g in report.groups.values()
            for c in g.checks}[NAME.format(target)]


def test_an_error_in_the_child_is_the_reason():
    report = Report()
    assert probe.check_launch(report, "no-such-target") is False
    ok, detail = outcome(report, "no-such-target")
    assert ok is False and "no-such-target" in detail


def test_a_crashing_child_is_a_failed_check(monkeypatch, tmp_path):
    script = tmp_path / "crash.py"
    script.write_text("import sys\nsys.stderr.write('segfault in the runtime\\n')\n"
                      "sys.exit(139)\n")
    monkeypatch.setattr(probe.subprocess, "run", _run_script(str(script)))
    report = Report()
    assert probe.check_launch(report, "x") is False
    ok, detail = outcome(report, "x")
    assert ok is False and "status 139" in detail and "segfault in the runtime" in detail


def test_a_silent_child_times_out(monkeypatch, tmp_path):
    script = tmp_path / "hang.py"
    script.write_text("import time\ntime.sleep(60)\n")
    monkeypatch.setattr(probe.subprocess, "run", _run_script(str(script)))
    report = Report()
    assert probe.check_launch(report, "x", timeout=1) is False
    assert outcome(report, "x") == (False, "no answer within 1 s")


def _run_script(script):
    real = probe.subprocess.run

    def run(cmd, **kwargs):
        return real([sys.executable, script], **kwargs)
    return run


def test_the_child_entry_point_prints_one_json_line(capsys):
    assert probe.main(["no-such-target", "f32"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith('{"ok": false')
