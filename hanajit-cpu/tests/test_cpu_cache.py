"""The disk cache (``@jit(cache=True)``): warm loads in fresh processes, invalidation
by edits in other modules and by frozen globals, damaged entries, concurrent
writers, an unusable cache folder, pickling.

Every behaviour that crosses processes is tested with real subprocesses; each
compares the compiled results with CPython running the same function.
"""
from __future__ import annotations

import glob
import json
import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hanajit
from hanajit import cache as hcache
from hanajit.cache import store
from hanajit.testing.cases_operators import OperatorCases

MAIN = '''
import math
import numpy as np
import hanajit
import helpers

K = 3

@hanajit.jit(cache=True)
def scaled(n):
    s = 0
    for i in range(n):
        s += helpers.twice(i) * K
    return s

@hanajit.jit(cache=True)
def fdiv(a, b):
    return a // b

@hanajit.jit(cache=True)
def fsqrt(x):
    return math.sqrt(x)

@hanajit.jit(cache=True)
def power(a, b):
    return a ** b

@hanajit.jit(cache=True)
def norm(a):
    return np.sum(a * a) + helpers.OFFSET

@hanajit.jit(cache=True)
def pair(x, y):
    return (x + y, x * 0.5)

@hanajit.jit(cache=True)
def neg(a):
    return -a

@hanajit.jit(cache=True)
def doubled(a, n):
    return [x * n for x in a]

@hanajit.jit(cache=True)
def listed_and_counted(a):
    return [x for x in a], [i for i in range(len(a))], len(a)
'''

HELPERS = '''
import hanajit

OFFSET = 1.0

@hanajit.jit(cache=True)
def twice(x):
    return 2 * x
'''

# runs every case, compares with CPython, prints results and the cache's counters
PROBE = r'''
import json, math, sys
import numpy as np
import main
from hanajit import cache

def outcome(f, *args):
    try:
        r = f(*args)
    except Exception as exc:
        return ["raise", type(exc).__name__, str(exc)]
    if isinstance(r, np.ndarray):
        return ["array", repr(r.tolist())]
    if isinstance(r, list):              # (the items' types too)
        return ["list", repr([(type(x).__name__, x) for x in r])]
    if isinstance(r, np.generic):        # (the same value, in both runs)
        r = r.item()
    return ["value", repr(r)]

cases = [(main.scaled, (10,)), (main.scaled, (0,)), (main.fdiv, (7, 2)),
         (main.fdiv, (-7, 2)), (main.fdiv, (1, 0)), (main.fdiv, (-2**63, 1)),
         (main.fsqrt, (2.0,)), (main.fsqrt, (-1.0,)), (main.fsqrt, (float("inf"),)),
         (main.power, (-8.0, 0.5)), (main.power, (2, 3)), (main.power, (2, -1)), (main.norm, (np.arange(5.0),)),
         (main.norm, (np.arange(10.0)[::3],)), (main.norm, (np.zeros(0),)),
         (main.pair, (1.5, -0.0)), (main.neg, (np.array([1.0, -0.0, np.nan]),)),
         (main.doubled, (np.arange(3.0), 2)), (main.doubled, (np.arange(3, dtype=np.int8), 3)),
         (main.listed_and_counted, (np.arange(2.0),))]   # (repr: the items' types too)
got = [outcome(f, *a) for f, a in cases]
want = [outcome(f.py_func, *a) for f, a in cases]
print(json.dumps({"got": got, "want": want, "stats": cache.stats}))
'''


def _env(cache_dir, *paths):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_")}
    env["HANAJIT_CACHE_DIR"] = str(cache_dir)
    # entries must keep their names while colleagues edit the compiler's files
    env["HANAJIT_CACHE_COMPILER_ID"] = "test-cpu-cache"
    env["PYTHONPATH"] = os.pathsep.join([str(p) for p in paths]
                                        + [env.get("PYTHONPATH", "")])
    env["PYTHONWARNINGS"] = "error::hanajit.HanaJitFallbackWarning"
    # no .pyc: Python checks one by the source's mtime in whole seconds and its
    # size, so an edit of the same length within the second of the first run
    # would run the old bytecode while hanajit compiles the new source
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_py(code, env, cwd, timeout=240):
    """Run ``code`` in a fresh interpreter; return the JSON of its last line."""
    proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


