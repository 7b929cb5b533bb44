"""Random small *array* programs, compiled and compared with CPython + NumPy.

The array counterpart of :mod:`hanajit.testing.progen`.  :func:`generate` writes,
deterministically from a seed, programs ``p0(a, b, m, k) ... pN`` over a 1-D array
``a``, a 1-D array ``b``, a 2-D array ``m`` and an int ``k``: element reads and
writes with indices affine in loop counters (``a[2 * i - 1]``, ``m[j, -1 - i]``:
negative indices wrap, out-of-range ones raise IndexError), nested ``for`` loops
over ``range(lo, hi, step)`` with argument-dependent bounds, ``if``/``break``,
scalar accumulators, whole-array expressions (``a * 2 + b``, ``np.where``,
``np.minimum``, ``np.abs``, comparisons) broadcasting 2-D against 1-D and size-1
axes, slices, slice assignment (overlapping ones too: ``a[1:] = a[:-1] * 2``,
Jacobi-like stencils), in-place ``+=`` on arrays and elements, reductions
(``np.sum``, ``.max()`` of possibly empty arrays, ``.mean()``), ``len`` and
``.shape``.

Every program gets several *input sets*: int64/int32 or float64/float32 arrays of
sizes 0..6 (one set of sizes 9..33, so vectorised loops and their remainders run),
C order, Fortran order, strided and negative-stride views, and
sometimes ``b`` aliasing ``a``.  :func:`run_program` calls the plain Python
function and the ``@jit`` (CPU) function on identical fresh copies and requires
the same return value (arrays: dtype, shape and values; floats bit for bit, NaN ==
NaN) or the same exception type, and the same contents of every input array
afterwards (writes made before an exception included).

What the generator avoids, because hanajit documents a difference there
(``docs/semantics.md``): Python-int overflow (all values are small; scalar
arithmetic on array elements wraps in NumPy as in hanajit), division of scalars
by a run-time value (NumPy scalars give inf/0 where Python raises), float32
scalar arithmetic with inexact results (values are small dyadic numbers, so
float32 and float64 agree), and transcendental functions.  Float ``np.sum`` /
``.mean()`` are sequential in hanajit and pairwise in NumPy: a program using them
compares floats to a relative 1e-5 (the program's ``approx`` flag).

A program hanajit cannot compile runs in the interpreter with a
``HanaJitFallbackWarning``; the runner counts those (with the construct) instead of
comparing them.

``python -m hanajit.testing.progen_arrays --seed 1 --count 500`` runs a batch and
prints each mismatch with its source and inputs.
"""
from __future__ import annotations

import math
import random
import warnings
from dataclasses import dataclass, field

import numpy as np

INT, FLOAT = "i", "f"
INT_VALUES = tuple(range(-9, 10))
FLOAT_VALUES = (0.0, -0.0, 0.5, 1.0, -1.0, 1.5, -2.25, 3.0, 7.0, -4.5, 0.25,
                float("nan"), float("inf"), float("-inf"))
EXCEPTIONS = (IndexError, ValueError, ZeroDivisionError)

PRELUDE = "import numpy as np\n"

# True steers clear of constructs with known, xfailed bugs so that a long run
# reports new ones.  None is known now (``m[i] = m[:1]``, a value with leading
# size-1 axes assigned to a view, was fixed), so everything is generated.
AVOID_KNOWN_BUGS = False
# ``x // c`` and ``x % c`` (constant c != 0) on arrays and on array elements
DIVMOD_BY_CONSTANTS = True

