"""The types of hanajit's typed IR: scalars, tuples, None and (later) arrays.

Every expression node of a typed function carries one of these.  Types are
immutable and compare by value, so they can be dictionary keys (specialisation keys,
cache keys).
"""
from __future__ import annotations

from dataclasses import dataclass, field


class Type:
    """Base class of IR types."""

    @property
    def is_scalar(self) -> bool:
        return isinstance(self, Scalar)

    def __str__(self) -> str:  # pragma: no cover - overridden
        return self.__class__.__name__


@dataclass(frozen=True)
class Scalar(Type):
    """A machine scalar: kind ``b`` (bool), ``i`` (signed), ``u`` (unsigned),
    ``f`` (float) or ``c`` (complex); ``bits`` is the width of the whole value."""

    kind: str
    bits: int

    @property
    def name(self) -> str:
        if self.kind == "b":
            return "bool"
        prefix = {"i": "int", "u": "uint", "f": "float", "c": "complex"}[self.kind]
        return f"{prefix}{self.bits}"

    @property
    def short(self) -> str:
        """The signature-string spelling: ``i64``, ``f32``, ``bool``, ``c128``."""
        if self.kind == "b":
            return "bool"
        return f"{self.kind}{self.bits}"

    @property
    def is_int(self) -> bool:
        return self.kind in "iu"

    @property
    def is_signed(self) -> bool:
        return self.kind == "i"

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_complex(self) -> bool:
        return self.kind == "c"

    @property
    def is_bool(self) -> bool:
        return self.kind == "b"

    @property
    def is_numeric(self) -> bool:
        return True

    @property
    def component(self) -> "Scalar":
        """The real component type of a complex type (else the type itself)."""
        if self.kind == "c":
            return FLOAT32 if self.bits == 64 else FLOAT64
        return self

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name.upper()


@dataclass(frozen=True)
class NoneType(Type):
    """The type of ``None`` (a function with no return value returns it)."""

    def __str__(self) -> str:
        return "none"

    def __repr__(self) -> str:
        return "NONE"


@dataclass(frozen=True)
class TupleType(Type):
    """A fixed-length tuple of (possibly mixed) types."""

    items: tuple

    def __str__(self) -> str:
        return "(" + ", ".join(map(str, self.items)) + ("," if len(self.items) == 1 else "") + ")"

    __repr__ = __str__


@dataclass(frozen=True)
class NamedTupleType(TupleType):
    """A tuple NumPy returns as a named tuple (``EighResult``, ``SVDResult`` ...):
    its items are also read by the attribute names ``fields``.  A returned one is
    handed back as an instance of the class ``name`` of the module ``module``
    (the dispatchers box it in Python: ``named_tuple_class``)."""

    name: str = ""
    fields: tuple = ()
    module: str = "numpy.linalg._linalg"

    def __str__(self) -> str:
        return self.name + TupleType.__str__(self)

    __repr__ = __str__


def named_tuple_class(t: NamedTupleType):
    """The Python class a returned :class:`NamedTupleType` is boxed as."""
    import importlib
    return getattr(importlib.import_module(t.module), t.name)


def named_tuple_in(t):
    """The ``NamedTupleType`` that ``t`` is or holds, or None."""
    if isinstance(t, NamedTupleType):
        return t
    items = t.items if isinstance(t, TupleType) else ()
    return next((n for n in map(named_tuple_in, items) if n is not None), None)


def holds_set(t) -> bool:
    """Does ``t`` hold a set handed to Python, the named tuple of a set local's
    table that the dispatchers box as ``hanajit.host_sets.set_of_table``?"""
    if isinstance(t, NamedTupleType) and t.module == "hanajit.host_sets":
        return True
    return isinstance(t, TupleType) and any(holds_set(i) for i in t.items)


@dataclass(frozen=True)
class RangeType(Type):
    """A ``range`` object value (only consumed by ``for`` loops and ``len``)."""

    def __str__(self) -> str:
        return "range"