@pytest.fixture
def project(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "main.py").write_text(MAIN)
    (src / "helpers.py").write_text(HELPERS)
    return src, tmp_path / "cache"


def entries(cache_dir):
    """The functions' entries (not the runtimes' objects under ``_runtime/`` nor
    the library's pieces under ``_library/``)."""
    return sorted(p for p in glob.glob(os.path.join(cache_dir, "**", "*.hjc"),
                                       recursive=True)
                  if os.path.basename(os.path.dirname(p)) not in ("_runtime", "_library"))


def test_cold_then_warm_in_fresh_processes(project):
    src, cache_dir = project
    env = _env(cache_dir, src)
    cold, _ = run_py(PROBE, env, src)
    assert cold["got"] == cold["want"]
    assert cold["stats"]["hits"] == 0 and cold["stats"]["writes"] >= 7
    n = len(entries(cache_dir))
    assert n == cold["stats"]["writes"]
    warm, _ = run_py(PROBE, env, src)
    assert warm["got"] == warm["want"] == cold["want"]
    assert warm["stats"]["hits"] == n
    assert warm["stats"]["writes"] == warm["stats"]["misses"] == 0
    assert len(entries(cache_dir)) == n


def test_helper_edit_in_other_module_invalidates(project):
    src, cache_dir = project
    env = _env(cache_dir, src)
    code = ("import json, main; from hanajit import cache; "
            "print(json.dumps([main.scaled(10), main.scaled.py_func(10), cache.stats]))")
    (r1, p1, s1), _ = run_py(code, env, src)
    assert r1 == p1 == 270
    helper_path = src / "helpers.py"
    helper_path.write_text(HELPERS.replace("return 2 * x", "return 5 * x"))
    (r2, p2, s2), _ = run_py(code, env, src)
    assert r2 == p2 == 675
    assert s2["stale"] >= 1 and s2["writes"] >= 1 and s2["hits"] == 0
    (r3, _, s3), _ = run_py(code, env, src)       # the rewritten entry is used
    assert r3 == 675 and s3["hits"] >= 1 and s3["writes"] == 0


def test_frozen_global_change_invalidates(project):
    src, cache_dir = project
    env = _env(cache_dir, src)
    code = ("import json, numpy as np, main; from hanajit import cache; "
            "a = np.arange(4.0); "
            "print(json.dumps([main.norm(a), main.norm.py_func(a), main.scaled(4), "
            "main.scaled.py_func(4), cache.stats]))")
    (n1, pn1, s1, ps1, _), _ = run_py(code, env, src)
    assert (n1, s1) == (pn1, ps1) == (15.0, 36)
    (src / "helpers.py").write_text(HELPERS.replace("OFFSET = 1.0", "OFFSET = 2.5"))
    (src / "main.py").write_text(MAIN.replace("K = 3", "K = 4"))
    (n2, pn2, s2, ps2, st2), _ = run_py(code, env, src)
    assert (n2, s2) == (pn2, ps2) == (16.5, 48)
    assert st2["stale"] == 2      # (helpers.twice, called by the interpreter, hits)


