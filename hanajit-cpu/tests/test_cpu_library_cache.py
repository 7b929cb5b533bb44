"""The library's compiled pieces kept on disk (``hanajit_cpu/library_cache.py``): a
later process links the object instead of compiling the piece, every result is
still NumPy's, and a damaged entry, a folder that cannot be written, another CPU
or ``HANAJIT_LIBRARY_CACHE=0`` only ever cost a compile."""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys

# One process: library calls whose pieces are large (a selection, a quantile's
# search, einsum's loops, a histogram), each compared with NumPy, and the LLVM
# IR of every module the engine compiled.
CHILD = r'''
import json, re, sys, warnings
warnings.simplefilter("error")
import numpy as np
from hanajit import jit
from hanajit_cpu import engine as E

texts = []
real = E.Engine.compile_object
def counted(self, ir_text, *args, **kw):
    texts.append(ir_text)
    return real(self, ir_text, *args, **kw)
E.Engine.compile_object = counted
from hanajit.frontend import builder
from hanajit import pipeline
built = []
real_build = builder.build_function
def build(parsed, *args, **kw):
    built.append(parsed.qualname)
    return real_build(parsed, *args, **kw)
pipeline.build_function = build

def median(a): return np.median(a)
def quantile(a): return np.quantile(a, 0.3)
def contract(a, b): return np.einsum("ij,jk->ik", a, b)
def counts(a): return np.histogram(a, 7)[0]
def axes(a): return np.sum(a.reshape(4, 5, 6), axis=(0, 2))
def bad(a): return np.quantile(a, 1.5)
def tally(a): return np.bincount(a)

rng = np.random.default_rng(7)
x = rng.standard_normal(1001)
a, b = rng.random((6, 5)), rng.random((5, 4))
same = []
calls = {"median": (median, (x,)), "quantile": (quantile, (x,)),
         "contract": (contract, (a, b)), "counts": (counts, (x,)), "axes": (axes, (x[:120],)),
         "tally": (tally, (np.arange(9) % 4,))}
for f, args in (calls[name] for name in sys.argv[1].split(",")):
    got, want = jit(f)(*args), f(*args)
    same.append(type(got) is type(want) and np.array_equal(got, want)
                and np.asarray(got).dtype == np.asarray(want).dtype)
def same_error(f, arg):             # the compiled call raises NumPy's ValueError
    try:
        f(arg)
    except ValueError as e:
        want = str(e)
    try:
        jit(f)(arg)
        return False
    except ValueError as e:
        return str(e) == want
if "median" in sys.argv[1]:         # an error of a caller of cached pieces: NumPy's
    same.append(same_error(bad, x))
if "tally" in sys.argv[1]:          # an error raised inside a (linked) piece
    same.append(same_error(tally, np.array([3, -1, 2])))
pieces = sum(bool(re.search(r'^define[^\n]*@"?hjs_', t, re.M)) for t in texts)
print(json.dumps({"same": same, "pieces": pieces, "built": built}))
'''