@dataclass(frozen=True)
class ArrayType(Type):
    """A NumPy array: element type, number of dimensions, layout (``"C"``
    C-contiguous, ``"F"`` Fortran-contiguous, ``"A"`` any strides) and whether it
    may be written."""

    dtype: Scalar
    ndim: int
    layout: str = "A"
    readonly: bool = False

    def __str__(self) -> str:
        dims = ", ".join(":" for _ in range(self.ndim)) or ""
        lay = "" if self.layout == "A" else f", {self.layout}"
        ro = ", readonly" if self.readonly else ""
        return f"{self.dtype.short}[{dims}{lay}{ro}]"

    __repr__ = __str__

    def copy(self, **kw) -> "ArrayType":
        d = dict(dtype=self.dtype, ndim=self.ndim, layout=self.layout, readonly=self.readonly)
        d.update(kw)
        return ArrayType(**d)


class StrCodes(ArrayType):
    """A str built at run time passed to a jitted or plain callee
    (``frontend/str_locals.py``): its code point array (int32, 1-D, C), typed
    apart so that the callee, specialised on it, reads the parameter as a str."""

    def __str__(self) -> str:
        return "str (built at run time)"

    __repr__ = __str__


@dataclass(frozen=True)
class SliceType(Type):
    """A ``start:stop:step`` slice (only used as an index); ``unit`` when the step
    is statically 1 (so a contiguous layout survives)."""

    unit: bool = False

    def __str__(self) -> str:
        return "slice"


@dataclass(frozen=True)
class ConstType(Type):
    """A compile-time-only Python value passed to a library call (a dtype such as
    ``np.float32``, a string such as ``"C"``); it has no run-time form."""

    value: object

    def __str__(self) -> str:
        return f"const({self.value!r})"


