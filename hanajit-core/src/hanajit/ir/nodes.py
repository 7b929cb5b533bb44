"""The one typed IR: structured statements over expression trees.

The frontend produces *Python-level* nodes (``Py*``: Python operators, calls of
Python objects, ``for`` over ``range``).  Type inference gives every expression a
``type``.  The semantic passes then rewrite every ``Py*`` node into *primitive*
nodes whose meaning is the same on every backend (wrapping integer arithmetic, C
division, IEEE float operations, explicit checks that ``Raise``).  Backends -- LLVM
for the CPU, GPUs, wasm and executables, C-family source for HLS C++ and Metal --
only print primitive nodes.  The verifier (``ir.verifier``) checks which level a
function is at.

Control flow is structured (``If``, ``Loop``, ``ForCount``, ``Break``,
``Continue``, ``Return``) so that source emitters and GPU backends can print it
directly.  Expressions are pure trees: anything that can raise, call or touch memory
with side effects is a statement (``Assign`` of a ``Call``, a check ``If`` with a
``Raise``), so backends may evaluate an expression tree in any order.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any, Optional

from .types import Type


class field:
    """A field whose default is made per instance (``field(default_factory=list)``)."""

    def __init__(self, default_factory):
        self.default_factory = default_factory


_MISSING = object()


def dataclass(eq=False):
    """A lightweight ``dataclasses.dataclass(eq=False)`` for IR nodes: generates only
    ``__init__`` and ``__repr__`` (the standard one costs ~15 ms at import for this
    module, which would count in every first compilation)."""
    def wrap(cls):
        names = []
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("__annotations__", {}):
                if name not in names:
                    names.append(name)
        params, body, env = [], [], {"_MISSING": _MISSING}
        for name in names:
            default = getattr(cls, name, _MISSING)
            if isinstance(default, field):
                env[f"_f_{name}"] = default.default_factory
                params.append(f"{name}=_MISSING")
                body.append(f"self.{name} = _f_{name}() if {name} is _MISSING else {name}")
            elif default is not _MISSING:
                env[f"_d_{name}"] = default
                params.append(f"{name}=_d_{name}")
                body.append(f"self.{name} = {name}")
            else:
                params.append(name)
                body.append(f"self.{name} = {name}")
        src = f"def __init__(self, {', '.join(params)}):\n    " + (
            "\n    ".join(body) or "pass")
        exec(src, env)
        cls.__init__ = env["__init__"]
        cls._fields = tuple(names)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = _repr
        return cls
    return wrap


def _repr(self):
    return f"{type(self).__name__}(" + ", ".join(
        f"{n}={getattr(self, n)!r}" for n in self._fields) + ")"


# --------------------------------------------------------------------------- exprs
@dataclass(eq=False)
class Expr:
    """Base class of expressions; ``type`` is set by type inference."""

    def children(self) -> list["Expr"]:
        return []

    def replace_children(self, new: list["Expr"]) -> None:
        pass


@dataclass(eq=False)
class Const(Expr):
    value: Any
    type: Optional[Type] = None


@dataclass(eq=False)
class Var(Expr):
    name: str
    type: Optional[Type] = None


def kids(*names):
    """Generate children()/replace_children() for fixed child fields."""
    # (children() runs for every node of every walk: the fields read by one
    # attrgetter call rather than a getattr each)
    get = attrgetter(*names)
    if len(names) == 1:
        def children(self):
            v = get(self)
            return list(v) if isinstance(v, list) else [v]
    else:
        def children(self):
            out = []
            for v in get(self):
                if isinstance(v, list):
                    out.extend(v)
                else:
                    out.append(v)
            return out

    def replace_children(self, new):
        it = iter(new)
        for n in names:
            v = getattr(self, n)
            if isinstance(v, list):
                setattr(self, n, [next(it) for _ in v])
            else:
                setattr(self, n, next(it))
    return children, replace_children


@dataclass(eq=False)
class BinOp(Expr):
    """Primitive binary operation.

    Integer ``add sub mul shl`` wrap (two's complement); ``sdiv srem udiv urem``
    truncate like C and require a non-zero divisor and no ``MIN / -1`` (the
    semantic passes guarantee both); ``ashr lshr shl`` require ``0 <= b < bits``;
    ``and or xor`` are bitwise (also on bool).  Floats: ``add sub mul fdiv`` are
    IEEE; ``frem`` is C ``fmod``.
    """

    op: str
    left: Expr
    right: Expr
    type: Optional[Type] = None
    children, replace_children = kids("left", "right")
    reassoc = False     # a float reduction update that may be reordered (see
    #                     passes/mark_reductions.py)


@dataclass(eq=False)
class UnOp(Expr):
    """Primitive unary operation: ``neg`` (wrapping for ints), ``not`` (bool),
    ``invert`` (bitwise complement of an integer)."""

    op: str
    operand: Expr
    type: Optional[Type] = None
    children, replace_children = kids("operand")


@dataclass(eq=False)
class Cmp(Expr):
    """Primitive comparison giving bool: ``lt le gt ge eq ne``.

    For floats every comparison is ordered (false with a NaN) except ``ne``
    (true with a NaN), as in Python; ``uno`` is true when either is NaN.
    Signedness comes from the operand type.
    """

    op: str
    left: Expr
    right: Expr
    type: Optional[Type] = None
    children, replace_children = kids("left", "right")


@dataclass(eq=False)
class Cast(Expr):
    """Primitive conversion to ``type``.  Int->int truncates or extends by the
    source's signedness; float->int truncates toward zero and requires the value to
    be in range (the semantic passes check); bool->x gives 0/1; x->bool is never a
    Cast (use ``Cmp ne 0``)."""

    operand: Expr
    type: Optional[Type] = None
    children, replace_children = kids("operand")


@dataclass(eq=False)
class Select(Expr):
    """``cond ? a : b`` -- both arms are pure, so evaluating both is allowed."""

    cond: Expr
    a: Expr
    b: Expr
    type: Optional[Type] = None
    children, replace_children = kids("cond", "a", "b")


@dataclass(eq=False)
class Intrinsic(Expr):
    """A primitive math function with C99 libm semantics on its float type:
    ``sqrt exp log log2 log10 log1p expm1 sin cos tan asin acos atan sinh cosh tanh
    asinh acosh atanh atan2 hypot pow fmod fabs floor ceil trunc rint copysign
    erf erfc lgamma tgamma cbrt exp2 fma`` (the table: ``hanajit.toolkit.libm``); and
    integer ``smin smax umin umax``, ``ctpop``, and ``sadd_overflow ssub_overflow
    smul_overflow`` (bool: the signed ``+ - *`` of its two operands wraps; the
    Python-int checks of ``lib/python/int_overflow.py``).  Backends map names to
    their library (libm, libdevice, OpenCL)."""

    name: str
    args: list
    type: Optional[Type] = None
    children, replace_children = kids("args")


@dataclass(eq=False)
class MakeTuple(Expr):
    items: list
    type: Optional[Type] = None
    children, replace_children = kids("items")


@dataclass(eq=False)
class TupleGet(Expr):
    """Item ``index`` (a Python int) of a tuple value."""

    tup: Expr
    index: int
    type: Optional[Type] = None
    children, replace_children = kids("tup")


@dataclass(eq=False)
class MakeComplex(Expr):
    real: Expr
    imag: Expr
    type: Optional[Type] = None
    children, replace_children = kids("real", "imag")


@dataclass(eq=False)
class ComplexPart(Expr):
    """``part`` is ``"real"`` or ``"imag"``."""

    operand: Expr
    part: str
    type: Optional[Type] = None
    children, replace_children = kids("operand")


@dataclass(eq=False)
class Call(Expr):
    """Call of another IR function of the module, by symbol.  Only appears as the
    value of an ``Assign`` or ``ExprStmt`` (calls may raise and have effects)."""

    func: str
    args: list
    type: Optional[Type] = None
    children, replace_children = kids("args")


@dataclass(eq=False)
class ArrayAttr(Expr):
    """A field of an array value: ``shape`` or ``stride`` (bytes) of axis
    ``axis``, or ``data`` (the address of the data, for overlap checks), as int64."""

    array: Expr
    attr: str
    axis: int = 0
    type: Optional[Type] = None
    children, replace_children = kids("array")


@dataclass(eq=False)
class NumThreads(Expr):
    """Number of threads the target runs a ``ParallelFor`` on (int64, >= 1; 1 on
    targets that run it serially)."""

    type: Optional[Type] = None


@dataclass(eq=False)
class Load(Expr):
    """Element of ``array`` at ``indices`` (int64, already checked to be in range
    and non-negative).  Reads memory: not movable across stores or calls."""

    array: Expr
    indices: list
    type: Optional[Type] = None
    children, replace_children = kids("array", "indices")


@dataclass(eq=False)
class ArrayView(Expr):
    """A view of ``array``'s memory: same owner, data moved by ``offset`` bytes,
    new ``shape`` and ``strides`` (int64 expressions, strides in bytes)."""

    array: Expr
    offset: Expr
    shape: list
    strides: list
    type: Optional[Type] = None
    children, replace_children = kids("array", "offset", "shape", "strides")


@dataclass(eq=False)
class AllocArray(Expr):
    """A new, uninitialised, C-contiguous array of ``type`` (an ArrayType) with
    ``shape`` (int64 expressions, already checked non-negative).  Owned by whoever
    receives it; only appears as the value of an ``Assign`` (it allocates, and
    raises MemoryError when it cannot)."""

    shape: list
    type: Optional[Type] = None
    children, replace_children = kids("shape")


# GPU kernels (hanajit.gpu; only in functions compiled for a "gpu"-kind target) ----
@dataclass(eq=False)
class GpuIndex(Expr):
    """This thread's place in the launch grid, as int64: ``kind`` ``thread`` (index
    of the thread in its block), ``block`` (index of the block in the grid),
    ``block_dim`` (threads per block) or ``grid_dim`` (blocks in the grid), along
    ``axis`` 0, 1 or 2 (x, y, z).  Constant for the whole run of a thread."""

    kind: str
    axis: int = 0
    type: Optional[Type] = None


@dataclass(eq=False)
class StackAddress(Expr):
    """The current stack frame's address as int64 (stacks grow down): recursive
    functions compare it with a floor (``passes/stack_check.py``)."""

    type: Optional[Type] = None


@dataclass(eq=False)
class SharedArray(Expr):
    """The block-shared, C-contiguous, uninitialised 1-D array ``name`` (unique in
    the module) of ``size`` elements of ``type.dtype``: one static allocation per
    block, the same memory each time it is evaluated by any thread of the block,
    alive for the whole launch.  No meminfo (never freed)."""

    name: str
    size: int
    type: Optional[Type] = None


@dataclass(eq=False)
class Atomic(Expr):
    """Atomic read-modify-write of ``array[indices]`` (global or shared memory;
    indices already checked) giving the element's old value; relaxed ordering.
    ``op``: ``add`` (wrapping for ints, IEEE for floats), ``min`` / ``max`` (by the
    element type's signedness; for floats IEEE minNum/maxNum: a NaN operand is
    ignored), ``cas`` (store ``value`` if the old value equals ``compare``; floats
    compare by bit pattern).  Only appears as the value of an ``Assign``."""

    op: str
    array: Expr
    indices: list
    value: Expr
    compare: Optional[Expr] = None
    type: Optional[Type] = None

    def children(self):
        return [self.array, *self.indices, self.value] + (
            [self.compare] if self.compare is not None else [])

    def replace_children(self, new):
        n = len(self.indices)
        self.array, self.indices, self.value = new[0], list(new[1:1 + n]), new[1 + n]
        if self.compare is not None:
            self.compare = new[2 + n]


@dataclass(eq=False)
class TableLoad(Expr):
    """Item ``index`` (an int64 already known to be in ``[0, len(values))``) of the
    constant table ``values``, a tuple of numbers of the int or float scalar
    ``type``: a constant tuple indexed at run time (the ziggurat tables of
    ``lib/random/ziggurat.py``).  Backends keep the table in read-only memory."""

    values: tuple
    index: Expr
    type: Optional[Type] = None
    children, replace_children = kids("index")


@dataclass(eq=False)
class RandomBits(Expr):
    """One draw from the bit generator of ``rng`` (a ``GeneratorType`` value):
    ``kind`` ``uint64``, ``uint32`` or ``double`` calls that C function of the
    bit generator on its state pointer, which advances the state.  Only appears
    as the value of an ``Assign`` (it has effects), so draws happen in statement
    order."""

    rng: Expr
    kind: str
    type: Optional[Type] = None
    children, replace_children = kids("rng")


@dataclass(eq=False)
class MakeGenerator(Expr):
    """A ``GeneratorType`` value from the four int64 elements of ``words`` (a 1-D
    array: state pointer, ``next_uint64``, ``next_uint32``, ``next_double``),
    read when evaluated, from element ``start`` (an int64 expression, always given)."""

    words: Expr
    type: Optional[Type] = None
    start: Optional[Expr] = None
    children, replace_children = kids("words", "start")


@dataclass(eq=False)
class HostArray(Expr):
    """A 1-D view (no owner) of ``size`` elements of ``type.dtype`` at the address
    the host resolves the symbol ``hj.numpy.<symbol>`` to, at link time (or
    ``address``; or with ``shape`` and ``strides``, an N-D view): memory
    of NumPy's global ``RandomState`` (``legacy_bitgen``: its ``bitgen_t``,
    its ``has_gauss``/``gauss`` record after it), of a ``RandomState``
    argument (an address) ...  Only the CPU target resolves such symbols and
    reaches such memory (``LLVMTargetInfo.host_calls``)."""

    symbol: str
    size: int
    type: Optional[Type] = None
    # instead of the symbol, an int64 address computed at run time (the state of
    # the RandomState's MT19937, which np.random.seed writes)
    address: Optional[Expr] = None
    # an N-D array of this constant shape and byte strides, instead of ``size``
    # elements in a row (a global array: ``lib/arrays/global_arrays.py``)
    shape: Optional[tuple] = None
    strides: Optional[tuple] = None

    def children(self):
        return [self.address] if self.address is not None else []

    def replace_children(self, new):
        if self.address is not None:
            self.address = new[0]


@dataclass(eq=False)
class Caught(Expr):
    """In a handler of the ``Try`` numbered ``label``: is the exception it caught an
    instance of one of ``classes`` (exception classes known at compile time)?  Each
    raise site's class is known per raise code, so this is a test of the code
    (never true of a deopt code, which a ``Try`` never catches)."""

    label: int
    classes: tuple = ()
    type: Optional[Type] = None


# ------------------------------------------------------------------------- stmts
@dataclass(eq=False)
class Stmt:
    line: int = 0


@dataclass(eq=False)
class Assign(Stmt):
    """``target = value``; ``inplace`` marks an augmented assignment, which for an
    array updates the array itself (``a += b`` is ``np.add(a, b, out=a)``)."""

    target: str = ""
    value: Expr = None
    inplace: bool = False


@dataclass(eq=False)
class ExprStmt(Stmt):
    value: Expr = None


@dataclass(eq=False)
class If(Stmt):
    cond: Expr = None
    then: list = field(default_factory=list)
    orelse: list = field(default_factory=list)
    static: Optional[bool] = None     # decided by types (``x is None``): prune
    # a versioned loop nest (passes/version_bounds, creation.fill): ``then`` is
    # the fast copy, ``orelse`` the general one (general_copies keeps only it)
    versioned: bool = False


@dataclass(eq=False)
class Loop(Stmt):
    """``while True`` over ``body``; left with ``Break`` or ``Return``."""

    body: list = field(default_factory=list)


@dataclass(eq=False)
class ForCount(Stmt):
    """Primitive counted loop: ``counter`` takes 0, 1, ..., ``count - 1``
    (``count`` is an int64 expression evaluated once; <= 0 runs no iteration).
    ``Continue`` goes to the next count.  The body must not assign ``counter``."""

    counter: str = ""
    count: Expr = None
    body: list = field(default_factory=list)
    short: bool = False             # < 8 iterations: neither vectorised nor unrolled


@dataclass(eq=False)
class ParallelFor(ForCount):
    """A ``ForCount`` whose iterations are independent and may run concurrently,
    in any order.  The body is exactly one ``ExprStmt`` calling a function with the
    counter as its first argument (a chunk of a ``prange`` loop).  When iterations
    raise, the error of the lowest counter is reported.  A target without threads
    runs it as the ``ForCount`` it also is."""


@dataclass(eq=False)
class PyForRange(Stmt):
    """``for target in range(start, stop, step)`` (Python semantics: the range is
    evaluated once, ``target`` is assigned each iteration).  ``orelse`` runs when
    the loop ends without ``break``."""

    target: str = ""
    start: Expr = None
    stop: Expr = None
    step: Expr = None
    body: list = field(default_factory=list)
    orelse: list = field(default_factory=list)


@dataclass(eq=False)
class PyWhile(Stmt):
    cond: Expr = None
    body: list = field(default_factory=list)
    orelse: list = field(default_factory=list)


@dataclass(eq=False)
class Store(Stmt):
    """``array[indices] = value`` (indices checked, value of the element type)."""

    array: Expr = None
    indices: list = field(default_factory=list)
    value: Expr = None


@dataclass(eq=False)
class PySetItem(Stmt):
    """``target[index] = value`` before lowering; ``inplace`` marks ``target[index]
    op= v``, which on an array selection is NumPy's in-place ufunc (same_kind
    casting: ``a[1:] += 1.5`` of an int array raises TypeError)."""

    target: Expr = None
    index: Expr = None
    value: Expr = None
    inplace: bool = False


@dataclass(eq=False)
class Barrier(Stmt):
    """Block-wide barrier (CUDA ``__syncthreads``): each thread of the block waits
    until every thread of the block has reached it; writes to shared and global
    memory made before it by a thread of the block are seen by all of them after
    it.  Every thread of the block must reach the same barrier."""


@dataclass(eq=False)
class ForeignCall(Stmt):
    """A call of a C function of a host library (LAPACK in NumPy's own OpenBLAS)
    for its effects: ``symbol(args...)``, every argument an int64 -- an address
    (``ArrayAttr(a, "data")`` plus an offset) or an integer -- a float passed as
    one, or a complex number passed by address (CBLAS's ``alpha``).  Only the CPU
    target
    links host libraries (``LLVMTargetInfo.host_calls``); the others refuse it."""

    symbol: str = ""
    args: list = field(default_factory=list)
    # a function with a result (``cblas_ddot``): its type, and the local it is
    # assigned to (which an Assign before the call has defined); with
    # ``result_arg`` the function writes it through one more pointer argument
    # instead (``cblas_zdotu_sub``), which the lowering provides
    returns: Optional[Type] = None
    target: Optional[str] = None
    result_arg: bool = False
    # a call back into this process with a constant text (``print``'s layout,
    # ``lib/python/printing.py``): the function gets the address of a constant
    # NUL-terminated UTF-8 copy of ``text`` in the module, the address of a stack
    # buffer holding ``args`` (int64 and float64 only: one 8-byte slot each, a
    # float as its bits) and their count -- no address of this process is baked
    # into the code, so the disk cache reuses it elsewhere
    text: Optional[str] = None


@dataclass(eq=False)
class Break(Stmt):
    pass


@dataclass(eq=False)
class Continue(Stmt):
    pass


@dataclass(eq=False)
class Return(Stmt):
    value: Optional[Expr] = None


@dataclass(eq=False)
class Raise(Stmt):
    """Raise exception class ``exc`` with a constant ``message``.  With ``deopt``
    (or ``exc`` being ``hanajit.lib.python.helpers.Deopt``) the dispatcher instead
    re-runs the call in the interpreter when the function is pure -- used where
    CPython's result cannot be represented, e.g. ``int(1e30)`` beyond int64."""

    exc: object = RuntimeError
    message: str = ""
    deopt: object = False       # or errors.RERUN: the interpreter words it exactly
    args: list = field(default_factory=list)   # up to 3 int64 values for "{}"s


@dataclass(eq=False)
class Try(Stmt):
    """``try``/``except``/``else`` (``finally`` is built from it: frontend).  Runs
    ``body``; when a statement of it, or a function it calls, raises -- anything but
    a deopt (``Raise.deopt`` True: the interpreter re-runs the whole call) -- control
    leaves ``body`` at once for ``then``, the handlers (``If`` tests of ``Caught``,
    ending in ``Reraise`` when no clause matches), which start with any subset of
    ``body``'s assignments done.  When ``body`` completes, ``orelse`` runs, outside
    the handlers' reach.  ``label`` (unique in the function) names this try in
    ``Caught`` and ``Reraise``.  Passes that move statements or prove facts over a
    loop treat a loop holding a ``Try`` as opaque (``walk.holds_try``)."""

    body: list = field(default_factory=list)
    then: list = field(default_factory=list)
    orelse: list = field(default_factory=list)
    label: int = 0


@dataclass(eq=False)
class Reraise(Stmt):
    """Raise again the exception the ``Try`` numbered ``label`` caught (same class,
    message and arguments): a bare ``raise`` in a handler, a handler no clause of
    which matches, the end of a ``finally`` entered by an exception."""

    label: int = 0


# ---------------------------------------------------------------------- function
@dataclass(eq=False)
class Function:
    """One specialisation of a Python function: parameters, locals, body."""

    name: str                       # symbol, unique in the module
    params: list                    # parameter names
    arg_types: tuple = ()
    locals: dict = field(default_factory=dict)   # name -> Type
    body: list = field(default_factory=list)
    return_type: Optional[Type] = None
    pyname: str = ""                # qualified name for messages
    filename: str = ""
    can_raise: bool = True          # decided by the raise analysis
    pure: bool = True               # no mutable arguments: safe to deopt
    inline: bool = False            # ask backends to always inline
    fastmath: tuple = ()            # LLVM fast-math flags for float ops (@jit(fastmath=))
    level: str = "python"          # "python" or "primitive"
    compact: bool = False           # ``hj_compact`` helper: not optimised, not inlined
    unchecked: bool = False         # ``hj_unchecked`` helper: indices in range, unchecked
    short_loops: bool = False       # ``hj_short_loops`` helper: its loops stay scalar loops
    shallow: bool = False           # ``hj_shallow`` helper: recursion bounded, no stack check
    origin: Any = None              # (Python function, argument types) it specialises
    external: Optional[tuple] = None  # (symbol, raises): compiled in another module
    draws_random = False    # (external) the piece draws random numbers (lowering/shared)
    returns_param = None    # the array parameter every return returns, unrebound
    returns_list = False    # a list comprehension: the caller gets the array as a list
    returns_str = False     # (returns_list) a run-time str: the code point array as a str
    #                         (True), or a tuple with strs at these positions
    list_items = ()         # (returns_list) the locals holding the items of each
    numpy_list = False      # (returns_list) whose items are NumPy scalars (infer.py)
    tuple_lists = ()        # (returns_list of a tuple) (position, item locals) pairs
    returns_table = False   # (returns_list) a list of lists (True), or their positions
    #                         in a returned tuple: items, starts, lengths each
    numpy_lists = ()        # ... (position, items are NumPy scalars) pairs (infer.py)
    dict_returns = ()       # dicts returned: (position, key local, value local) each
    dict_boxing = ()        # ... (position, keys NumPy?, values NumPy?) (infer.py)
    numpy_result = None     # return type, NumPy-scalar leaves marked (infer/numpy_results)
    flagged_result = None   # result leaves boxed per call: a result_flags.Plan (infer/)
    hidden_words = None     # {compiler's local: what it holds, for reasons ("sum(out)")}

    def new_temp(self, type_: Type, hint: str = "t") -> str:
        i = len(self.locals)
        while f"${hint}{i}" in self.locals:
            i += 1
        name = f"${hint}{i}"
        self.locals[name] = type_
        return name


@dataclass(eq=False)
class Module:
    """The unit handed to a target: an entry function and everything it calls."""

    entry: str
    functions: dict = field(default_factory=dict)   # symbol -> Function
    raises: list = field(default_factory=list)      # (exc, message, deopt) by code-1
    # per-loop hints for the lowering (hanajit.evolve's genome; None: none)
    strategy: Optional[dict] = None
    # what besides a function and its argument types decides its code (options,
    # capabilities, the target's environment): lowering/shared.py's key
    fingerprint: Optional[tuple] = None

    def raise_code(self, exc, message: str, deopt: bool = False) -> int:
        key = (exc, message, deopt)
        if key not in self.raises:
            self.raises.append(key)
        return self.raises.index(key) + 1


# the walks over statements and expression trees (``ir/walk.py``), here too: every
# pass reads them as ``N.walk_stmts`` ...
from .walk import (LazyGraph, call_graph, callees, holds_try, kept_graph,  # noqa: E402,F401
                   reach, read_names, splice, stmt_exprs, walk_expr, walk_stmts)

# the Python-level expressions (``ir/python_nodes.py``), here too: N.PyCall ...
from .python_nodes import (PyAttr, PyBinOp, PyBoolOp, PyCall, PyCompare,  # noqa: E402,F401
                           PyGetItem, PyIfExp, PySlice, PyUnOp, Truth)
