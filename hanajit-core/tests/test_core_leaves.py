"""The leaf modules that user code names stand alone, and the lower layers reach
the API and the targets only through what is handed down to them
(docs/architecture.md, "Layers")."""
import subprocess
import sys

import pytest

import hanajit
from hanajit import jitted, plugins, thread_count
from hanajit.target import Target


@pytest.mark.parametrize("leaf", ["hanajit.gpu", "hanajit.loops", "hanajit.jitted",
                                  "hanajit.errors", "hanajit.fastmath",
                                  "hanajit.parallel_streams"])
def test_leaf_modules_load_nothing_of_the_compiler(leaf):
    code = (f"import sys, {leaf}; print(sorted(m for m in sys.modules "
            "if m.startswith('hanajit.') and m != '{leaf}'))")
    out = subprocess.run([sys.executable, "-c", code.replace("{leaf}", leaf)],
                         capture_output=True, text=True, check=True).stdout
    loaded = set(eval(out)) - {"hanajit._version", "hanajit.errors"}
    assert not loaded, f"{leaf} loads {sorted(loaded)}"


def test_prange_is_one_object_everywhere():
    from hanajit import api, loops
    assert hanajit.prange is loops.prange is api.prange
    assert list(hanajit.prange(2, 5)) == [2, 3, 4]


def test_jitted_functions_are_known_below_the_api():
    def f(x):
        return x + 1
    jf = hanajit.jit(f)
    assert jitted.is_jitted(jf) and not jitted.is_jitted(f)
    copy = jitted.new_jitted(f, fallback=False)
    assert jitted.is_jitted(copy) and copy is not jf and copy.options["fallback"] is False


def test_a_target_without_threads_says_so():
    class Plain(Target):
        name = "plain"
    assert Plain().get_num_threads() == 1
    with pytest.raises(NotImplementedError, match="no threads"):
        Plain().set_num_threads(2)


def test_num_threads_go_through_the_default_target(monkeypatch):
    class Threaded(Target):
        name = "threaded"
        n = 3

        def get_num_threads(self):
            return self.n

        def set_num_threads(self, n):
            self.n = n
    target = Threaded()
    asked = []
    monkeypatch.setattr(plugins, "get_target", lambda name: asked.append(name) or target)
    assert thread_count.get_num_threads() == 3
    hanajit.set_num_threads(5)
    assert hanajit.get_num_threads() == 5 and target.n == 5
    assert set(asked) == {plugins.DEFAULT_TARGET}
