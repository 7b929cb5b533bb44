"""``np.random.RandomState`` objects: passed as arguments or made in the function.

A ``RandomState`` argument (exactly that class: a subclass may override its
methods and is never compiled) has the IR type ``RandomStateType``: word 0 is
the address of the ``bitgen_t`` copy inside the object, which its methods draw
through, followed by its cached Gaussian (``aug_bitgen_t``: ``has_gauss``,
``gauss``) -- found once per process (``legacy_state.randomstate_offset``).
``np.random.RandomState(seed)`` in the function (an int seed, a 1-D integer
array or a tuple of ints -- ``legacy_seeding.py`` -- or none: 128 bits
of OS entropy hashed as ``SeedSequence()`` does) makes a block of the same
shape the function owns, with an MT19937 state that NumPy's own MT19937
functions draw from (``legacy_algorithms.new_block``); like a generator made in
the function it stays in the variable it is assigned to.

The methods are the legacy ``np.random`` templates with ``method`` (every
helper takes the state's address): ``random_sample``/``random``, ``rand``,
``randn``, ``standard_normal``, ``normal``, ``uniform``, ``randint`` (every
integer dtype and bool), ``seed`` of an int, ``choice``, ``shuffle``,
``permutation``, the 29 distributions of ``legacy_more.py``,
``multivariate_normal`` (``multivariate_normal.py``), ``multinomial`` and
``dirichlet`` (``legacy_vectors.py``), ``tomaxint`` and ``random_integers``
(``legacy_integers.py``), ``get_state``/``set_state`` (``saved_state.py``).
Values, the object's state afterwards (MT19937 key and position,
``has_gauss``, ``gauss``) and the errors are the interpreter's.  Other methods
(``__getstate__`` ...), bit generator seeds and targets whose code runs outside this
process fall back to the interpreter naming the call; ``bytes(n)`` (here and
on a ``Generator``) with the reason: it returns a ``bytes`` object, which
compiled code does not make.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import legacy_algorithms as hl
from .generator import is_absent, is_absent_expr
from .legacy import array_seed
from ..registry import CallTemplate, bind_arguments, register

I = T.INT64


def check_receiver(inf, t) -> None:
    """Refuse a ``RandomState`` method where its memory cannot be reached:
    another process (``Capabilities.host_calls``), another layout of
    ``RandomState``."""
    from .legacy_state import randomstate_offset
    if inf.ctx is None or not inf.ctx.capabilities.host_calls:
        raise Incompatible("a RandomState's methods draw through NumPy's functions in "
                           "this process, which code running outside it (this target) "
                           "cannot call")
    if randomstate_offset() is None:
        raise Incompatible("NumPy's RandomState has a layout hanajit does not know")


class MakeRandomState(CallTemplate):
    """``np.random.RandomState(seed=None)`` of an int (or nothing: OS entropy)."""

    paths = ("numpy.random.RandomState",)

    def typer(self, inf, call, args, kwargs):
        from ...errors import UnsupportedError
        from .legacy_state import legacy_addresses
        seed = bind_arguments("RandomState", ("seed",), args, kwargs).get("seed")
        check_receiver(inf, None)
        try:
            known = "hj.numpy.mt19937_functions" in legacy_addresses()
        except UnsupportedError:
            known = False
        if not known:
            raise Incompatible("np.random.RandomState(): MT19937's state layout is "
                               "unknown")
        if is_absent(seed):
            if inf.ctx.options.get("c_exports"):
                raise Incompatible("np.random.RandomState() without a seed asks Python "
                                   "for OS entropy, which a plain C function cannot")
        elif not (isinstance(seed, T.Scalar) and (seed.is_int or seed.is_bool)) and \
                array_seed(seed) is None:
            raise Incompatible(f"np.random.RandomState() with a seed of type {seed} (an "
                               "int, None, a 1-D integer array or a tuple of ints is "
                               "compiled; bit generators run in the interpreter)")
        return T.LOCAL_RANDOMSTATE

    def lower(self, L, call, args, kwargs):
        seed = bind_arguments("RandomState", ("seed",), args, kwargs).get("seed")
        if is_absent_expr(seed):
            words = L.call_helper(hl.randomstate_entropy, [])
        elif array_seed(seed.type) is not None:
            from . import legacy_seeding as ls
            words = L.call_helper(ls.randomstate_block_array if array_seed(seed.type)
                                  == "array" else ls.randomstate_block_tuple, [seed])
        else:
            if seed.type == T.UINT64:   # (beyond int64: NumPy's range error all the same)
                seed = N.Select(N.Cmp("gt", seed, ops.C(1 << 32, T.UINT64), T.BOOL),
                                ops.C(1 << 32, I), N.Cast(seed, I), I)
            words = L.call_helper(hl.randomstate_block, [ops.convert(L, seed, I)])
        return N.MakeGenerator(words, T.LOCAL_RANDOMSTATE, start=ops.C(0, I))


register(MakeRandomState())

class ReturnsBytes(CallTemplate):
    """``bytes(n)`` of a ``RandomState`` or a ``Generator``: refused, the reason
    named (compiled code makes no ``bytes`` objects)."""

    def __init__(self, owner: str):
        self.owner = owner

    def typer(self, inf, call, args, kwargs):
        raise Incompatible(f"{self.owner}.bytes() returns a bytes object, which compiled "
                           "code does not make")


_METHODS: dict = {}


def method_template(name):
    """The template of ``RandomState.<name>``, or None (the call falls back)."""
    if name == "bytes":
        return ReturnsBytes("RandomState")
    if not _METHODS:
        from .choice import RANDOMSTATE_METHODS
        from .legacy import legacy_calls
        from .legacy_more import legacy_distributions
        from .legacy_vectors import legacy_vectors
        from .legacy_integers import RandomIntegers, ToMaxInt
        from .saved_state import GetState, SetState
        from .multivariate_normal import RANDOMSTATE_METHOD
        _METHODS.update(legacy_calls(method=True))
        del _METHODS["sample"]                  # (a module function only)
        _METHODS.update({t.name: t for t in legacy_distributions(method=True)})
        _METHODS.update(RANDOMSTATE_METHODS)
        _METHODS["multivariate_normal"] = RANDOMSTATE_METHOD
        _METHODS.update(legacy_vectors(method=True))
        _METHODS["tomaxint"] = ToMaxInt()
        _METHODS["random_integers"] = RandomIntegers(method=True)
        _METHODS["get_state"] = GetState(method=True)
        _METHODS["set_state"] = SetState(method=True)
    return _METHODS.get(name)