# (1-D views, 2-D views) whose shapes agree along the last axis for equal sizes;
# size-1 axes (``[:1]``, ``[:, :1]``) broadcast against the rest
FRAMES = (
    (("", "", "[::-1]"), ("", "", "[::-1]", "[:, ::-1]", "[:1]", "[:, :1]", "[-1:]", ".T")),
    (("[1:]", "[:-1]", "[1:][::-1]"), ("[1:, 1:]", "[:-1, :-1]", "[1:, :-1]", "[:1, 1:]",
                                       "[::-1, 1:]")),
    (("[1:-1]", "[2:]", "[:-2]"), ("[1:-1, 1:-1]", "[:-2, 1:-1]", "[2:, 1:-1]",
                                   "[1:-1, :-2]", "[1:-1, 2:]")),
    (("[::2]", "[::2]", "[-1::-2]"), ("[:, ::2]", "[:, ::2]", "[::-1, ::-2]")),
)
SIZE1_VIEWS = ("[:1]", "[:, :1]", "[-1:]", "[:1, 1:]")
ANY_VIEWS = (("[1:]", "[::2]", "[k:]", "[:3]", "[1::2]", "[:-1]"),
             ("[1:, :2]", "[::2, ::2]", "[1:-1, 1:-1]", "[:-1]", "[:, 1:]", ".T", "[k:]"))


# ------------------------------------------------------------------ generator
@dataclass
class Arr:
    ndim: int
    kind: str           # INT or FLOAT (the precise dtype is the input's)
    writable: bool = True


