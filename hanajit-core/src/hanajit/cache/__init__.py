"""The disk cache of ``@jit(cache=True)``: machine code and the metadata needed to
run it, so that a fresh process skips the frontend, inference and LLVM.

``JitFunction._compile`` asks :func:`open_entry` for the entry of a function at
argument types; :meth:`Entry.load` returns a ready specialisation when the file is
complete and every dependency still matches, and :meth:`Entry.store` writes one
after a compilation.  The pieces:

* ``key.py``   -- the file an entry lives in (versions, host CPU, options, types);
* ``deps.py``  -- the sources and frozen globals an entry depends on, re-checked on
  load without parsing anything;
* ``store.py`` -- the file format (checksummed), atomic writes, the cache folder
  (``HANAJIT_CACHE_DIR``) and the one warning when it cannot be written.

An entry stores what the target's ``compile`` returned (every ``bytes``/``str``
stage: for the CPU the object file and the optimised LLVM IR) and its metadata, with
the IR function reduced to what loading needs (:class:`FnInfo`) and exception
classes stored by module and qualified name.  See docs/cache.md.
"""
from __future__ import annotations

import importlib
import marshal

from ..errors import stored_deopt
from . import deps, key, store
from .store import HanaJitCacheWarning, cache_dir

__all__ = ["open_entry", "Entry", "FnInfo", "HanaJitCacheWarning", "cache_dir", "stats"]

# what happened in this process (tests and benchmarks read it)
stats = {"hits": 0, "misses": 0, "stale": 0, "corrupt": 0, "writes": 0,
         "uncacheable": 0}


class FnInfo:
    """The parts of the entry IR function a target needs to call loaded code."""

    def __init__(self, name, pyname, arg_types, return_type, can_raise, pure):
        self.name = name
        self.pyname = pyname
        self.arg_types = arg_types
        self.return_type = return_type
        self.can_raise = can_raise
        self.pure = pure
        self.writes_arrays = not pure     # (a pure entry was one that may deoptimise)
        self.numpy_result = None          # results boxed as NumPy scalars (infer/numpy_results)
        self.returns_list = self.numpy_list = self.returns_table = False
        self.returns_str = False
        self.numpy_lists = ()
        self.dict_boxing = ()             # (frontend/dict_locals.py)


def open_entry(jf, arg_types: tuple, target) -> Entry | None:
    """The cache entry of ``jf`` at ``arg_types``, or None when ``target`` does not
    support caching."""
    try:
        path = key.entry_path(cache_dir(), jf, arg_types, target)
    except Exception:                 # never let the cache stop a compilation
        stats["uncacheable"] += 1
        return None
    return None if path is None else Entry(path, jf, arg_types, target)


class Entry:
    """One function at one tuple of argument types, on this host."""

    def __init__(self, path, jf, arg_types, target):
        self.path = path
        self.jf = jf
        self.arg_types = arg_types
        self.target = target

    def load(self, fallback):
        """A specialisation from the file, or None (missing, corrupt or stale)."""
        data = store.read_entry(self.path)
        if data is None:
            stats["misses"] += 1
            return None
        try:
            if data == "corrupt" or data.get("format") != key.FORMAT:
                raise ValueError("not an entry of this format")
            if not deps.still_valid(self.jf.py_func, data["deps"]):
                stats["stale"] += 1
                return None
            artifact = _decode_artifact(data)
            runner = self.target.load(artifact, fallback)
        except Exception:             # a damaged entry: recompile and rewrite it
            stats["corrupt"] += 1
            return None
        stats["hits"] += 1
        return CachedSpecialization(self.arg_types, artifact, runner, self.jf)

    def store(self, artifact) -> bool:
        """Write the entry for a freshly compiled ``artifact``; False when it cannot
        be cached (unwritable folder, metadata of unknown kinds, no source)."""
        if store.cache_unwritable():
            return False
        try:
            graph = deps.record(self.jf.py_func)
            payload = None if graph is None else _encode_artifact(artifact)
        except Exception:             # (ValueError: metadata of an unknown kind)
            payload = None
        if payload is None:
            stats["uncacheable"] += 1
            return False
        payload["format"] = key.FORMAT
        payload["deps"] = graph
        ok = store.write_entry(self.path, payload)
        stats["writes"] += ok
        return ok


