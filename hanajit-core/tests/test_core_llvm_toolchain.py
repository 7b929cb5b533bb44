"""hanajit.toolkit.llvm_toolchain: the one way every target drives llvmlite."""
import sys
import threading

import pytest
from hanajit.errors import TargetError
from hanajit.toolkit import llvm_toolchain as tc

IR = """
define double @f(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr double, ptr %a, i64 %i
  %v = load double, ptr %p
  %s1 = fadd double %s, %v
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}
"""

HELPER = """
define double @g(double %x) {
  %y = fmul double %x, 2.0
  ret double %y
}
define double @unused(double %x) {
  ret double %x
}
"""

CALLER = """
declare double @g(double)
define double @h(double %x) {
  %y = call double @g(double %x)
  ret double %y
}
"""


def _tm(triple="x86_64-unknown-linux-gnu"):
    return tc.target_machine(triple, cpu="x86-64")


def test_compile_emits_the_same_bytes_every_time():
    """Each output is emitted once (all but the last from a fresh parse): emitting
    twice gives the same object, and asking for assembly first does not change it;
    three outputs from one module do not abort."""
    tm = _tm()
    one = tc.compile(IR, tm, emit=("obj",))
    two = tc.compile(IR, tm, emit=("asm", "obj"))
    assert one["obj"] == two["obj"] and one["obj"][:4] == b"\x7fELF"
    assert "define double @f" in one["llvm"] and "f:" in two["asm"]
    three = tc.compile(IR, tm, emit=("obj", "asm", "obj"))
    assert three["asm"] == two["asm"] and three["obj"][:4] == b"\x7fELF"
    assert tc.compile(IR, tm, emit=())["llvm"] == one["llvm"]


def test_link_and_lazy_link():
    tm = _tm()
    eager = tc.compile(CALLER, tm, link=(HELPER,), emit=())
    lazy = tc.compile(CALLER, tm, link=(HELPER,), link_lazily=True, emit=())
    assert "@unused" in eager["llvm"]
    assert "@unused" not in lazy["llvm"]          # only what the code uses
    assert "fmul" in lazy["llvm"] or "fadd" in lazy["llvm"]


def test_prepare_and_after_hooks_see_the_module():
    seen = []
    tc.compile(IR, _tm(), emit=(),
               prepare=lambda llvm, mod: seen.append(("prepare", mod.get_function("f").name)),
               after=lambda llvm, mod, pb: seen.append(("after", "f")))
    assert seen == [("prepare", "f"), ("after", "f")]


def test_every_target_holds_the_one_lock():
    """The CPU engine's compile lock is the toolchain's: a CPU compile and an export
    or GPU compile in other threads never use llvmlite at the same time."""
    pytest.importorskip("hanajit_cpu")
    from hanajit_cpu.engine import get_engine
    assert get_engine().compile_lock is tc.LOCK


def test_threads_compiling_for_several_targets_at_once():
    """Host, wasm and NVPTX codegen from four threads at once: every result is the
    one a lone compile gives."""
    targets = [("x86_64-unknown-linux-gnu", "x86-64"), ("wasm32-unknown-unknown", "generic"),
               ("nvptx64-nvidia-cuda", "sm_80")]
    alone = {t: tc.compile(IR, tc.target_machine(*t), emit=("asm",))["asm"] for t in targets}
    errors, results = [], []

    def work(k):
        try:
            for j in range(6):
                t = targets[(k + j) % len(targets)]
                results.append((t, tc.compile(IR, tc.target_machine(*t), emit=("asm",))["asm"]))
        except Exception as exc:        # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert len(results) == 24 and all(asm == alone[t] for t, asm in results)


def test_run_isolated_reports_a_crash_as_an_error(tmp_path, monkeypatch):
    (tmp_path / "hj_probe_child.py").write_text(
        "import json, os, sys\n"
        "req = json.load(sys.stdin)\n"
        "if req['how'] == 'abort': os.abort()\n"
        "if req['how'] == 'exit': sys.exit(3)\n"
        "json.dump({'twice': req['x'] * 2}, sys.stdout)\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    run = lambda how: tc.run_isolated("hj_probe_child", {"how": how, "x": 21},  # noqa: E731
                                      what="probe codegen", timeout=60, error=TargetError)
    assert run("ok") == {"twice": 42}
    with pytest.raises(TargetError, match="probe codegen was killed by SIGABRT"):
        run("abort")
    with pytest.raises(TargetError, match="probe codegen exited with status 3"):
        run("exit")
    assert sys.modules.get("hj_probe_child") is None
