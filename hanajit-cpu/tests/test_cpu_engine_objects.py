"""The engine optimises and emits a module text once per process
(``Engine.compile_object``): a function jitted again from the same source -- a
fresh ``jit(...)``, a closure made per call -- links the object already made,
and still computes what the interpreter computes."""
from __future__ import annotations

import numpy as np

from hanajit import jit
from hanajit.toolkit import llvm_toolchain
from hanajit_cpu import engine as E


def _counting(monkeypatch):
    calls = []
    real = llvm_toolchain.compile

    def counted(ir_text, tm, **kw):
        calls.append(ir_text)
        return real(ir_text, tm, **kw)
    monkeypatch.setattr(llvm_toolchain, "compile", counted)
    return calls


def make(scale):
    def kernel(a, n):
        s = 0.0
        for i in range(n):
            s += a[i] * scale
        return s
    return kernel


def test_the_same_module_text_compiles_once(monkeypatch):
    E.get_engine()                                  # (the runtimes are not counted)
    jit(lambda a: a.sum())(np.ones(3))
    calls = _counting(monkeypatch)
    a = np.arange(10.0)
    first = jit(make(2.5))(a, 10)
    assert len(calls) == 1
    again = [jit(make(2.5))(a, 10) for _ in range(3)]          # fresh closures
    assert len(calls) == 1
    assert first == again[0] == make(2.5)(a, 10)
    other = jit(make(3.5))(a, 10)                   # another constant: another text
    assert len(calls) == 2 and other == make(3.5)(a, 10)
    jit(make(2.5))(a.astype(np.float32), 10)        # other types: another text
    assert len(calls) == 3


def test_the_objects_kept_are_bounded():
    objects = E._Objects(limit=100)
    objects.put("a", ("text a", b"y" * 40))
    objects.put("b", ("text b", b"y" * 30))
    assert objects.get("a") == ("text a", b"y" * 40)
    objects.put("c", ("text c", b"y" * 30))         # over the limit: "b" goes first
    assert objects.get("b") is None
    assert objects.get("a") is not None and objects.get("c") == ("text c", b"y" * 30)
    objects.put("d", ("d", b"y" * 200))             # bigger than the limit: not kept
    assert objects.get("d") is None