class CachedSpecialization:
    """A specialisation loaded from the disk cache: its IR module is rebuilt only if
    someone asks for it (``inspect_ir``)."""

    from_cache = True
    linked = ()             # (it links by its own symbols: runtimes.py)

    def __init__(self, arg_types, artifact, runner, jf):
        self.arg_types = arg_types
        self.artifact = artifact
        self.runner = runner
        self._jf = jf
        self._module = None

    @property
    def module(self):
        if self._module is None:
            from ..passes.interchange import nest_plan
            from ..pipeline import build
            options = self._jf.options
            genome = self.artifact.metadata.get("evolved")
            if genome:                # an evolve() winner: its loop order and flags
                plan = nest_plan(genome.get("nests", ()))
                options = dict(options, strategy={"nests": plan},
                               parallel=options.get("parallel") or genome["parallel"])
            self._module = build(self._jf.py_func, self.arg_types, options).module
        return self._module


# -- metadata <-> marshal-able data ---------------------------------------------------
def encode_type(t):
    from ..ir import types as T
    if isinstance(t, T.Scalar):
        return ("s", t.kind, t.bits)
    if isinstance(t, T.NoneType):
        return ("n",)
    if isinstance(t, T.NumpyScalarArg):       # (Function.numpy_result's marks)
        return ("m", encode_type(t.base))
    if isinstance(t, T.NumpyScalarIf):        # (infer/result_flags)
        return ("mi", encode_type(t.base), t.flag, encode_type(t.held)) + (
            (encode_type(t.python),) if t.python is not None else ())
    if isinstance(t, T.FlaggedResult):
        return ("fr", encode_type(t.value), t.flags)
    if isinstance(t, T.NamedTupleType):
        return ("nt", t.module, t.name, tuple(t.fields)) + tuple(encode_type(i) for i in t.items)
    if isinstance(t, T.TupleType):
        return ("t",) + tuple(encode_type(i) for i in t.items)
    if isinstance(t, T.ArrayType):
        return ("a", encode_type(t.dtype), t.ndim, t.layout, t.readonly)
    if isinstance(t, T.PyRandomType):
        return ("pr",)
    if isinstance(t, T.LocalRandomStateType):
        return ("lrs",)
    if isinstance(t, T.SavedRandomStateType):
        return ("srs",)
    if isinstance(t, T.RandomStateType):
        return ("rs",)
    if isinstance(t, T.LocalGeneratorType):
        return ("lg",)
    if isinstance(t, T.GeneratorType):
        return ("g",)
    raise ValueError(f"type {t} is not cached")


def decode_type(d):
    from ..ir import types as T
    tag = d[0]
    if tag == "s":
        return T.Scalar(d[1], d[2])
    if tag == "n":
        return T.NONE
    if tag == "m":
        return T.NumpyScalarArg(decode_type(d[1]))
    if tag == "mi":
        return T.NumpyScalarIf(decode_type(d[1]), d[2], decode_type(d[3]),
                               decode_type(d[4]) if len(d) > 4 else None)
    if tag == "fr":
        return T.FlaggedResult(decode_type(d[1]), d[2])
    if tag == "t":
        return T.TupleType(tuple(decode_type(i) for i in d[1:]))
    if tag == "nt":
        return T.NamedTupleType(tuple(decode_type(i) for i in d[4:]), module=d[1],
                                name=d[2], fields=tuple(d[3]))
    if tag == "a":
        return T.ArrayType(decode_type(d[1]), d[2], d[3], d[4])
    if tag == "g":
        return T.GENERATOR
    if tag == "pr":
        return T.PYRANDOM
    if tag == "rs":
        return T.RANDOMSTATE
    if tag == "lrs":
        return T.LOCAL_RANDOMSTATE
    if tag == "srs":
        return T.SAVED_RANDOMSTATE
    if tag == "lg":
        return T.LOCAL_GENERATOR
    raise ValueError(f"unknown type tag {tag!r}")


