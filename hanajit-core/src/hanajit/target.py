"""The Target base class that every target plugin subclasses.

A target turns hanajit's typed IR (:class:`hanajit.ir.nodes.Module`) into artifacts
through named stages (``"llvm" -> "obj"`` for the CPU, ``"llvm" -> "ptx"`` for CUDA),
loads or launches them, exports them, and checks its own health for
``hanajit doctor``.  Codegen is split from running: :meth:`compile` never needs the
device, :meth:`load` / :meth:`launch` do.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, ClassVar


@dataclass(frozen=True)
class Capabilities:
    """What a target's generated code can do.  Core and ``lib/`` decide by these,
    never by a target's name; they are part of the disk cache key.

    The defaults describe a target that computes and nothing more: float64 and
    int64 arithmetic, no calls out of the generated code."""

    # calls into this process: NumPy's BLAS and LAPACK, CPython (host targets)
    host_calls: bool = False
    # a thread pool runs ``prange`` / ``parallel=True`` loops
    threads: bool = False
    # the C math library (or a replacement) provides exp, log, pow ...
    c_math: bool = False
    # the GPU kernel model: thread and block indices, barriers, ``launch()``
    kernel_model: bool = False
    # shared (workgroup) arrays in the kernel model
    shared_memory: bool = False
    # atomic read-modify-write operations on array elements
    atomics: bool = False
    # 64-bit floats and integers on the device
    float64: bool = True
    int64: bool = True
    # a float64 math library (exp, log, sin ... on doubles); False: core's software
    # versions (``hanajit.lowering.softmath``) are compiled into the code instead
    # (Vulkan's GLSL.std.450 math is 32-bit only)
    float64_math: bool = True
    # complex numbers (Python ``complex``, NumPy complex64/complex128) in the code
    complex: bool = True
    # the stack pointer can be read: recursive functions raise RecursionError
    # before the stack runs out (``passes/stack_check.py``), as CPython does
    stack_check: bool = False
    # arrays allocated at run time (a memory runtime: ``np.empty``, array
    # results, library helpers' buffers); without it ``lib/`` keeps to forms that
    # allocate nothing where it has a choice (``arrays/reductions``)
    allocation: bool = False
    # code compiled apart is linked in this process: the library's large callees
    # are compiled once per process and later callers only declare them
    # (``lowering/shared.py``; the target's ``compile`` lowers ``Function.external``)
    links_code: bool = False
    # ``try`` / ``except`` in compiled code: a raise inside a ``try`` body branches
    # to its handlers (``ir.nodes.Try``, lowered by ``lowering/llvm_try.py``);
    # without it a function holding ``try`` runs in the interpreter
    catches: bool = False
    # the code must be structured control flow (SPIR-V shaders for Vulkan, where
    # LLVM's backend breaks a raise nested in a branch that also raises): ``lib/``
    # keeps such checks flat where it has a choice (``python/operators.float_to_int``)
    structured_control_flow: bool = False
    # the code may call NumPy's own SIMD functions for the elements of NumPy's
    # loops (``lowering/numpy_loops.py``), which only vectorised loops batch: a
    # pairwise sum of such elements computes them into NumPy's temporary first
    # (``arrays/reductions.fused_pairwise``)
    numpy_simd_calls: bool = False

    def key(self) -> str:
        """A stable text for cache keys: ``name=0/1`` of every field."""
        return ",".join(f"{f.name}={int(getattr(self, f.name))}" for f in fields(self))


class Stages(dict):
    """An artifact's stages by name.  A target may :meth:`pack` a text stage it no
    longer reads often (the CPU's optimised LLVM text once the object is linked):
    it is kept zlib-compressed, a tenth of its size, and reading it (``[]``,
    ``get``, ``items``, ``values``) gives the text again."""

    def pack(self, name: str) -> None:
        v = dict.get(self, name)
        if isinstance(v, str):
            import zlib
            dict.__setitem__(self, name, _Packed(zlib.compress(v.encode(), 1)))

    def __getitem__(self, name):
        return _unpack(dict.__getitem__(self, name))

    def get(self, name, default=None):
        return _unpack(dict.get(self, name, default))

    def items(self):
        return [(k, _unpack(v)) for k, v in dict.items(self)]

    def values(self):
        return [_unpack(v) for v in dict.values(self)]


class _Packed(bytes):
    """A packed text stage (:meth:`Stages.pack`)."""


def _unpack(v):
    if isinstance(v, _Packed):
        import zlib
        return zlib.decompress(v).decode()
    return v


@dataclass
class Artifact:
    """What :meth:`Target.compile` returns: every stage's output, by stage name."""

    target: str
    entry: str                       # symbol of the entry function
    stages: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)