@dataclass(frozen=True)
class DefaultArg(Type):
    """Only in dispatch keys: an argument that is its parameter's default object
    (``crc16(data)`` of ``def crc16(data, poly=0x8408)``, the call omitting it): the
    specialisation folds the value as a constant, as if the body began with
    ``poly = 0x8408`` (``frontend.builder.build_function``).  Passed as ``base``
    (``plain`` strips the marker); the dispatchers check the argument is that very
    object, which the type holds, so its address is never reused.  Keys compare by
    ``base`` and ``text`` (``repr``: ``-0.0`` and ``0.0`` differ)."""

    base: Scalar
    text: str
    value: object = field(compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return f"{self.base.name} = {self.text}"

    __repr__ = __str__


def default_arg(value) -> "DefaultArg | None":
    """The :class:`DefaultArg` of a parameter default worth folding (an exact
    ``bool``, ``int`` in int64, ``float`` or ``complex``), else None."""
    t = _PY_DEFAULTS.get(type(value))
    if t is None or t is INT64 and not INT64_MIN <= value <= INT64_MAX:
        return None
    return DefaultArg(t, repr(value), value)


@dataclass(frozen=True)
class NumpyScalarArg(Type):
    """Only in dispatch keys: a NumPy scalar argument (``np.float64``, ``np.int64``,
    ``np.bool_``, ``np.complex128``) of a type a Python number also has.  NumPy 2
    promotes with its dtype where the Python number adapts (NEP 50), so the two
    compile apart; the compiled function sees ``base`` (the inferrer marks the
    parameter "strong").  Sized NumPy scalars (``np.float32``) need no marker.

    Also marks the leaves of a specialisation's result type that the
    interpreter returns as NumPy scalars (``Function.numpy_result``,
    ``infer/numpy_results.py``; there a sized type may carry it too): targets
    box those as NumPy scalars of ``base``'s dtype."""

    base: Scalar

    def __str__(self) -> str:
        return f"np.{self.base.name}"

    __repr__ = __str__


@dataclass(frozen=True)
class NumpyScalarIf(Type):
    """A leaf of ``Function.numpy_result`` that the interpreter returns as a NumPy
    scalar on some calls and as a Python number on others: a local that is a
    Python float first and an ``np.float32`` after a loop has run
    (``infer/weak_locals.py``), ``return 0.0`` on one path and an ``np.float64``
    on another.  Boxed as the NumPy scalar of ``base`` when result flag ``flag``
    is set, else as the Python number of ``held``, the type that holds the value
    (inside a :class:`FlaggedResult`) -- or of ``python`` when that is set: an
    int (or bool) held exactly in a float64 (or int64), a float in a complex
    (``s = 0`` that becomes an ``np.float64``: ``infer/widened_locals.py``)."""

    base: Scalar
    flag: int
    held: Scalar
    python: Scalar | None = None

    def __str__(self) -> str:
        return f"np.{self.base.name}?{self.flag}"

    __repr__ = __str__


@dataclass(frozen=True)
class FlaggedResult(Type):
    """``Function.numpy_result`` of an entry compiled to return ``(value, flag_0,
    ..., flag_n-1)`` (``passes/result_flags.py``): ``value`` carries the marks,
    its :class:`NumpyScalarIf` leaves read the bool flags after it."""

    value: Type
    flags: int

    def __str__(self) -> str:
        return f"flagged({self.value}, {self.flags})"

    __repr__ = __str__


@dataclass(frozen=True)
class GeneratorType(Type):
    """A NumPy random generator passed as an argument (``np.random.Generator``):
    its bit generator's state pointer and its ``next_uint64``, ``next_uint32`` and
    ``next_double`` C functions (``bit_generator.ctypes``), four int64 words.  The
    state lives in the user's object; compiled code draws through the pointers
    (``RandomBits``), so the object's ``bit_generator.state`` moves exactly as
    the interpreter's would."""

    def __str__(self) -> str:
        return "Generator"

    __repr__ = __str__


@dataclass(frozen=True)
class PyRandomType(GeneratorType):
    """A Python ``random.Random`` passed as an argument (exactly that class): the
    object's address and three zero words, so it travels as a ``GeneratorType``
    does (four int64 words; never returned, never shared by parallel
    iterations).  Its methods work on the object's Mersenne Twister in place
    (``lib/random/python_random.py``); it has no bit generator (no ``RandomBits``)."""

    def __str__(self) -> str:
        return "random.Random"

    __repr__ = __str__


def _cached_hash(self):
    """Types key the specialisation tables on every call: hash each one once."""
    h = self.__dict__.get("_hash")
    if h is None:
        h = hash((type(self).__name__,) + tuple(
            getattr(self, f) for f in self.__dataclass_fields__))
        object.__setattr__(self, "_hash", h)
    return h


for _cls in (Scalar, ArrayType, TupleType, NumpyScalarArg):
    _cls.__hash__ = _cached_hash


BOOL = Scalar("b", 1)
INT8, INT16, INT32, INT64 = (Scalar("i", b) for b in (8, 16, 32, 64))
UINT8, UINT16, UINT32, UINT64 = (Scalar("u", b) for b in (8, 16, 32, 64))
FLOAT32, FLOAT64 = Scalar("f", 32), Scalar("f", 64)
COMPLEX64, COMPLEX128 = Scalar("c", 64), Scalar("c", 128)
NONE = NoneType()


@dataclass(frozen=True)
class FunctionArg(NoneType):
    """A function passed as an argument (a jitted or a plain Python function):
    known when compiling -- its identity is part of the dispatch key -- and only
    called.  Like ``None`` it has no run-time form, so every target passes it as it
    passes ``None`` (nothing)."""

    fn: object

    def __str__(self) -> str:
        return f"function {getattr(self.fn, '__qualname__', self.fn)!s}"


@dataclass(frozen=True)
class StrArg(NoneType):
    """A str argument: a compile-time constant -- its value is part of the dispatch
    key, so each distinct string compiles once (``infer/str_params.py`` folds every
    use of it).  Like ``None`` it has no run-time form: targets pass nothing."""

    value: str

    def __str__(self) -> str:
        return f"str {self.value!r}"

    __repr__ = __str__


@dataclass(frozen=True)
class LocalGeneratorType(GeneratorType):
    """A ``np.random.Generator`` made inside the function
    (``np.random.default_rng(seed)``, ``Generator(PCG64(seed))``): the same four
    words, the state pointer into a PCG64 state block the function owns
    (``lib/random/local_generator.py``).  Only ever held by the variable it is
    assigned to (never copied to another name, put in a tuple or returned), so
    its block lives exactly as long as that variable's value."""

    def __str__(self) -> str:
        return "Generator (made in the function)"

    __repr__ = __str__


@dataclass(frozen=True)
class LocalBitGenType(GeneratorType):
    """``np.random.PCG64(seed)`` made inside the function, only as the argument of
    ``np.random.Generator(...)``: a ``LocalGeneratorType``'s words, no methods."""

    def __str__(self) -> str:
        return "PCG64 (made in the function)"

    __repr__ = __str__


@dataclass(frozen=True)
class RandomStateType(GeneratorType):
    """A ``np.random.RandomState`` passed as an argument (exactly that class): the
    address of the ``bitgen_t`` copy its methods draw through (its cached
    Gaussian, ``aug_bitgen_t``, follows it) and three zero words, so it travels
    as a ``GeneratorType`` does.  Its methods are the legacy ``np.random``
    functions on that state (``lib/random/random_state.py``); it has no bit
    generator words of its own (no ``RandomBits``)."""

    def __str__(self) -> str:
        return "RandomState"

    __repr__ = __str__


@dataclass(frozen=True)
class LocalRandomStateType(RandomStateType):
    """``np.random.RandomState(seed)`` made inside the function: the same words,
    the address pointing into a block the function owns (``bitgen_t``, the
    cached Gaussian and an MT19937 state: ``lib/random/random_state.py``).
    Held only by the variable it is assigned to, as a ``LocalGeneratorType``."""

    def __str__(self) -> str:
        return "RandomState (made in the function)"

    __repr__ = __str__


@dataclass(frozen=True)
class SavedRandomStateType(GeneratorType):
    """``rs.get_state()`` / ``np.random.get_state()`` of an MT19937 ``RandomState``
    in the function: word 0 the address of a block the function owns holding a
    copy of the MT19937 key and position and the cached Gaussian
    (``lib/random/saved_state.py``), only ever passed to ``set_state``.  Held by
    the variable it is assigned to, as a ``LocalGeneratorType``; no methods, no
    items (the interpreter's tuple is never made)."""

    def __str__(self) -> str:
        return "RandomState state (get_state)"

    __repr__ = __str__


GENERATOR = GeneratorType()
PYRANDOM = PyRandomType()
LOCAL_GENERATOR = LocalGeneratorType()
LOCAL_BITGEN = LocalBitGenType()
RANDOMSTATE = RandomStateType()
LOCAL_RANDOMSTATE = LocalRandomStateType()
SAVED_RANDOMSTATE = SavedRandomStateType()

SCALARS = (BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64,
           FLOAT32, FLOAT64, COMPLEX64, COMPLEX128)
BY_NAME = {t.name: t for t in SCALARS}
BY_NAME.update({t.short: t for t in SCALARS})
BY_NAME.update({"int": INT64, "float": FLOAT64, "complex": COMPLEX128,
                "double": FLOAT64, "b1": BOOL, "none": NONE})

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
PYTHON_KINDS = (BOOL, INT64, FLOAT64, COMPLEX128)     # the types Python numbers have
_PY_DEFAULTS = {bool: BOOL, int: INT64, float: FLOAT64, complex: COMPLEX128}


def plain(t: Type) -> Type:
    """A dispatch-key type without its :class:`NumpyScalarArg` marker (only whole
    arguments carry one)."""
    return t.base if isinstance(t, (NumpyScalarArg, DefaultArg)) else t


def int_range(t: Scalar) -> tuple[int, int]:
    """The inclusive value range of an integer (or bool) type."""
    if t.kind == "b":
        return 0, 1
    if t.kind == "u":
        return 0, (1 << t.bits) - 1
    return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1


def numpy_name(t: Scalar) -> str:
    """The NumPy dtype name of a scalar type (``bool``, ``int64``, ``float32`` ...)."""
    return t.name


def from_numpy_dtype(dtype) -> Scalar | None:
    """The scalar type for a NumPy dtype, or None if hanajit has no such type."""
    name = getattr(dtype, "name", str(dtype))
    return BY_NAME.get(name)