def _env(cache_dir, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_")}
    env["HANAJIT_CACHE_DIR"] = str(cache_dir)
    env.update(extra)
    return env


ALL = "median,quantile,contract,counts,axes,tally"
ONE = "tally"           # one small piece: where any piece shows the property
# two small pieces (bincount's and histogram's): where two entries show the
# property (a damage of each kind, two pieces compiled at once), at a third of
# the compile of median's and histogram's pieces in each process
TWO = "tally,counts"


def _child(env):
    folder = os.path.dirname(env["HANAJIT_CACHE_DIR"])
    child = os.path.join(folder, "child.py")      # (hanajit reads the source)
    if not os.path.exists(child):
        with open(child, "w") as f:
            f.write(CHILD)
    return child


def _run(env, calls):
    proc = subprocess.run([sys.executable, _child(env), calls], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _entries(cache_dir):
    return sorted(glob.glob(os.path.join(cache_dir, "_library", "*.hjc")))


def test_a_later_process_links_the_pieces_instead_of_compiling_them(tmp_path):
    cache = tmp_path / "cache"
    first = _run(_env(cache), ALL)
    assert all(first["same"]) and first["pieces"] > 0
    kept = _entries(cache)
    assert len(kept) == first["pieces"]
    from hanajit.cache import store
    messages = set()
    for path in kept:                   # checked files of the disk cache
        entry = store.read_entry(path)
        assert isinstance(entry, dict) and set(entry) == {"obj", "llvm", "raises"}
        assert entry["obj"][:4] == b"\x7fELF"
        messages.update(message for _, message, _ in entry["raises"])
    # bincount's piece raises NumPy's error itself: the later process maps the
    # linked object's code through the table read back from disk
    assert "'list' argument must have no negative elements" in messages
    second = _run(_env(cache), ALL)
    assert all(second["same"])
    assert second["pieces"] == 0                    # no piece went through LLVM
    assert _entries(cache) == kept                  # and none was written again
    # nor through the frontend: the pieces' signatures were kept too
    assert "median_rows" in first["built"] and "median_rows" not in second["built"]
    assert "quick_kth" not in second["built"] and "introselect" not in second["built"]


def test_damaged_entries_are_compiled_again_and_rewritten(tmp_path):
    cache = tmp_path / "cache"
    _run(_env(cache), TWO)
    kept = _entries(cache)
    assert len(kept) == 2
    with open(kept[0], "r+b") as f:                 # truncated
        f.truncate(os.path.getsize(kept[0]) // 2)
    with open(kept[-1], "r+b") as f:                # a flipped byte in the payload
        f.seek(-10, os.SEEK_END)
        byte = f.read(1)
        f.seek(-10, os.SEEK_END)
        f.write(bytes([byte[0] ^ 0xFF]))
    again = _run(_env(cache), TWO)
    assert all(again["same"]) and again["pieces"] == 2
    whole = _run(_env(cache), TWO)                  # whole again: linked, not built
    assert whole["pieces"] == 0 and "histogram" not in whole["built"]
    # signatures kept, objects gone: the pieces are compiled again
    for path in _entries(cache):
        os.unlink(path)
    gone = _run(_env(cache), TWO)
    assert all(gone["same"]) and gone["pieces"] == len(kept)
    assert "histogram" in gone["built"]
    # a damaged signature: the piece's functions are compiled (and linked)
    for path in glob.glob(os.path.join(cache, "_library", "signatures", "*.hjc")):
        with open(path, "r+b") as f:
            f.truncate(20)
    damaged = _run(_env(cache), TWO)
    assert all(damaged["same"]) and damaged["pieces"] == 0
    assert "histogram" in damaged["built"]


def test_another_cpu_has_entries_of_its_own(tmp_path):
    cache = tmp_path / "cache"
    host = _run(_env(cache), ONE)
    kept = _entries(cache)
    baseline = _run(_env(cache, HANAJIT_CPU_NAME="x86-64-v2"), ONE)
    assert all(baseline["same"]) and baseline["pieces"] == host["pieces"]
    assert len(_entries(cache)) == 2 * len(kept)


def test_off_or_unwritable_only_costs_the_compile(tmp_path):
    cache = tmp_path / "cache"
    off = _run(_env(cache, HANAJIT_LIBRARY_CACHE="0"), ONE)
    assert all(off["same"]) and off["pieces"] > 0
    assert not os.path.exists(cache / "_library")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")              # the cache folder cannot be made
    # (the child turns every warning into an error: none is given)
    assert all(_run(_env(blocked), ONE)["same"])


def test_the_folder_keeps_under_its_size_least_recently_used_first(tmp_path, monkeypatch):
    from hanajit_cpu import library_cache
    folder = tmp_path / "_library"
    (folder / "signatures").mkdir(parents=True)
    paths = []
    for k in range(10):                 # 10 files of 1000 bytes, file k used at time k
        path = folder / ("signatures" if k % 3 == 0 else "") / f"{k}.hjc"
        path.write_bytes(b"x" * 1000)
        os.utime(path, (1000 + k, 1000 + k))
        paths.append(path)
    (folder / "other.txt").write_bytes(b"y" * 5000)   # not the cache's: left alone
    assert library_cache.prune(str(folder), 10_000) == 0      # at the limit: kept
    assert library_cache.prune(str(folder), 8_000) == 4       # down to 6,000 bytes
    assert [p.exists() for p in paths] == [False] * 4 + [True] * 6
    assert (folder / "other.txt").exists()
    monkeypatch.setenv("HANAJIT_LIBRARY_CACHE_MB", "0.5")
    assert library_cache.limit_bytes() == 500_000
    monkeypatch.setenv("HANAJIT_LIBRARY_CACHE_MB", "lots")
    assert library_cache.limit_bytes() == 256_000_000


def test_a_process_that_writes_a_piece_keeps_the_folder_small(tmp_path):
    cache = tmp_path / "cache"
    old = cache / "_library" / ("0" * 40 + ".hjc")
    old.parent.mkdir(parents=True)
    old.write_bytes(b"z" * 2_000_000)           # an old entry, 2 MB, long unused
    os.utime(old, (1000, 1000))
    done = _run(_env(cache, HANAJIT_LIBRARY_CACHE_MB="1"), ONE)
    assert all(done["same"]) and done["pieces"] > 0
    assert not old.exists() and _entries(cache)


def test_a_pieces_raise_table_comes_back_from_disk(tmp_path, monkeypatch):
    """The raise table kept with a piece's object (what a failing call of the
    linked piece maps its code through) reads back as it was written; a table
    with a class that cannot be found by name is not kept at all."""
    from hanajit_cpu import library_cache
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path / "cache"))
    table = [(ValueError, "Quantiles must be in the range [0, 1]", False),
             (IndexError, "index {} is out of bounds for axis 0 with size {}", False),
             (OverflowError, "float too large to convert to int64", True)]
    library_cache.save("k1", "define i32 @hjs_k1() {\n  ret i32 0\n}\n", b"\x7fELF..",
                       table)
    text, obj, raises = library_cache.load("k1")
    assert raises == table and obj == b"\x7fELF.." and "@hjs_k1" in text

    class Local(Exception):
        pass
    library_cache.save("k2", "", b"", [(Local, "local", False)])
    assert library_cache.load("k2") is None
    assert not os.path.exists(library_cache.entry_path("k2"))


def test_processes_compiling_at_once_compile_each_piece_once(tmp_path):
    """Two processes that need the same pieces at the same time (a parallel test
    run, a process pool): one compiles each piece, the other waits for it and
    links it (``library_cache.compiling``); both give NumPy's results."""
    cache = tmp_path / "cache"
    env = _env(cache)
    child = _child(env)
    procs = [subprocess.Popen([sys.executable, child, TWO], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    results = [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]
    assert all(all(r["same"]) for r in results)
    new = len(_entries(cache))
    assert new == 2 and sum(r["pieces"] for r in results) == new, (results, new)


def _legacy_choice(a):
    return a


def test_a_signature_read_back_says_whether_the_piece_draws(tmp_path, monkeypatch):
    """A later process's caller of a piece that draws random numbers is not pure
    either: the signature kept on disk says so (``Function.draws_random``)."""
    from hanajit.ir import nodes as N
    from hanajit.ir import types as T
    from hanajit_cpu import library_cache, shared_code
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(shared_code, "link_symbol", lambda symbol: True)
    arg_types = (T.ArrayType(T.FLOAT64, 1, "C"),)
    for draws in (True, False):
        key = (_legacy_choice, arg_types, ("fingerprint", draws))
        stub = N.Function(name="", params=["a"], arg_types=arg_types,
                          locals={"a": arg_types[0]}, return_type=arg_types[0],
                          level="primitive", origin=key[:2], external=("hjs_x", ()))
        stub.draws_random = draws
        store = library_cache.Signatures()
        store.save(key, stub)
        again = library_cache.Signatures().load(key)
        assert again is not None and again.draws_random is draws