class Target:
    """Base class of a hanajit target.  Subclass it and register it from a plugin.

    Class attributes:

    * ``name`` -- the one word used everywhere: ``@jit(target=name)``, the entry
      point, the distribution ``hanajit-<name>``.
    * ``description`` -- one line for ``hanajit targets``.
    * ``stages`` -- the ordered codegen stage names; stage name = artifact name =
      cache-key part.
    * ``aliases`` -- other names ``@jit(target=...)`` accepts for this target
      (``hip`` also answers to ``"amd"``); the target is still called ``name``.
    * ``kind`` -- ``"host"`` (runs in this process: calling the function runs it),
      ``"gpu"`` (runs through :meth:`launch`) or ``"export"`` (only writes files).
    * ``capabilities`` -- a :class:`Capabilities`: what the generated code can do.
    * ``options`` -- the ``@jit`` options this target adds, name -> default
      (``metal_float64``); ``jit`` accepts them with this target, and
      :meth:`compile` finds them in its ``options``.

    Every method a target may implement is declared here with a default that says
    plainly that the target does not support it; core calls these and never asks
    whether a target has a method (``docs/plugins.md`` lists them, checked by a
    test).
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    stages: ClassVar[tuple[str, ...]] = ()
    aliases: ClassVar[tuple[str, ...]] = ()
    kind: ClassVar[str] = "host"
    capabilities: ClassVar[Capabilities] = Capabilities()
    options: ClassVar[dict[str, Any]] = {}

    # -- status and doctor -------------------------------------------------------
    def status(self) -> tuple[bool, str]:
        """Return ``(available, reason)``: can this target compile and run here?"""
        return True, "ok"

    def doctor(self, report) -> None:
        """Add this target's checks to ``report`` (``report.check(name, ok, detail)``)."""
        ok, reason = self.status()
        report.check(f"{self.name} available", ok, reason)

    # -- codegen -------------------------------------------------------------------
    def compile(self, module, options) -> Artifact:
        """Run every codegen stage on a typed, lowered IR module."""
        raise NotImplementedError(f"target {self.name!r} does not compile")

    # -- running ---------------------------------------------------------------------
    def load(self, artifact: Artifact, fallback: Callable[..., Any]) -> Callable[..., Any]:
        """Host targets: return a callable that runs the artifact on Python arguments.

        ``fallback`` is the Python function: the callable runs it instead when the
        compiled code deoptimises (see ``ir.nodes.Raise``)."""
        raise NotImplementedError(f"target {self.name!r} cannot run in this process")

    def launch(self, artifact: Artifact, args, **launch_options) -> Any:
        """GPU targets: run the artifact on the device (grid, block, stream, sync)."""
        raise NotImplementedError(f"target {self.name!r} has no launch")

    def assembly(self, artifact: Artifact) -> str:
        """Host or device assembly text of an artifact (``inspect_asm``)."""
        raise NotImplementedError(f"target {self.name!r} has no assembly stage")

    def export(self, artifact: Artifact, output, **options) -> Any:
        """Export targets: write files for the artifact and return what was written."""
        raise NotImplementedError(f"target {self.name!r} has no export")

    # -- host targets: calls and the disk cache --------------------------------------
    # ``native_dispatcher`` takes ``previous``: a dispatcher over only the new
    # specialisations (the others given as None) that passes the calls it does not
    # take on to the function's previous dispatcher, so a sweep over many types
    # generates code for each specialisation about once
    chains_dispatchers = False

    def native_dispatcher(self, shape, entries, handlers, previous=None):
        """Host targets: machine code that checks, unboxes, calls and boxes for the
        compiled specialisations (``hanajit.dispatch.native``): ``(address,
        keepalive, llvm_ir)``, or None -- the default: the Python dispatcher runs
        every call.  ``previous`` (targets with :attr:`chains_dispatchers` only):
        the address of the function's current dispatcher, which the new one calls
        with the same arguments for anything its entries do not take, instead of
        the Python dispatcher."""
        return None

    def cache_env(self) -> tuple | None:
        """What the disk cache key must know about this machine's code generation
        (CPU, toolchain versions), or None -- the default: this target does not
        cache."""
        return None

    def linked_pieces(self):
        """Where linked pieces of the library are kept for later processes
        (``lowering/shared.py``: an object with ``save(key, stub)`` and
        ``load(key)``, which links the piece before returning its stub), or
        None: only with ``Capabilities.links_code``."""
        return None

    # -- GPU targets: device memory --------------------------------------------------
    @property
    def typeof(self) -> Callable[[Any], Any]:
        """The function that gives the IR type of a launch argument (a GPU target's
        own device arrays among them); the default types host values only."""
        from .typing_rules import typeof
        return typeof

    def to_device(self, array, stream=None):
        """GPU targets: copy a NumPy array to the device and return the device array."""
        raise TypeError(f"target {self.name!r} has no device arrays")

    def synchronize(self) -> None:
        """GPU targets: wait for every queued launch and copy.  The default has
        nothing queued."""

    def compile_single_thread(self, module, arch: str | None = None) -> Artifact:
        """GPU targets: a one-thread kernel that runs the module's entry once and
        stores its result (an executable export embedding the kernel uses it)."""
        raise NotImplementedError(f"target {self.name!r} has no single-thread kernels")

    # -- targets with threads -------------------------------------------------------
    def get_num_threads(self) -> int:
        """Targets with threads: how many threads a parallel loop runs on (at most).
        The default, for a target without threads: 1."""
        return 1

    def set_num_threads(self, n: int) -> None:
        """Targets with threads: run parallel loops on at most ``n`` threads."""
        raise NotImplementedError(f"target {self.name!r} has no threads")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
