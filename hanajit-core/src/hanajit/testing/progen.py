"""Random small programs, compiled and compared with CPython (differential fuzzing).

:func:`generate_module` writes, deterministically from a seed, a module of typed
programs ``p0(a, b, x, y) ... pN`` (``a``, ``b`` ints; ``x``, ``y`` floats) and
``@jit`` helpers they call: arithmetic, comparisons (chained and mixed int/float),
``and``/``or``/``not``, conditional expressions, ``if``/``elif``/``else``,
``while`` and ``for ... in range`` loops with ``break``/``continue``, tuples,
unpacking, augmented assignment, calls, and list displays that are only read
(``w = [e1, e2]``; ``w[i]``, ``x in w``, ``len``/``min``/``max``, ``for v in w``).  Every variable keeps one type, so the
documented int/float unification never applies.

Each program is rendered twice from the same tree: the *compiled* text, and a
*reference* text where every integer result goes through ``_c()``, which raises
``_Overflow`` when it leaves int64 -- there compiled code wraps and CPython does
not, so :func:`run_module` skips that input.  Everything else must match exactly
(values bit for bit, exceptions by type).

``python -m hanajit.testing.progen --seed 3 --modules 5`` runs a batch and prints
each mismatch with its source.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .reference import describe, outcome, same_outcome
from .sourcefile import load_module

INT, FLOAT, BOOL = "i", "f", "b"
PARAMS = (("a", INT), ("b", INT), ("x", FLOAT), ("y", FLOAT))
INT_INPUTS = (0, 1, -1, 2, -3, 5, 7, 10, -12, 100, 2 ** 31, -(2 ** 40), 2 ** 62,
              2 ** 63 - 1, -(2 ** 63))
FLOAT_INPUTS = (0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.75, 1e10, -1e-10, 1e300,
                float("inf"), float("-inf"), float("nan"), 7.0)

_PRELUDE_COMPILED = "import math\n\nfrom hanajit import jit\n"
_PRELUDE_REFERENCE = '''import math

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


class _Overflow(Exception):
    """An int left int64: compiled code wraps there, CPython does not."""


def _c(v):
    if type(v) is int and not INT64_MIN <= v <= INT64_MAX:
        raise _Overflow(v)
    return v


def jit(f):
    return f
'''


@dataclass
class Helper:
    name: str
    params: tuple          # types
    result: str


@dataclass
class Scope:
    """Variables readable here, by type; which may be assigned."""

    readable: dict = field(default_factory=dict)     # name -> type
    assignable: set = field(default_factory=set)
    lists: dict = field(default_factory=dict)        # name -> (item type, length)

    def child(self) -> "Scope":
        return Scope(dict(self.readable), set(self.assignable), dict(self.lists))

    def list_names(self, t) -> list:
        return sorted(n for n, (nt, _) in self.lists.items() if nt == t)

    def names(self, t) -> list:
        return sorted(n for n, nt in self.readable.items() if nt == t)


class Generator:
    """Builds one module's programs from a ``random.Random``."""

    def __init__(self, rng: random.Random):
        self.r = rng
        self.helpers: list = []
        self.n_tmp = 0
        self.loop_depth = 0

    # ------------------------------------------------------------ expressions
    # an expression is rendered by a function taking ``checked`` (reference text)
    def expr(self, t, scope, depth=0):
        r = self.r
        if depth >= 2 or r.random() < 0.4:
            return self.leaf(t, scope)
        return getattr(self, f"expr_{t}")(scope, depth + 1)

    def leaf(self, t, scope):
        r = self.r
        names = scope.names(t)
        if names and r.random() < 0.7:
            name = r.choice(names)
            return lambda checked: name
        if t == INT:
            v = r.choice((0, 1, 2, 3, -1, 5, 7, 10, 17, -4, 100, 2 ** 33))
        elif t == FLOAT:
            v = r.choice((0.0, 1.0, 0.5, -2.5, 3.0, 1e-3, 10.0, -0.0, 1.5e10))
        else:
            v = r.choice((True, False))
        text = repr(v)
        return lambda checked: f"({text})" if text.startswith("-") else text

    def expr_i(self, scope, d):
        r = self.r
        e = lambda t=INT: self.expr(t, scope, d)     # noqa: E731
        kind = r.choice(("arith", "arith", "arith", "div", "unary", "bits", "shift",
                         "minmax", "abs", "conv", "ifexp", "call", "pow", "andor", "list"))
        if kind == "list":
            return self.list_read(INT, scope, d)
        if kind == "arith":
            return _checked_bin(r.choice("+-*"), e(), e())
        if kind == "div":
            return _checked_bin(r.choice(("//", "%")), e(), e())
        if kind == "unary":
            return _checked_fmt("(-{})", e())
        if kind == "bits":
            return _plain_bin(r.choice("&|^"), e(), e())
        if kind == "shift":
            a, b = e(), e()
            if r.random() < 0.5:
                return _checked_fmt("({} << (abs({}) % 16))", a, b)
            return _plain_fmt("({} >> ({} % 70))", a, b)
        if kind == "minmax":
            return _plain_fmt(f"{r.choice(('min', 'max'))}({{}}, {{}})", e(), e())
        if kind == "abs":
            return _checked_fmt("abs({})", e())
        if kind == "conv":
            fn = r.choice(("int", "round", "math.floor", "math.ceil", "math.trunc"))
            return _checked_fmt(f"{fn}({{}})", e(FLOAT))
        if kind == "ifexp":
            return _plain_fmt("({} if {} else {})", e(), e(BOOL), e())
        if kind == "call":
            return self.call(INT, scope, d)
        if kind == "pow":
            return _checked_fmt(f"({{}} ** {r.choice((0, 1, 2, 3))})", e())
        return _plain_fmt(f"({{}} {r.choice(('and', 'or'))} {{}})", e(), e())

    def expr_f(self, scope, d):
        r = self.r
        e = lambda t=FLOAT: self.expr(t, scope, d)   # noqa: E731
        kind = r.choice(("arith", "arith", "mixed", "div", "unary", "minmax", "abs",
                         "math", "conv", "ifexp", "call", "pow", "list"))
        if kind == "list":
            return self.list_read(FLOAT, scope, d)
        if kind == "arith":
            return _plain_bin(r.choice("+-*"), e(), e())
        if kind == "mixed":
            a, b = e(), e(INT)
            return _plain_bin(r.choice("+-*/"), *((a, b) if r.random() < 0.5 else (b, a)))
        if kind == "div":
            return _plain_bin(r.choice(("/", "//", "%")), e(), e())
        if kind == "unary":
            return _plain_fmt("(-{})", e())
        if kind == "minmax":
            return _plain_fmt(f"{r.choice(('min', 'max'))}({{}}, {{}})", e(), e())
        if kind == "abs":
            return _plain_fmt("abs({})", e())
        if kind == "math":
            fn = r.choice(("math.sqrt", "math.exp", "math.sin", "math.atan", "math.tanh",
                           "math.log", "math.fabs"))
            return _plain_fmt(f"{fn}({{}})", e())
        if kind == "conv":
            return _plain_fmt("float({})", e(INT))
        if kind == "ifexp":
            return _plain_fmt("({} if {} else {})", e(), e(BOOL), e())
        if kind == "call":
            return self.call(FLOAT, scope, d)
        # abs(): a negative base to a fractional power is complex.  No constant
        # exponent 2 or -1: LLVM folds pow(x, 2.0) to x * x, which differs from libm
        # pow by an ulp (test_cpu_regressions.test_float_square_matches_libm_pow)
        if r.random() < 0.5:
            return _plain_fmt("(abs({}) ** {})", e(), e())
        if r.random() < 0.5:
            return _plain_fmt("(abs({}) ** 0.5)", e())
        return _plain_fmt("({} ** 3.0)", e())

    def expr_b(self, scope, d):
        r = self.r
        kind = r.choice(("cmp", "cmp", "chain", "not", "andor", "in", "inlist"))
        ops = ("<", "<=", ">", ">=", "==", "!=")
        any_t = lambda: r.choice((INT, FLOAT))       # noqa: E731
        e = lambda t: self.expr(t, scope, d)        # noqa: E731
        if kind == "cmp":
            return _plain_bin(r.choice(ops), e(any_t()), e(any_t()))
        if kind == "chain":
            return _plain_fmt(f"({{}} {r.choice(ops)} {{}} {r.choice(ops)} {{}})",
                              e(any_t()), e(any_t()), e(any_t()))
        if kind == "not":
            return _plain_fmt("(not {})", e(BOOL))
        if kind == "andor":
            return _plain_fmt(f"({{}} {r.choice(('and', 'or'))} {{}})", e(BOOL), e(BOOL))
        if kind == "inlist":
            names = scope.list_names(INT) + scope.list_names(FLOAT)
            if names:
                return _plain_fmt(f"({{}} {r.choice(('in', 'not in'))} {r.choice(names)})",
                                  e(any_t()))
        return _plain_fmt(f"({{}} {r.choice(('in', 'not in'))} (1, 2.5, -3, 0))",
                          e(any_t()))

    def list_read(self, t, scope, d):
        """An item of a read-only list (an index sometimes out of range), its
        length, or its min/max."""
        r = self.r
        names = scope.list_names(t)
        if not names and t == INT and scope.lists:
            return _plain_fmt(f"len({r.choice(sorted(scope.lists))})")
        if not names:
            return self.leaf(t, scope)
        name = r.choice(names)
        n = scope.lists[name][1]
        kind = r.choice(("item", "item", "item", "minmax"))
        if kind == "minmax":
            return _lit(f"{r.choice(('min', 'max'))}({name})")
        span, low = (n + 2, n + 1) if r.random() < 0.1 else (n, r.randint(0, n))
        return _plain_fmt(f"{name}[({{}}) % {span} - {low}]", self.expr(INT, scope, d))

    def call(self, t, scope, d):
        options = [h for h in self.helpers if h.result == t]
        if not options:
            return self.leaf(t, scope)
        h = self.r.choice(options)
        args = [self.expr(pt, scope, d) for pt in h.params]
        return _plain_fmt(f"{h.name}({', '.join('{}' for _ in args)})", *args)

    # ------------------------------------------------------------- statements
    def block(self, scope, n, depth, returns, top=False) -> list:
        out = []
        for _ in range(n):
            out.extend(self.stmt(scope, depth, returns, top))
        return out or [lambda checked, ind: [ind + "pass"]]

    def stmt(self, scope, depth, returns, top):
        r = self.r
        kinds = ["assign", "assign", "aug"]
        if depth < 2:
            kinds += ["if", "for", "while"]
        if self.loop_depth:
            kinds += ["break", "continue"]
        if top:
            kinds += ["new", "new", "swap", "list"]
        if scope.lists and depth < 2:
            kinds += ["forlist"]
        if returns and depth:
            kinds += ["return"]
        kind = r.choice(kinds)
        if kind == "list":
            t = r.choice((INT, FLOAT))
            name = f"w{self.n_tmp}"
            self.n_tmp += 1
            items = [self.expr(t, scope) for _ in range(r.randint(1, 4))]
            scope.lists[name] = (t, len(items))
            return [_line(f"{name} = [" + ", ".join("{}" for _ in items) + "]", *items)]
        if kind == "forlist":
            name = r.choice(sorted(scope.lists))
            inner = scope.child()
            var = f"e{self.n_tmp}"
            self.n_tmp += 1
            inner.readable[var] = scope.lists[name][0]
            self.loop_depth += 1
            body = self.block(inner, r.randint(1, 2), depth + 1, returns)
            self.loop_depth -= 1
            return [_for_in(var, name, body)]
        if kind == "new":
            t = r.choice((INT, FLOAT, BOOL))
            name = f"v{self.n_tmp}"
            self.n_tmp += 1
            value = self.expr(t, scope)
            scope.readable[name] = t
            scope.assignable.add(name)
            return [_line(f"{name} = {{}}", value)]
        if kind in ("assign", "aug"):
            targets = sorted(scope.assignable)
            if not targets:
                return []
            name = r.choice(targets)
            t = scope.readable[name]
            if kind == "aug" and t != BOOL:
                ops = ("+", "-", "*", "//", "%") if t == INT else ("+", "-", "*", "/")
                op = r.choice(ops)
                value = self.expr(t, scope)
                return [_aug(name, op, value, checked_int=t == INT)]
            return [_line(f"{name} = {{}}", self.expr(t, scope))]
        if kind == "swap":
            for t in (INT, FLOAT):
                names = sorted(n for n in scope.assignable if scope.readable[n] == t)
                if len(names) >= 2:
                    p, q = r.sample(names, 2)
                    return [_line(f"{p}, {q} = {q}, {p}")]
            return []
        if kind == "if":
            cond = self.expr(BOOL, scope)
            then = self.block(scope.child(), r.randint(1, 2), depth + 1, returns)
            orelse = []
            if r.random() < 0.5:
                orelse = self.block(scope.child(), r.randint(1, 2), depth + 1, returns)
            return [_if(cond, then, orelse)]
        if kind == "for":
            inner = scope.child()
            var = f"i{self.n_tmp}"
            self.n_tmp += 1
            start = self.expr(INT, scope)
            stop = self.expr(INT, scope)
            step = r.choice(("1", "1", "2", "3", "-1", "-2", None))
            if step is None:
                step_e = _plain_fmt("({} % 3 - 1)", self.expr(INT, scope))
            else:
                step_e = _lit(step)
            inner.readable[var] = INT
            self.loop_depth += 1
            body = self.block(inner, r.randint(1, 2), depth + 1, returns)
            self.loop_depth -= 1
            orelse = self.block(scope.child(), 1, depth + 1, returns) \
                if r.random() < 0.2 else []
            return [_for(var, start, stop, step_e, body, orelse)]
        if kind == "while":
            inner = scope.child()
            var = f"w{self.n_tmp}"
            self.n_tmp += 1
            limit = r.randint(1, 9)
            cond = self.expr(BOOL, scope) if r.random() < 0.5 else _lit("True")
            self.loop_depth += 1
            body = self.block(inner, r.randint(1, 2), depth + 1, returns)
            self.loop_depth -= 1
            return [_while(var, limit, cond, body)]
        if kind == "break":
            return [_if(self.expr(BOOL, scope), [_line("break")], [])]
        if kind == "continue":
            return [_if(self.expr(BOOL, scope), [_line("continue")], [])]
        return [_if(self.expr(BOOL, scope), [self.return_stmt(scope, returns)], [])]

    def return_stmt(self, scope, returns):
        values = [self.expr(t, scope) for t in returns]
        if len(values) == 1:
            return _line("return {}", values[0])
        return _line("return " + ", ".join("{}" for _ in values), *values)

    # -------------------------------------------------------------- functions
    def function(self, name, params, returns, size, decorator=""):
        scope = Scope({n: t for n, t in params}, {n for n, _ in params})
        self.loop_depth = 0
        body = self.block(scope, size, 0, returns, top=True)
        body.append(self.return_stmt(scope, returns))
        head = f"def {name}({', '.join(n for n, _ in params)}):"

        def render(checked):
            lines = ([decorator] if decorator else []) + [head]
            for s in body:
                lines.extend(s(checked, "    "))
            return "\n".join(lines)
        return render

    def helper(self, k):
        r = self.r
        names = ("p", "q", "s")
        params = tuple((names[i], r.choice((INT, FLOAT))) for i in range(r.randint(1, 3)))
        result = r.choice((INT, FLOAT))
        render = self.function(f"h{k}", params, (result,), r.randint(1, 2), "@jit")
        self.helpers.append(Helper(f"h{k}", tuple(t for _, t in params), result))
        return render

    def program(self, k):
        r = self.r
        returns = tuple(r.choice((INT, FLOAT, BOOL)) for _ in range(r.randint(1, 3)))
        return self.function(f"p{k}", PARAMS, returns, r.randint(2, 3))