class Gen:
    """Builds one program's text from a ``random.Random``."""

    def __init__(self, rng: random.Random, kinds: dict):
        self.r = rng
        self.arrays = {"a": Arr(1, kinds["a"]), "b": Arr(1, kinds["b"]),
                       "m": Arr(2, kinds["m"])}
        self.scalars = {"k": INT}           # name -> kind
        self.loops: list = []               # loop counters in scope
        self.loop_src: dict = {}            # counter -> the length it runs over
        self.n = 0
        self.frame = 0
        self.approx = False
        self.lines: list = []

    def fresh(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, ind, text):
        self.lines.append("    " * ind + text)

    # --------------------------------------------------------------- indices
    def index(self, name, axis):
        """An index along ``axis`` of ``name``: affine in a loop counter (mostly
        one that runs over this axis), or a constant."""
        r = self.r
        axis_len = f"len({name})" if self.arrays[name].ndim == 1 else \
            f"{name}.shape[{axis}]"
        if self.loops and r.random() < 0.85:
            own = [v for v in self.loops if self.loop_src[v] == axis_len]
            v = r.choice(own if own and r.random() < 0.75 else self.loops)
            c = r.choice((1, 1, 1, 1, 1, 1, 2, -1))
            d = r.choice((0, 0, 0, 0, 0, 1, -1, 2, -2))
            term = v if c == 1 else (f"-{v}" if c == -1 else f"{c} * {v}")
            if c == -1 and d == 0:
                d = -1
            if d == 0:
                return term
            return f"{term} {'+' if d > 0 else '-'} {abs(d)}"
        return r.choice(("0", "1", "-1", "2", "-2", f"{axis_len} - 1", "k", "3"))

    def element(self, name):
        if self.arrays[name].ndim == 1:
            return f"{name}[{self.index(name, 0)}]"
        return f"{name}[{self.index(name, 0)}, {self.index(name, 1)}]"

    # -------------------------------------------------------- scalar exprs
    def arrays_of(self, kind, ndim=None, writable=False):
        return sorted(n for n, a in self.arrays.items()
                      if (kind is None or a.kind == kind or (kind == FLOAT and a.kind == INT))
                      and (ndim is None or a.ndim == ndim)
                      and (not writable or a.writable))

    def scalar(self, kind, depth=0):
        """A scalar expression of ``kind`` (an int expression is also a float one)."""
        r = self.r
        if depth >= 2 or r.random() < 0.45:
            return self.scalar_leaf(kind)
        e = lambda: self.scalar(kind, depth + 1)
        op = r.choice(("+", "+", "-", "*c", "abs", "minmax", "ifexp", "div", "neg"))
        if op in "+-":
            return f"({e()} {op} {e()})"
        if op == "*c":
            c = r.choice(("2", "3", "-1")) if kind == INT else r.choice(("2", "0.5", "-0.25", "3"))
            return f"({e()} * {c})"
        if op == "abs":
            return f"abs({e()})"
        if op == "neg":
            return f"(-{e()})"
        # float(): an int arm would make the result an int in CPython, a float
        # in hanajit (the documented int/float unification)
        f = (lambda: f"float({e()})") if kind == FLOAT else e
        if op == "minmax":
            return f"{r.choice(('min', 'max'))}({f()}, {f()})"
        if op == "ifexp":
            return f"({f()} if {self.cond(depth + 1)} else {f()})"
        # division by a non-zero constant only (see the module doc)
        if kind == INT:
            return f"({e()} {r.choice(('//', '%'))} {r.choice(('3', '4', '-2'))})"
        if DIVMOD_BY_CONSTANTS and r.random() < 0.5:
            return f"({e()} {r.choice(('//', '%'))} {r.choice(('2.0', '-1.5', '0.5'))})"
        return f"({e()} / {r.choice(('2', '4.0', '-0.5'))})"

    def scalar_leaf(self, kind):
        r = self.r
        choices = []
        names = [n for n, kd in self.scalars.items() if kd == kind or kind == FLOAT]
        if names:
            choices.append("var")
        if self.arrays_of(kind):
            choices += ["elem", "elem"]
        if self.loops:
            choices.append("loop")
        choices += ["const", "len"]
        c = r.choice(choices)
        if c == "var":
            return r.choice(sorted(names))
        if c == "elem":
            return self.element(r.choice(self.arrays_of(kind)))
        if c == "loop":
            return r.choice(self.loops)
        if c == "len":
            name = r.choice(sorted(self.arrays))
            if self.arrays[name].ndim == 2:
                return f"{name}.shape[{r.choice((0, 1))}]"
            return f"len({name})"
        if kind == INT:
            return r.choice(("0", "1", "2", "(-1)", "5"))
        return r.choice(("0.0", "1.5", "(-0.5)", "2.0", "(-0.0)"))

    def cond(self, depth=0):
        r = self.r
        if self.loops and r.random() < 0.3:
            return f"{r.choice(self.loops)} % 2 == {r.choice((0, 1))}"
        kind = r.choice((INT, FLOAT))
        op = r.choice(("<", "<=", ">", ">=", "==", "!="))
        return f"{self.scalar(kind, depth + 1)} {op} {self.scalar(kind, depth + 1)}"

    # --------------------------------------------------------- array exprs
    def view(self, name, writable_target=False):
        """``name`` or a slice of it from the current *frame* (a family of views of
        matching shapes, so most expressions broadcast; now and then any slice,
        so some raise ValueError): (text, ndim)."""
        r = self.r
        arr = self.arrays[name]
        views1, views2 = FRAMES[self.frame]
        if r.random() < 0.04:
            views1, views2 = ANY_VIEWS
        if arr.ndim == 1:
            text = name + r.choice(views1)
            return text, 1
        if not writable_target and r.random() < 0.1:
            return f"{name}[{r.choice(('0', '-1', '1'))}]", 1        # a row
        if not writable_target and r.random() < 0.05:
            return f"{name}[:, {r.choice(('0', '-1'))}]", 1          # a column
        if writable_target:         # (no size-1 axes: they broadcast, not into)
            views2 = [v for v in views2 if v not in SIZE1_VIEWS]
        return name + r.choice(views2), 2

    def operand(self, kind, ndim_hint):
        """An array operand: (text, ndim, kind)."""
        r = self.r
        names = self.arrays_of(kind)
        # a 1-D result (assigned to a 1-D view) from 1-D operands; a 2-D one
        # from both
        if ndim_hint == 1 or (ndim_hint is not None and r.random() < 0.5):
            same = [n for n in names if self.arrays[n].ndim == ndim_hint]
            names = same or names
        name = r.choice(names)
        if ndim_hint == 1 and self.arrays[name].ndim == 2 and AVOID_KNOWN_BUGS:
            return f"{name}[{r.choice(('0', '-1'))}]", 1, self.arrays[name].kind
        text, nd = self.view(name)
        return text, nd, self.arrays[name].kind

    def top_expr(self, kind, ndim_hint=None):
        self.frame = self.r.randrange(len(FRAMES))
        return self.array_expr(kind, ndim_hint)

    def array_expr(self, kind, ndim_hint=None, depth=0):
        """(text, ndim, kind) of a whole-array expression with result ``kind`` or
        an int kind where ``kind`` is FLOAT."""
        r = self.r
        if depth >= 2 or r.random() < 0.3:
            return self.operand(kind, ndim_hint)
        sub = lambda: self.array_expr(kind, ndim_hint, depth + 1)
        ops = ["lin", "lin", "add", "where", "minmax", "abs", "neg", "stencil"]
        if DIVMOD_BY_CONSTANTS:
            ops.append("divmod")
        op = r.choice(ops)
        if op == "divmod":
            x = sub()
            c = r.choice(("2", "3", "-2")) if kind == INT else r.choice(("2.0", "-1.5", "0.5"))
            return f"({x[0]} {r.choice(('//', '%'))} {c})", x[1], _join(x[2], kind)
        if op == "lin":
            x = sub()
            c = r.choice(("2", "3", "-1")) if kind == INT else r.choice(("2", "0.5", "-1.5"))
            d = r.choice(("1", "-2", "0")) if kind == INT else r.choice(("1.5", "0.25", "-0.0"))
            out_kind = FLOAT if kind == FLOAT and ("." in c or "." in d) else x[2]
            return f"({x[0]} * {c} + {d})", x[1], out_kind
        if op == "add" or op == "stencil":
            x, y = sub(), sub()
            o = r.choice(("+", "-", "*")) if op == "add" else "+"
            text = f"({x[0]} {o} {y[0]})"
            out = _join(x[2], y[2])
            if op == "stencil" and kind == FLOAT:
                text, out = f"0.25 * {text}", FLOAT
            return text, max(x[1], y[1]), out
        if op == "where":
            x, y = sub(), sub()
            c1, c2 = sub(), sub()
            cmp = r.choice(("<", ">", ">=", "==", "!="))
            return (f"np.where({c1[0]} {cmp} {c2[0]}, {x[0]}, {y[0]})",
                    max(x[1], y[1], c1[1], c2[1]), _join(x[2], y[2]))
        if op == "minmax":
            x, y = sub(), sub()
            return (f"np.{r.choice(('minimum', 'maximum'))}({x[0]}, {y[0]})",
                    max(x[1], y[1]), _join(x[2], y[2]))
        x = sub()
        if op == "abs":
            return f"np.abs({x[0]})", x[1], x[2]
        return f"(-{x[0]})", x[1], x[2]

    # --------------------------------------------------------- statements
    def block(self, ind, n, depth):
        for _ in range(n):
            self.stmt(ind, depth)

    def stmt(self, ind, depth):
        r = self.r
        kinds = ["acc", "acc", "elem_write", "elem_write", "elem_aug"]
        if depth < 2:
            kinds += ["for", "for", "for"]
        if depth < 3:
            kinds += ["if"]
        if self.loops:
            kinds += ["break", "row"]
        # whole-array statements mostly outside loops (they are O(n) each)
        w = 3 if depth == 0 else 1
        kinds += ["slice_assign"] * w + ["array_aug"] * w + ["temp"] * w + ["reduce"] * w
        kind = r.choice(kinds)
        getattr(self, "s_" + kind)(ind, depth)

    def any_kind(self):
        return self.r.choice((INT, FLOAT)) if self.arrays_of(INT) else FLOAT

    def accs(self):
        return sorted(n for n in self.scalars if n.startswith("s"))

    def s_acc(self, ind, depth):
        r = self.r
        name = r.choice(self.accs())
        kind = self.scalars[name]
        form = r.choice(("+=", "+=", "-=", "max", "min"))
        e = self.scalar(kind)
        if form in ("max", "min"):
            e = f"float({e})" if kind == FLOAT else e
            self.emit(ind, f"{name} = {form}({name}, {e})")
        else:
            self.emit(ind, f"{name} {form} {e}")

    def s_elem_write(self, ind, depth):
        name = self.r.choice(self.arrays_of(None, writable=True))
        self.emit(ind, f"{self.element(name)} = {self.scalar(self.arrays[name].kind)}")

    def s_elem_aug(self, ind, depth):
        name = self.r.choice(self.arrays_of(None, writable=True))
        op = self.r.choice(("+=", "-="))
        self.emit(ind, f"{self.element(name)} {op} {self.scalar(self.arrays[name].kind)}")

    def s_for(self, ind, depth):
        r = self.r
        var = "ijlq"[len(self.loops)] if len(self.loops) < 4 else self.fresh("c")
        name = r.choice(sorted(self.arrays))
        n = f"len({name})" if self.arrays[name].ndim == 1 else \
            f"{name}.shape[{r.choice((0, 1))}]"
        form = r.choice(("up", "up", "up", "down", "step", "k"))
        if form == "up":
            lo = r.choice(("0", "0", "1", "-1"))
            hi = r.choice((n, n, n, n, f"{n} - 1", f"{n} + 1"))
            head = f"range({hi})" if lo == "0" else f"range({lo}, {hi})"
        elif form == "down":
            head = f"range({n} - 1, {r.choice(('-1', '0', '-2'))}, -1)"
        elif form == "step":
            head = f"range({r.choice(('0', '1'))}, {n}, {r.choice(('2', '3'))})"
        else:
            head = f"range(k, {n})" if r.random() < 0.5 else f"range({n} - k)"
        self.emit(ind, f"for {var} in {head}:")
        self.loops.append(var)
        self.loop_src[var] = n
        self.block(ind + 1, r.randint(1, 3), depth + 1)
        self.loops.pop()

    def s_if(self, ind, depth):
        self.emit(ind, f"if {self.cond()}:")
        self.block(ind + 1, self.r.randint(1, 2), depth + 1)
        if self.r.random() < 0.3:
            self.emit(ind, "else:")
            self.block(ind + 1, 1, depth + 1)

    def s_break(self, ind, depth):
        self.emit(ind, f"if {self.cond()}:")
        self.emit(ind + 1, "break")

    def target_view(self, aug=False):
        """A writable view to assign to: (text, ndim, kind); picks the frame."""
        r = self.r
        self.frame = r.randrange(len(FRAMES))
        name = r.choice(self.arrays_of(None, writable=True))
        arr = self.arrays[name]
        text, nd = self.view(name, writable_target=True)
        if text == name and not aug:
            text += r.choice(("[...]", "[:]"))
        elif text.endswith(".T"):
            text += "[...]"
        return text, nd, arr.kind

    def s_row(self, ind, depth):
        """A row or column of a 2-D array indexed by a loop counter, assigned or
        updated from a 1-D expression: ``m[i] = a * 2``, ``m[:, j - 1] += b``."""
        r = self.r
        names = self.arrays_of(None, ndim=2, writable=True)
        if not names:
            return self.s_elem_write(ind, depth)
        name = r.choice(names)
        kind = self.arrays[name].kind
        self.frame = 0
        if r.random() < 0.7:
            target = f"{name}[{self.index(name, 0)}]"
        else:
            target = f"{name}[:, {self.index(name, 1)}]"
        op = r.choice(("=", "+=")) if kind == FLOAT or r.random() < 0.5 else "="
        self.emit(ind, f"{target} {op} {self.array_expr(kind, 1, depth=1)[0]}")

    def s_slice_assign(self, ind, depth):
        r = self.r
        text, nd, kind = self.target_view()
        if r.random() < 0.2:
            value = r.choice(("0", "1", "-3")) if kind == INT else r.choice(("0.5", "-0.0", "2"))
        else:
            value = self.array_expr(kind, nd)[0]
        self.emit(ind, f"{text} = {value}")

    def s_array_aug(self, ind, depth):
        r = self.r
        text, nd, kind = self.target_view(aug=True)
        op = r.choice(("+=", "-=", "*=")) if r.random() < 0.3 else "+="
        if r.random() < 0.3:
            value = r.choice(("1", "2")) if kind == INT else r.choice(("0.5", "1.5"))
        else:
            value = self.array_expr(kind, nd, depth=1)[0]
        self.emit(ind, f"{text} {op} {value}")

    def s_temp(self, ind, depth):
        kind = self.any_kind()
        text, nd, out = self.top_expr(kind, self.r.choice((1, 2)))
        name = self.fresh("t")
        self.emit(ind, f"{name} = {text}")
        if depth == 0:                  # defined on every path: usable later
            self.arrays[name] = Arr(nd, out)

    def s_reduce(self, ind, depth):
        r = self.r
        name = r.choice(self.accs())
        kind = self.scalars[name]
        form = r.choice(("sum", "sum", "max", "min", "mean", "count", "sumcmp"))
        if kind == INT and form == "mean":
            form = "sum"
        if not self.arrays_of(kind):
            form = "count"
        if form == "count":
            self.emit(ind, f"{name} += len({self.view(r.choice(sorted(self.arrays)))[0]})")
            return
        x, _, xkind = self.top_expr(kind)
        if form == "sumcmp":
            y = self.array_expr(kind)[0]
            self.emit(ind, f"{name} += np.sum({x} {r.choice(('<', '>', '=='))} {y})")
            return
        if form == "sum":
            if xkind == FLOAT:
                self.approx = True
            self.emit(ind, f"{name} += np.sum({x})")
        elif form == "mean":
            self.approx = True
            self.emit(ind, f"{name} += ({x}).mean()")
        else:
            red = f"({x}).{form}()"
            red = f"float({red})" if kind == FLOAT else red
            self.emit(ind, f"{name} = {form}({name}, {red})")

    # -------------------------------------------------------------- program
    def program(self, fname):
        r = self.r
        for _ in range(r.randint(1, 2)):
            kind = r.choice((INT, FLOAT))
            name = self.fresh("s")
            self.scalars[name] = kind
            self.emit(1, f"{name} = {'0' if kind == INT else '0.0'}")
        self.block(1, r.randint(2, 4), 0)
        rets = self.accs()
        if r.random() < 0.4:
            temps = sorted(n for n in self.arrays if n.startswith("t"))
            rets.append(r.choice(temps) if temps and r.random() < 0.5
                        else self.top_expr(self.any_kind())[0])
        ret = rets[0] if len(rets) == 1 else ", ".join(rets)
        self.emit(1, f"return {ret}")
        return f"def {fname}(a, b, m, k):\n" + "\n".join(self.lines) + "\n"