def test_truncated_and_corrupted_entries_are_rewritten(project):
    src, cache_dir = project
    env = _env(cache_dir, src)
    code = ("import json, main; from hanajit import cache; "
            "print(json.dumps([main.fdiv(-7, 2), main.fdiv.py_func(-7, 2), cache.stats]))")
    run_py(code, env, src)
    [path] = [p for p in entries(cache_dir) if "fdiv" in os.path.basename(p)]
    good = open(path, "rb").read()
    damages = {"truncated": good[:len(good) // 2], "empty": b"",
               "flipped": good[:len(good) // 2] + bytes([good[len(good) // 2] ^ 0xFF])
               + good[len(good) // 2 + 1:],
               "garbage": os.urandom(len(good))}
    for name, data in damages.items():
        with open(path, "wb") as f:
            f.write(data)
        (r, p, stats), _ = run_py(code, env, src)
        assert r == p == -4, name
        assert stats["corrupt"] == 1 and stats["writes"] == 1, (name, stats)
        assert store.read_entry(path) not in (None, "corrupt"), name
        (r, _, stats), _ = run_py(code, env, src)
        assert r == -4 and stats["hits"] == 1, name


CONCURRENT_WRITER = r'''
import json, os, sys, time
ready, go = sys.argv[1], sys.argv[2]
import main
from hanajit import cache
open(ready, "w").close()             # imported: wait for the others
while not os.path.exists(go):
    time.sleep(0.001)
vals = [main.scaled(n) == main.scaled.py_func(n) for n in (0, 1, 7, 100)]
vals.append(main.pair(1.0, 2.0) == main.pair.py_func(1.0, 2.0))
print(json.dumps({"ok": all(vals), "stats": cache.stats}))
'''

CONCURRENT_READER = r'''
import glob, json, os, sys, time
from hanajit.cache import store
from hanajit.testing.cases_operators import OperatorCases
root, stop_file = sys.argv[1], sys.argv[2]
reads = bad = 0
while not os.path.exists(stop_file):
    for p in glob.glob(os.path.join(root, "**", "*.hjc"), recursive=True):
        r = store.read_entry(p)
        reads += 1
        bad += r == "corrupt"
print(json.dumps({"reads": reads, "bad": bad}))
'''


def test_concurrent_writers_never_expose_half_written_entries(project, tmp_path):
    import time
    src, cache_dir = project
    env = _env(cache_dir, src)
    stop = tmp_path / "stop"
    readers = [subprocess.Popen([sys.executable, "-c", CONCURRENT_READER,
                                 str(cache_dir), str(stop)], env=env, cwd=src,
                                stdout=subprocess.PIPE, text=True) for _ in range(2)]
    try:
        for round_ in range(2):           # cold (all write), then after an edit
            # three writers start compiling at once: each signals it has
            # imported, the last signal starts them (no fixed wait)
            go = tmp_path / f"go{round_}"
            ready = [tmp_path / f"ready{round_}-{k}" for k in range(3)]
            writers = [subprocess.Popen([sys.executable, "-c", CONCURRENT_WRITER,
                                         str(r), str(go)], env=env, cwd=src,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True) for r in ready]
            deadline = time.time() + 240
            while not all(r.exists() for r in ready) and time.time() < deadline and all(
                    w.poll() is None for w in writers):
                time.sleep(0.01)
            go.write_text("")
            results = []
            for w in writers:
                out, err = w.communicate(timeout=240)
                assert w.returncode == 0, err
                results.append(json.loads(out.strip().splitlines()[-1]))
            assert all(r["ok"] for r in results)
            assert all(r["stats"]["corrupt"] == 0 for r in results), results
            (src / "helpers.py").write_text(HELPERS.replace("2 * x", "3 * x"))
    finally:
        stop.write_text("")
    outs = [json.loads(r.communicate(timeout=60)[0]) for r in readers]
    assert sum(o["reads"] for o in outs) > 0
    assert all(o["bad"] == 0 for o in outs), outs
    assert not glob.glob(os.path.join(cache_dir, "**", ".tmp-*"), recursive=True)


UNWRITABLE = r'''
import json, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import main
    ok = [main.scaled(9) == main.scaled.py_func(9), main.fdiv(9, 4) == 2,
          main.pair(1.0, 2.0) == (3.0, 0.5)]
from hanajit import cache
msgs = [str(w.message) for w in caught if issubclass(w.category, cache.HanaJitCacheWarning)]
others = [str(w.message) for w in caught if not issubclass(w.category, cache.HanaJitCacheWarning)]
print(json.dumps({"ok": ok, "cache_warnings": msgs, "others": others}))
'''


def test_uncreatable_cache_dir_compiles_in_memory_with_one_warning(project, tmp_path):
    src, _ = project
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = _env(blocker / "cache", src)
    out, _ = run_py(UNWRITABLE, env, src)
    assert all(out["ok"]), out
    assert len(out["cache_warnings"]) == 1, out
    assert "compile in memory" in out["cache_warnings"][0]
    assert out["others"] == []


def test_read_only_cache_dir_compiles_in_memory_with_one_warning(project, tmp_path):
    src, _ = project
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o555)
    kwargs = {}
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # root ignores permissions: run the probe as an unprivileged user
        for d in (tmp_path, *tmp_path.parents):
            os.chmod(d, os.stat(d).st_mode | 0o005)
        for p in src.iterdir():
            os.chmod(p, 0o644)
        os.chmod(src, 0o755)
        kwargs["user"] = 65534
    env = _env(ro, src)
    env["HOME"] = str(tmp_path)
    try:
        proc = subprocess.run([sys.executable, "-c", UNWRITABLE], env=env, cwd=src,
                              capture_output=True, text=True, timeout=240, **kwargs)
    except PermissionError:
        proc = None
    if kwargs and (proc is None or "Permission denied" in proc.stderr):
        pytest.skip("running as root and the unprivileged user cannot run this "
                    "interpreter (see the simulated read-only test)")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert all(out["ok"]), out
    assert len(out["cache_warnings"]) == 1, out
    assert out["others"] == []
    assert entries(ro) == []


PICKLE_DUMP = r'''
import json, pickle, sys
import main
main.scaled(10)
open(sys.argv[1], "wb").write(pickle.dumps(main.scaled))
print(json.dumps({}))
'''

PICKLE_LOAD = r'''
import json, pickle, sys
f = pickle.loads(open(sys.argv[1], "rb").read())
from hanajit import cache
value = f(10)
loaded = [getattr(s, "from_cache", False) for s in f._compiled.values()]
print(json.dumps({"value": value, "want": f.py_func(10), "loaded": loaded}))
'''


def test_pickled_function_loads_from_cache_in_another_process(project, tmp_path):
    src, cache_dir = project
    env = _env(cache_dir, src)
    blob = tmp_path / "f.pkl"
    for code in (PICKLE_DUMP, PICKLE_LOAD):
        proc = subprocess.run([sys.executable, "-c", code, str(blob)], env=env, cwd=src,
                              capture_output=True, text=True, timeout=240)
        assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["value"] == out["want"] == 270
    assert out["loaded"] == [True]


def test_unwritable_cache_simulated_in_process(tmp_path, monkeypatch):
    """As the read-only test, in this process: every write fails with EACCES."""
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(store, "_unwritable", set())

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f = hanajit.jit(cache=True)(_mixed)
        g = hanajit.jit(cache=True)(_real)
        assert f(7, 3) == _mixed(7, 3) and f(2.0, 1.0) == _mixed(2.0, 1.0)
        assert g(1.0, 2.0) == _real(1.0, 2.0)
    cache_warnings = [w for w in caught if w.category is hcache.HanaJitCacheWarning]
    assert len(cache_warnings) == 1
    assert "Permission denied" in str(cache_warnings[0].message)
    assert entries(tmp_path / "cache") == []


# -- in-process checks -----------------------------------------------------------------
def _mixed(a, b):
    if b == 0:
        return -1
    return a % b - a // b


def _real(x, y):
    return math.copysign(abs(x) + 0.5, y) / (y if y != 0.0 else 1.0)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _loaded(py_func, *args):
    """A jitted ``py_func`` whose specialisation for ``args`` came from the disk."""
    hanajit.jit(cache=True)(py_func)(*args)           # compile and store
    f = hanajit.jit(cache=True)(py_func)
    hits = hcache.stats["hits"]
    f(*args)
    assert hcache.stats["hits"] == hits + 1
    assert all(getattr(s, "from_cache", False) for s in f._compiled.values())
    return f


def test_loaded_code_matches_cpython_on_edge_ints(cache_dir):
    f = _loaded(_mixed, 1, 2)

    @settings(max_examples=150, deadline=None)
    @given(st.integers(-2**63, 2**63 - 1), st.integers(-2**63, 2**63 - 1))
    def check(a, b):
        want = _mixed(a, b)      # (beyond int64: the loaded code deoptimises)
        assert f(a, b) == want

    check()
    for a, b in [(0, 0), (-1, -1), (2**63 - 1, 2**63 - 1), (-2**63, 7), (5, -2**63),
                 (-2**63, -1), (2**63 - 1, -1)]:
        assert f(a, b) == _mixed(a, b)


def test_loaded_code_matches_cpython_on_edge_floats(cache_dir):
    f = _loaded(_real, 1.0, 2.0)

    @settings(max_examples=150, deadline=None)
    @given(st.floats(allow_nan=True, allow_infinity=True),
           st.floats(allow_nan=True, allow_infinity=True))
    def check(x, y):
        assert repr(f(x, y)) == repr(_real(x, y))

    check()
    for x, y in [(-0.0, -0.0), (0.0, -0.0), (math.inf, -math.inf), (math.nan, 1.0)]:
        assert repr(f(x, y)) == repr(_real(x, y))


def _strided(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * (i + 1)
    return s


def test_loaded_array_code_on_strided_views_and_empty(cache_dir):
    f = _loaded(_strided, np.arange(4.0)[::2])
    for a in (np.arange(7.0)[::3], np.arange(10.0)[::-1], np.zeros(0)[::2],
              np.array([np.nan, -0.0, np.inf])[::1]):
        assert repr(float(f(a))) == repr(float(_strided(a)))


def _bad_index(a, i):
    return a[i]


def test_loaded_code_raises_cpython_exceptions(cache_dir):
    f = _loaded(_bad_index, np.arange(3.0), 1)
    with pytest.raises(IndexError) as got:
        f(np.arange(3.0), 7)
    with pytest.raises(IndexError) as want:
        hanajit.jit(_bad_index)(np.arange(3.0), 7)
    assert str(got.value) == str(want.value)
    assert f(np.arange(3.0), -1) == 2.0


def test_inspection_of_a_loaded_specialisation(cache_dir):
    f = _loaded(_mixed, 5, 3)
    assert "define" in f.inspect_llvm()
    assert "_mixed" in f.inspect_ir()
    assert f.specialize(int, int).ctypes(7, 3) == _mixed(7, 3)


def _switchy(n):
    s = 0
    for i in range(n):
        k = i % 7
        if k == 0:
            s += 3
        elif k == 1:
            s -= 11
        elif k == 2:
            s ^= 5
        elif k == 3:
            s *= 2
        elif k == 4:
            s += i * i
        elif k == 5:
            s //= 3
        else:
            s -= 1
    return s


def _exp_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += math.exp(a[i]) + math.sin(a[i]) + abs(a[i]) ** 2.5
    return s


def test_loaded_without_llvm_matches_fresh_code(cache_dir):
    """Entries are linked by ``hanajit_cpu.objload`` (no LLVM): jump tables,
    constant pools, libm and libmvec calls, the error record."""
    f = _loaded(_switchy, 10)
    spec = next(iter(f._compiled.values()))
    assert type(spec.runner._keepalive).__name__ == "Image"
    for n in (0, 1, 7, 100, 1000):
        assert f(n) == _switchy(n)
    g = _loaded(_exp_sum, np.linspace(0.0, 1.0, 5))
    for a in (np.linspace(-3.0, 3.0, 1001), np.zeros(0), np.array([np.nan, -0.0])):
        assert repr(float(g(a))) == repr(float(_exp_sum(a))) or \
            math.isclose(g(a), _exp_sum(a), rel_tol=1e-14)
    with pytest.raises(ValueError, match="math domain error"):     # sin(inf)
        g(np.array([1.0, np.inf]))
    h = _loaded(_bad_index, np.arange(3.0), 1)
    with pytest.raises(IndexError):
        h(np.arange(3.0), 3)


def _div(a, b):
    return a // b


def test_loaded_c_export_reports_errors(cache_dir):
    """The C export's error word lives in a writable section of the loaded code.
    (A call compiles no C exports; ``specialize`` compiles them and rewrites the
    entry, which then has them.)"""
    hanajit.jit(cache=True)(_div).specialize(int, int)
    f = _loaded(_div, 7, 2)
    c = f.specialize(int, int)
    assert not f._c_exports               # from the disk, not compiled again
    assert c.ctypes(-7, 2) == -4 and c.error() is None
    c.ctypes(1, 0)
    err = c.error()
    assert isinstance(err, ZeroDivisionError)
    assert c.error() is None and c.ctypes(9, 3) == 3


def test_warm_start_does_not_load_llvm(project):
    """Scalar code, libm calls and code using the array memory runtime (whose own
    object the compiling process caches) load without llvmlite.binding (every
    kind of code: test_cpu_warm_start.py)."""
    src, cache_dir = project
    env = _env(cache_dir, src)
    code = ("import json, sys, numpy as np, main; a = np.array([1.0, -0.0, 2.5]); "
            "r = [main.fdiv(7, 2), main.power(2.0, 0.5), main.norm(a), "
            "main.neg(a).tolist()]; "
            "print(json.dumps([r, 'llvmlite.binding' in sys.modules, "
            "'hanajit.pipeline' in sys.modules, sorted(m for m in sys.modules if "
            "m == 'llvmlite.ir' or m.split('.')[0] in "
            "('hanajit_exe', 'hanajit_wasm', 'hanajit_fpga', 'hanajit_cuda'))]))")
    want = [3, 2.0 ** 0.5, 1.0 + 1.0 + 6.25, [-1.0, 0.0, -2.5]]
    for _ in range(2):                   # compile; then a warm start
        (r, _b, _p, _m), _ = run_py(code, env, src)
        assert r == want
    (r, binding, pipeline, heavy), _ = run_py(code, env, src)
    assert r == want and repr(r[3][1]) == "0.0"
    assert not pipeline and not binding
    # nor the LLVM IR builder, nor the plugins of the other targets
    assert heavy == []
    assert glob.glob(os.path.join(cache_dir, "_runtime", "nrt-*.hjc"))


def test_entry_codec_round_trip():
    from hanajit.ir import types as T
    for t in (T.INT64, T.BOOL, T.COMPLEX64, T.NONE, T.TupleType((T.FLOAT32, T.UINT8)),
              T.ArrayType(T.FLOAT64, 2, "F", True), T.ArrayType(T.INT16, 1, "A")):
        assert hcache.decode_type(hcache.encode_type(t)) == t
    with pytest.raises(ValueError):
        hcache.encode_type(T.SliceType())


def test_numpy_version_is_in_the_key(cache_dir, monkeypatch):
    # code compiled under one NumPy is not loaded under another (np.fmin of
    # signed zeros follows the installed release)
    from hanajit.cache import key
    _loaded(_mixed, 1, 2)
    monkeypatch.setattr(key, "_numpy_version", lambda: "0.0.0-other")
    f = hanajit.jit(cache=True)(_mixed)
    hits = hcache.stats["hits"]
    assert f(1, 2) == _mixed(1, 2)
    assert hcache.stats["hits"] == hits
    assert len(entries(cache_dir)) == 2


def test_no_cache_option_writes_nothing(cache_dir):
    hanajit.jit(_mixed)(4, 3)
    assert entries(cache_dir) == []


def test_write_entry_is_atomic_and_checked(tmp_path):
    path = str(tmp_path / "x" / "e.hjc")
    assert store.read_entry(path) is None
    assert store.write_entry(path, {"a": b"\x00" * 1000, "b": [1, 2.5, "s"]})
    assert store.read_entry(path) == {"a": b"\x00" * 1000, "b": [1, 2.5, "s"]}
    assert os.listdir(tmp_path / "x") == ["e.hjc"]
    data = open(path, "rb").read()
    open(path, "wb").write(data[:-1])
    assert store.read_entry(path) == "corrupt"


def test_default_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("HANAJIT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert hcache.cache_dir() == os.path.join(str(tmp_path), "hanajit")
    monkeypatch.setenv("HANAJIT_CACHE_DIR", "~/elsewhere")
    assert hcache.cache_dir() == os.path.expanduser("~/elsewhere")


# -- the operator conformance cases, run by code loaded from the disk cache ---------
# (the operators give the most varied machine code: division and power helpers,
# shifts, exact comparisons, raising and deoptimising paths; the whole suite passes
# the same way but doubles its compile time)
class _CacheRoundTrip:
    """Calls compile and store through one jitted object, then run through a second
    one, which loads every specialisation from the disk (scalar cases only: the
    function runs twice)."""

    def __init__(self, func, options):
        self.writer = hanajit.jit(func, cache=True, **options)
        self.reader = hanajit.jit(func, cache=True, **options)

    def __call__(self, *args, **kwargs):
        try:
            self.writer(*args, **kwargs)
        except Exception:
            pass
        return self.reader(*args, **kwargs)

    def __getattr__(self, name):
        if name in ("__code__", "__globals__", "__defaults__", "__kwdefaults__",
                    "__closure__"):         # the reference run reads the function
            return getattr(self.reader.py_func, name)
        return getattr(self.reader, name)


class TestCpuOperatorsFromCache(OperatorCases):
    target = "cpu"

    @pytest.fixture(autouse=True)
    def _cache_dir(self, tmp_path, monkeypatch):
        monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path / "cache"))
        yield

    def jit(self, func, **options):
        return _CacheRoundTrip(func, {"target": self.target, "fallback": False,
                                      **options})


def _property_case_elsewhere(self):
    pytest.skip("property cases run in TestCpuConformance only (hypothesis refuses a "
                "test shared by two classes in one process)")


for _name in dir(OperatorCases):
    if _name.startswith("test_") and getattr(getattr(OperatorCases, _name),
                                             "is_hypothesis_test", False):
        setattr(TestCpuOperatorsFromCache, _name, _property_case_elsewhere)