# ----------------------------------------------------------------- rendering
def _lit(text):
    return lambda checked: text


def _plain_fmt(fmt, *parts):
    return lambda checked: fmt.format(*(p(checked) for p in parts))


def _checked_fmt(fmt, *parts):
    def render(checked):
        text = fmt.format(*(p(checked) for p in parts))
        return f"_c({text})" if checked else text
    return render


def _plain_bin(op, a, b):
    return _plain_fmt(f"({{}} {op} {{}})", a, b)


def _checked_bin(op, a, b):
    return _checked_fmt(f"({{}} {op} {{}})", a, b)


def _line(fmt, *parts):
    return lambda checked, ind: [ind + fmt.format(*(p(checked) for p in parts))]


def _aug(name, op, value, checked_int):
    def render(checked, ind):
        if checked and checked_int:
            return [f"{ind}{name} = _c({name} {op} ({value(checked)}))"]
        return [f"{ind}{name} {op}= {value(checked)}"]
    return render


def _nested(stmts, checked, ind):
    out = []
    for s in stmts:
        out.extend(s(checked, ind + "    "))
    return out


def _if(cond, then, orelse):
    def render(checked, ind):
        out = [f"{ind}if {cond(checked)}:"] + _nested(then, checked, ind)
        if orelse:
            out += [f"{ind}else:"] + _nested(orelse, checked, ind)
        return out
    return render