def _join(k1, k2):
    return FLOAT if FLOAT in (k1, k2) else INT


# --------------------------------------------------------------------- inputs
@dataclass(frozen=True)
class ArraySpec:
    """How to build one input array: a base array of ``base_shape`` and ``dtype``
    filled with ``values`` (C order), then a view ``how``."""

    dtype: str
    base_shape: tuple
    values: tuple
    how: str                # "c", "f", "step2", "rev", "rev_cols", "T"

    def build(self) -> np.ndarray:
        base = np.array(self.values, dtype=self.dtype).reshape(self.base_shape)
        if self.how == "f":
            return np.asfortranarray(base)
        if self.how == "step2":
            return base[::2] if base.ndim == 1 else base[::2, ::2]
        if self.how == "rev":
            return base[::-1]
        if self.how == "rev_cols":
            return base[:, ::-1]
        if self.how == "T":
            return base.T
        return base

    def __repr__(self):
        a = self.build()
        return f"np.array({a.tolist()!r}, dtype=np.{self.dtype}) [{self.how}]"


@dataclass(frozen=True)
class InputSet:
    a: ArraySpec
    b: ArraySpec | None         # None: ``b`` is ``a`` (aliasing)
    m: ArraySpec
    k: int

    def build(self) -> tuple:
        a = self.a.build()
        b = a if self.b is None else self.b.build()
        return a, b, self.m.build(), self.k

    def __repr__(self):
        b = "a" if self.b is None else repr(self.b)
        return f"a={self.a!r}, b={b}, m={self.m!r}, k={self.k}"