def encode_class(cls):
    if "<locals>" in cls.__qualname__:
        raise ValueError(f"{cls} cannot be found by name")
    return (cls.__module__, cls.__qualname__)


def decode_class(d):
    obj = importlib.import_module(d[0])
    for part in d[1].split("."):
        obj = getattr(obj, part)
    return obj


def _encode_artifact(artifact) -> dict:
    stages = {k: v for k, v in artifact.stages.items() if isinstance(v, (bytes, str))}
    meta = {}
    for k, v in artifact.metadata.items():
        if k == "fn":
            v = {"name": v.name, "pyname": v.pyname, "can_raise": v.can_raise,
                 "pure": v.pure, "arg_types": tuple(encode_type(t) for t in v.arg_types),
                 "return_type": encode_type(v.return_type),
                 "returns_list": bool(getattr(v, "returns_list", False)),
                 "returns_table": _tables(getattr(v, "returns_table", False)),
                 "returns_str": _str_positions(getattr(v, "returns_str", False)),
                 "numpy_list": bool(getattr(v, "numpy_list", False)),
                 "numpy_lists": [[k, bool(x)] for k, x in getattr(v, "numpy_lists", ())],
                 "dict_boxing": [[k, bool(a), bool(b)]
                                 for k, a, b in getattr(v, "dict_boxing", None) or ()],
                 "numpy_result": None if getattr(v, "numpy_result", None) is None
                 else encode_type(v.numpy_result)}
        elif k == "raises":
            v = [(encode_class(exc), message, stored_deopt(deopt))
                 for exc, message, deopt in v]
        else:
            marshal.dumps(v)          # ValueError: not plain data, not cached
        meta[k] = v
    return {"target": artifact.target, "entry": artifact.entry, "stages": stages,
            "metadata": meta}


def _tables(v):
    """``Function.returns_table``: True, False or the positions of tables in a
    returned tuple (a tuple; a list in the cache's JSON)."""
    return tuple(v) if isinstance(v, (list, tuple)) else bool(v)


def _str_positions(v):
    """``Function.returns_str`` as plain data: a bool, or a tuple's positions."""
    return list(v) if isinstance(v, tuple) else bool(v)


def _decode_artifact(data):
    from ..target import Artifact
    meta = dict(data["metadata"])
    if "fn" in meta:
        f = meta["fn"]
        meta["fn"] = FnInfo(f["name"], f["pyname"],
                            tuple(decode_type(t) for t in f["arg_types"]),
                            decode_type(f["return_type"]), f["can_raise"], f["pure"])
        meta["fn"].returns_list = bool(f.get("returns_list", False))
        meta["fn"].returns_table = _tables(f.get("returns_table", False))
        rs = f.get("returns_str", False)
        meta["fn"].returns_str = tuple(rs) if isinstance(rs, list) else bool(rs)
        meta["fn"].numpy_list = bool(f.get("numpy_list", False))
        meta["fn"].numpy_lists = tuple((k, x) for k, x in f.get("numpy_lists", ()))
        meta["fn"].dict_boxing = tuple(tuple(x) for x in f.get("dict_boxing", ()))
        if f.get("numpy_result") is not None:
            meta["fn"].numpy_result = decode_type(f["numpy_result"])
    if "raises" in meta:
        meta["raises"] = [(decode_class(c), message, deopt)
                          for c, message, deopt in meta["raises"]]
    meta["from_cache"] = True
    return Artifact(target=data["target"], entry=data["entry"],
                    stages=dict(data["stages"]), metadata=meta)
