"""The Python-level expressions of the IR (``ir.nodes`` re-exports them): what the
frontend builds before the semantic passes rewrite each into primitive nodes --
Python operators, comparisons, ``and``/``or``, conditional expressions,
truthiness, calls of Python objects, item access, slices and attributes."""
from __future__ import annotations

from typing import Any, Optional

from .nodes import Expr, dataclass, field, kids
from .types import Type


# Python-level expressions (before the semantic passes) ---------------------------
@dataclass(eq=False)
class PyBinOp(Expr):
    """A Python binary operator: ``add sub mul truediv floordiv mod pow lshift
    rshift bitand bitor bitxor matmul``."""

    op: str
    left: Expr
    right: Expr
    type: Optional[Type] = None
    # decided by inference: NumPy's semantics (an operand is a NumPy scalar or
    # array, NEP 50) rather than Python's; None until typed
    numpy_semantics: Optional[bool] = None
    # ``array ** exponent`` with a Python-number exponent: its type, which decides
    # NumPy's power (power.python_exponent_power); None otherwise
    python_exponent: Optional[Type] = None
    children, replace_children = kids("left", "right")


@dataclass(eq=False)
class PyUnOp(Expr):
    """A Python unary operator: ``neg pos invert not``."""

    op: str
    operand: Expr
    type: Optional[Type] = None
    children, replace_children = kids("operand")


@dataclass(eq=False)
class PyCompare(Expr):
    """A (possibly chained) comparison ``a < b <= c``: ops ``lt le gt ge eq ne in
    notin is isnot``."""

    ops: list
    operands: list
    type: Optional[Type] = None
    children, replace_children = kids("operands")


@dataclass(eq=False)
class PyBoolOp(Expr):
    """``and`` / ``or`` over values, returning an operand as Python does."""

    op: str
    values: list
    type: Optional[Type] = None
    children, replace_children = kids("values")


@dataclass(eq=False)
class PyIfExp(Expr):
    """``a if cond else b`` (only the chosen arm is evaluated)."""

    cond: Expr
    a: Expr
    b: Expr
    type: Optional[Type] = None
    children, replace_children = kids("cond", "a", "b")


@dataclass(eq=False)
class Truth(Expr):
    """Python truthiness of a value (``bool(x)``), type bool."""

    operand: Expr
    type: Optional[Type] = None
    children, replace_children = kids("operand")


@dataclass(eq=False)
class PyCall(Expr):
    """A call of a Python object resolved at compile time (a builtin, a ``math``
    or ``numpy`` function, another jitted function)."""

    callee: Any
    args: list
    kwargs: dict = field(default_factory=dict)
    type: Optional[Type] = None
    name: str = ""
    # decided by the callee's typer: NumPy's semantics for a builtin on NumPy
    # scalars (``abs``, ``divmod`` ...); None until typed
    numpy_semantics: Optional[bool] = None
    # what the callee's typer decided for its lowering (np.quantile's plan)
    plan: Any = None

    def children(self):
        return list(self.args) + list(self.kwargs.values())

    def replace_children(self, new):
        n = len(self.args)
        self.args = list(new[:n])
        self.kwargs = dict(zip(self.kwargs.keys(), new[n:]))


@dataclass(eq=False)
class PyGetItem(Expr):
    """``value[index]`` before lowering (tuple indexing; arrays later).  ``kind``
    names the sequence in an IndexError: ``"list"`` for a read-only list display
    built as a tuple (``frontend.readonly_lists``) or a list comprehension built
    as an array (``frontend.comprehension_lists``: an int index, as a list)."""

    value: Expr
    index: Expr
    type: Optional[Type] = None
    kind: str = "tuple"
    # a list comprehension's item: a NumPy scalar exactly when this local is
    items_like: Optional[str] = None
    children, replace_children = kids("value", "index")


@dataclass(eq=False)
class PySlice(Expr):
    """``start:stop:step`` in an index (missing parts are ``Const(None)``)."""

    start: Expr
    stop: Expr
    step: Expr
    type: Optional[Type] = None
    children, replace_children = kids("start", "stop", "step")


@dataclass(eq=False)
class PyAttr(Expr):
    """``value.attr`` on a typed value (``z.real``, ``z.imag``)."""

    value: Expr
    attr: str
    type: Optional[Type] = None
    children, replace_children = kids("value")