def _dtype(r, kind):
    if kind == INT:
        return "int64" if r.random() < 0.8 else "int32"
    return "float64" if r.random() < 0.8 else "float32"


def _values(r, kind, n):
    pool = INT_VALUES if kind == INT else FLOAT_VALUES
    return tuple(r.choice(pool) for _ in range(n))


def _spec1(r, kind, n):
    how = r.choice(("c", "c", "c", "step2", "rev"))
    base_n = 2 * n if how == "step2" else n
    return ArraySpec(_dtype(r, kind), (base_n,), _values(r, kind, base_n), how)


def _spec2(r, kind, rows, cols):
    how = r.choice(("c", "c", "f", "step2", "rev", "rev_cols", "T"))
    shape = (rows, cols)
    if how == "step2":
        shape = (2 * rows, 2 * cols)
    elif how == "T":
        shape = (cols, rows)
    return ArraySpec(_dtype(r, kind), shape, _values(r, kind, shape[0] * shape[1]), how)


def _size(r):
    return r.choice((0, 1, 2, 3, 4, 4, 5, 5, 6, 6))


def make_inputs(r: random.Random, kinds: dict, count: int) -> list:
    out = []
    for i in range(count):
        n = _size(r)
        if i < count // 2:          # friendly: equal sizes, no aliasing, small k
            rows = r.choice((n, n, _size(r)))
            if i == 1:              # long enough for vector loops and remainders
                n, rows = r.choice((9, 16, 17, 33)), r.choice((2, 5, 9))
            a, b = _spec1(r, kinds["a"], n), _spec1(r, kinds["b"], n)
            m = _spec2(r, kinds["m"], rows, n)
            out.append(InputSet(a, b, m, r.choice((0, 1, 2))))
            continue
        a = _spec1(r, kinds["a"], n)
        if kinds["a"] == kinds["b"] and r.random() < 0.15:
            b = None
        else:
            b = _spec1(r, kinds["b"], n if r.random() < 0.85 else _size(r))
        rows = _size(r)
        cols = n if r.random() < 0.85 else _size(r)
        m = _spec2(r, kinds["m"], rows, cols)
        out.append(InputSet(a, b, m, r.choice((-2, -1, 0, 1, 2, 3, 5, 7))))
    return out


