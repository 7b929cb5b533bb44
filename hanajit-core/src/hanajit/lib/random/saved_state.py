"""``rs.get_state()`` / ``rs.set_state(state)`` of a ``RandomState`` and
``np.random.get_state()`` / ``np.random.set_state(state)`` where the state only
flows from one to the other inside the function
(``st = rs.get_state(); ...; rs.set_state(st)``).

``get_state()`` (``legacy=True``, the default) makes a ``SavedRandomStateType``
value: a block the function owns with a copy of the MT19937 key and position
and of the cached Gaussian (``saved_state_algorithms.py``).  It stays in the
variable it is assigned to (``local_generator_problem``), is never returned (the
interpreter's tuple is never made) and is only passed to ``set_state``, which
writes it into the receiver as ``mtrand.pyx`` does.  A state tuple built or
changed by the program, ``legacy=False`` (a dict) and returning the state fall
back to the interpreter.

The receiver's bit generator is known only when the call runs, except for a
``RandomState`` made in the function (an MT19937).  NumPy's ``get_state`` of
another bit generator warns and returns a dict, which compiled code cannot
make: the call re-runs in the interpreter (a clean deoptimisation), so the
compiler takes ``get_state`` of an argument or of the global state only where
nothing can have been drawn, written or printed before it in the entry function
(``rerun_safety.clean_state_reads``); elsewhere the function falls back.
"""
from __future__ import annotations

from ...errors import CLEAN
from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python import operators as ops
from ..python.helpers import Deopt
from ..registry import CallTemplate, bind_arguments, register
from . import saved_state_algorithms as ss
from .generator import call_void, is_absent
from .legacy import OnState

I = T.INT64


def _mt19937_known() -> bool:
    from ...errors import UnsupportedError
    from .legacy_state import legacy_addresses
    try:
        return "hj.numpy.mt19937_tag" in legacy_addresses()
    except UnsupportedError:
        return False


def _literal_true(call, method) -> bool:
    """Is ``get_state``'s ``legacy`` argument the constant ``True``?"""
    args = list(getattr(call, "args", None) or [])[1 if method else 0:]
    node = args[0] if args else (getattr(call, "kwargs", None) or {}).get("legacy")
    t = getattr(node, "type", None)
    if isinstance(t, T.ConstType):
        return t.value is True
    return isinstance(node, N.Const) and node.value is True


class StateCall(OnState, CallTemplate):
    """``np.random.<name>`` or, with ``method``, the ``RandomState`` method."""

    def __init__(self, method=False):
        self.method = method
        self.paths = () if method else (f"numpy.random.{self.name}",)

    def receiver_ok(self, inf, args):
        """The memory of the receiver, or of the global state, in reach."""
        from .random_state import check_receiver
        check_receiver(inf, args[0] if self.method else None)


class GetState(StateCall):
    """``get_state(legacy=True)``."""

    name = "get_state"

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        legacy = bind_arguments("get_state", ("legacy",), self.rest(args), kwargs).get(
            "legacy")
        if not (is_absent(legacy) or _literal_true(call, self.method)):
            raise Incompatible("get_state() with legacy other than True (a dict)")
        if not _mt19937_known():
            raise Incompatible("get_state(): MT19937's state layout is unknown")
        local = self.method and isinstance(args[0], T.LocalRandomStateType)
        call.hj_clean_deopt = "" if local else (
            "get_state() of a RandomState argument" if self.method
            else "np.random.get_state()")
        return T.SAVED_RANDOMSTATE

    def lower(self, L, call, args, kwargs):
        st = self.state(L, args)
        if getattr(call, "hj_clean_deopt", ""):
            mt = L.call_helper(ss.is_mt19937, [st])
            L.emit(N.If(cond=N.Cmp("eq", mt, N.Const(False, T.BOOL), T.BOOL),
                        then=[N.Raise(exc=Deopt, deopt=CLEAN, line=L.line, message=(
                            "get_state() of a RandomState whose bit generator is not "
                            "an MT19937 (NumPy returns a dict)"))], line=L.line))
        block = L.call_helper(ss.get_state, [st])
        return N.MakeGenerator(block, T.SAVED_RANDOMSTATE, start=N.Const(0, I))


class SetState(StateCall):
    """``set_state(state)`` of a ``get_state()`` value."""

    name = "set_state"

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        state = bind_arguments("set_state", ("state",), self.rest(args), kwargs).get("state")
        if not isinstance(state, T.SavedRandomStateType):
            raise Incompatible(f"set_state() of a {state} (only a get_state() value of "
                               "the same call is compiled)")
        if not _mt19937_known():
            raise Incompatible("set_state(): MT19937's state layout is unknown")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        saved = bind_arguments("set_state", ("state",), self.rest(args), kwargs)["state"]
        base = L.let(N.TupleGet(saved, 0, I))
        call_void(L, ss.set_state, [self.state(L, args), base])
        return ops.C(None, T.NONE)


register(GetState())
register(SetState())