def _for(var, start, stop, step, body, orelse):
    def render(checked, ind):
        head = (f"{ind}for {var} in range(({start(checked)}) % 13 - 6, "
                f"({stop(checked)}) % 17 - 8, {step(checked)}):")
        out = [head] + _nested(body, checked, ind)
        if orelse:
            out += [f"{ind}else:"] + _nested(orelse, checked, ind)
        return out
    return render


def _for_in(var, seq, body):
    def render(checked, ind):
        return [f"{ind}for {var} in {seq}:"] + _nested(body, checked, ind)
    return render


def _while(var, limit, cond, body):
    def render(checked, ind):
        return ([f"{ind}{var} = 0", f"{ind}while {var} < {limit} and {cond(checked)}:",
                 f"{ind}    {var} += 1"] + _nested(body, checked, ind))
    return render


# ------------------------------------------------------------------- modules
@dataclass
class GeneratedModule:
    seed: int
    names: list                 # program function names
    compiled_source: str
    reference_source: str
    inputs: dict                # name -> list of argument tuples


def generate_module(seed: int, count: int = 50, n_inputs: int = 4) -> GeneratedModule:
    """``count`` programs (and a few helpers) from ``seed``; same seed, same text."""
    rng = random.Random(seed)
    g = Generator(rng)
    helpers = [g.helper(k) for k in range(rng.randint(2, 3))]
    programs = [g.program(k) for k in range(count)]
    compiled = _PRELUDE_COMPILED + "".join(
        "\n\n" + f(False) + "\n" for f in helpers + programs)
    reference = _PRELUDE_REFERENCE + "".join(
        "\n\n" + f(True) + "\n" for f in helpers + programs)
    names = [f"p{k}" for k in range(count)]
    inputs = {}
    for name in names:
        rows = []
        for i in range(n_inputs):
            small = i < n_inputs // 2
            ints = INT_INPUTS[:10] if small else INT_INPUTS
            rows.append((rng.choice(ints), rng.choice(ints), rng.choice(FLOAT_INPUTS),
                         rng.choice(FLOAT_INPUTS)))
        inputs[name] = rows
    return GeneratedModule(seed, names, compiled, reference, inputs)