# ------------------------------------------------------------------- programs
@dataclass
class Program:
    seed: int
    name: str
    source: str
    approx: bool
    inputs: list


def generate(seed: int, count: int = 40, n_inputs: int = 4) -> list:
    """``count`` programs from ``seed``; the same seed gives the same programs."""
    r = random.Random(seed)
    out = []
    for k in range(count):
        kinds = {n: r.choice((INT, FLOAT)) for n in "abm"}
        g = Gen(r, kinds)
        name = f"p{k}"
        source = g.program(name)
        out.append(Program(seed, name, source, g.approx, make_inputs(r, kinds, n_inputs)))
    return out


# ---------------------------------------------------------------- comparison
def _outcome(func, args):
    try:
        return ("ok", func(*args))
    except EXCEPTIONS as exc:
        return ("raise", type(exc), str(exc))


def _scalar_float(v):
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, (float, np.floating)):
        return float(v)
    return None


def same(got, want, approx=False) -> bool:
    """Values agree: tuples item by item; arrays by dtype, shape and values (NaN
    equal to NaN, -0.0 differs from 0.0); ints as ints; floats bit for bit, or to
    a relative 1e-5 with ``approx``."""
    if isinstance(want, tuple):
        return (isinstance(got, tuple) and len(got) == len(want)
                and all(same(g, w, approx) for g, w in zip(got, want)))
    if isinstance(want, np.ndarray):
        if not isinstance(got, np.ndarray) or got.dtype != want.dtype \
                or got.shape != want.shape:
            return False
        if want.dtype.kind == "f":
            return all(_same_float(float(g), float(w), approx)
                       for g, w in zip(got.ravel(), want.ravel()))
        return bool(np.array_equal(got, want))
    wf = _scalar_float(want)
    if wf is not None:
        return isinstance(got, (float, np.floating)) and _same_float(float(got), wf, approx)
    if isinstance(want, (bool, np.bool_)):
        return isinstance(got, (bool, np.bool_)) and bool(got) == bool(want)
    if isinstance(want, (int, np.integer)):
        return (isinstance(got, (int, np.integer)) and not isinstance(got, bool)
                and int(got) == int(want))
    return got == want


def _same_float(g, w, approx):
    if math.isnan(w) or math.isnan(g):
        return math.isnan(w) and math.isnan(g)
    if g == w:
        return approx or math.copysign(1.0, g) == math.copysign(1.0, w)
    return approx and math.isfinite(w) and abs(g - w) <= 1e-5 * max(abs(w), 1.0)


def _same_outcome(got, want, approx):
    if got[0] != want[0]:
        return False
    if got[0] == "raise":
        return got[1] is want[1]
    return same(got[1], want[1], approx)


def _show(o):
    if o[0] == "ok":
        return repr(o[1])
    return f"raises {o[1].__name__}({o[2]!r})"


@dataclass
class Mismatch:
    program: Program
    inputs: InputSet
    what: str

    def __str__(self):
        return (f"seed {self.program.seed} {self.program.name}({self.inputs!r}):\n"
                f"  {self.what}\n{self.program.source}")


@dataclass
class Stats:
    programs: int = 0
    calls: int = 0
    raised: int = 0               # calls where both raised the same exception
    fallbacks: list = field(default_factory=list)     # (program, reason)
    mismatches: list = field(default_factory=list)
    crashes: list = field(default_factory=list)       # (program, inputs, exception)

    def summary(self):
        return (f"{self.programs} programs, {self.calls} calls compared "
                f"({self.raised} raising alike), {len(self.fallbacks)} fell back, "
                f"{len(self.crashes)} crashed, {len(self.mismatches)} mismatches")