@dataclass
class Mismatch:
    seed: int
    name: str
    args: tuple
    compiled: tuple
    cpython: tuple
    source: str

    def __str__(self):
        return (f"seed {self.seed}, {self.name}{self.args!r}: compiled "
                f"{describe(self.compiled)}, CPython {describe(self.cpython)}\n"
                f"{self.source}")


@dataclass
class RunStats:
    programs: int = 0
    calls: int = 0
    skipped_overflow: int = 0
    mismatches: list = field(default_factory=list)


def run_module(gen: GeneratedModule, target: str = "cpu", stats: RunStats | None = None
               ) -> RunStats:
    """Compile every program of ``gen`` for ``target`` and compare with CPython."""
    from ..api import jit
    stats = stats or RunStats()
    compiled_mod = load_module(gen.compiled_source, f"progen{gen.seed}")
    reference_mod = load_module(gen.reference_source, f"progen{gen.seed}_ref")
    overflow = reference_mod._Overflow
    for name in gen.names:
        stats.programs += 1
        jf = jit(getattr(compiled_mod, name), target=target, fallback=False)
        ref = getattr(reference_mod, name)
        for args in gen.inputs[name]:
            want = outcome(ref, args)
            if want[0] == "raise" and want[1] is overflow:
                stats.skipped_overflow += 1
                continue
            stats.calls += 1
            got = outcome(jf, args)
            if not same_outcome(got, want):
                stats.mismatches.append(Mismatch(gen.seed, name, args, got, want,
                                                 _function_source(gen, name)))
    return stats


def _function_source(gen: GeneratedModule, name: str) -> str:
    """The program ``name`` and the helpers, from the compiled text."""
    chunks = gen.compiled_source.split("\n\n\n")
    keep = [c for c in chunks if c.startswith("@jit") or c.startswith(f"def {name}(")]
    return "\n\n\n".join(keep)


def main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--modules", type=int, default=4)
    p.add_argument("--count", type=int, default=50)
    p.add_argument("--target", default="cpu")
    ns = p.parse_args(argv)
    stats = RunStats()
    for seed in range(ns.seed, ns.seed + ns.modules):
        run_module(generate_module(seed, ns.count), ns.target, stats)
    for m in stats.mismatches:
        print(m, end="\n\n")
    print(f"{stats.programs} programs, {stats.calls} calls compared, "
          f"{stats.skipped_overflow} skipped (int64 overflow), "
          f"{len(stats.mismatches)} mismatches")
    return 1 if stats.mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