def run_program(prog: Program, stats: Stats | None = None, target: str = "cpu") -> Stats:
    """Compare ``prog`` interpreted and compiled for ``target`` on every input set."""
    from ..api import jit
    from ..errors import HanaJitFallbackWarning
    from .sourcefile import load_module
    stats = stats or Stats()
    stats.programs += 1
    mod = load_module(PRELUDE + "\n\n" + prog.source, f"progen_arrays{prog.seed}")
    py = getattr(mod, prog.name)
    jf = jit(py, target=target)
    for inp in prog.inputs:
        args_py, args_jit = inp.build(), inp.build()
        with warnings.catch_warnings(record=True) as caught, \
                np.errstate(all="ignore"):
            warnings.simplefilter("always")
            want = _outcome(py, args_py)
            try:
                got = _outcome(jf, args_jit)
            except Exception as exc:                  # noqa: BLE001 - a crash is data
                stats.crashes.append((prog, inp, f"{type(exc).__name__}: {exc}"))
                continue
        fell = [w for w in caught if issubclass(w.category, HanaJitFallbackWarning)]
        if fell:
            stats.fallbacks.append((prog, str(fell[0].message)))
            return stats
        stats.calls += 1
        stats.raised += want[0] == "raise"
        problems = []
        if not _same_outcome(got, want, prog.approx):
            problems.append(f"compiled {_show(got)}, interpreter {_show(want)}")
        for name, g, w in zip("abm", args_jit, args_py):
            if not same(g, w, prog.approx):
                problems.append(f"{name} afterwards: compiled {g!r}, interpreter {w!r}")
        if problems:
            stats.mismatches.append(Mismatch(prog, inp, "; ".join(problems)))
    return stats


def main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--inputs", type=int, default=4)
    p.add_argument("--target", default="cpu")
    p.add_argument("--show", type=int, default=20, help="mismatches to print")
    p.add_argument("--with-known-bugs", action="store_true",
                   help="also generate the constructs of the xfailed known bugs")
    ns = p.parse_args(argv)
    global AVOID_KNOWN_BUGS
    AVOID_KNOWN_BUGS = not ns.with_known_bugs
    stats = Stats()
    for prog in generate(ns.seed, ns.count, ns.inputs):
        run_program(prog, stats, ns.target)
    for m in stats.mismatches[:ns.show]:
        print(m, end="\n\n")
    for prog, inp, err in stats.crashes[:ns.show]:
        print(f"CRASH seed {prog.seed} {prog.name}({inp!r}): {err}\n{prog.source}\n")
    for prog, reason in stats.fallbacks:
        print(f"fallback seed {prog.seed} {prog.name}: {reason}")
    print(stats.summary())
    return 1 if stats.mismatches or stats.crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
