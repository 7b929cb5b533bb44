"""Shared by the probe tests (``hanajit-cpu/tests/test_cpu_*_probe.py``): run a
generated function in the interpreter and compiled, and compare the outcomes --
the same value (by the probe's ``same``), the same exception class, or a fallback
naming the construct, never an internal compiler error."""
from __future__ import annotations

import warnings


def outcome(f, args):
    """("ok", result) or ("raise", exception class name); UnsupportedError passes."""
    import numpy as np

    from ..errors import UnsupportedError
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return ("ok", f(*args))
        except UnsupportedError:
            raise
        except Exception as exc:
            return ("raise", type(exc).__name__)


def check(f, make_args, same, compiles=False):
    """Compare ``f`` in the interpreter with ``f`` compiled (fresh arguments from
    ``make_args()`` for each, and the same state of NumPy's global random
    generator: ``np.random.*`` draws from it).  A fallback passes unless
    ``compiles`` (the case must compile)."""
    import numpy as np

    from .. import jit
    from ..errors import UnsupportedError
    state = np.random.get_state(legacy=False)
    want = outcome(f, make_args())
    np.random.set_state(state)
    try:
        got = outcome(jit(f, fallback=False), make_args())
    except UnsupportedError as exc:
        assert "internal" not in str(exc), str(exc)
        assert not compiles, f"fell back: {exc}"
        return
    if want[0] == "raise" or got[0] == "raise":
        assert got == want
    else:
        assert same(got[1], want[1]), (got[1], want[1])


def probe_module(calls, stem: str):
    """A module (``import numpy as np``) of functions ``f0 ... fN``: ``calls[k]``
    is ``(expression, nargs)``, the expression over parameters ``x0, x1, ...``
    that ``f<k>`` returns."""
    from .sourcefile import load_module
    src = ["import numpy as np"]
    for k, (expr, nargs) in enumerate(calls):
        params = ", ".join(f"x{j}" for j in range(nargs))
        src.append(f"def f{k}({params}):\n    return {expr}\n")
    return load_module("\n".join(src), stem)


def params(n: int) -> str:
    """``"x0, x1, ..."``: the parameters of a :func:`probe_module` function."""
    return ", ".join(f"x{j}" for j in range(n))


def run_seed() -> str:
    """A seed for a probe's per-run sample, the same in every process of one test
    run: ``HANAJIT_PROBE_SEED`` where set (to repeat a run's sample), else
    pytest-xdist's run id (its workers must each collect the same cases), else a
    fresh one (a run without workers)."""
    import os
    import random
    return (os.environ.get("HANAJIT_PROBE_SEED") or os.environ.get("PYTEST_XDIST_TESTRUNUID")
            or str(random.SystemRandom().randrange(2 ** 32)))


def turn(seed: str, n: int) -> int:
    """This run's turn, ``0 <= turn < n``, of a share that rotates from run to run."""
    import hashlib
    return int(hashlib.sha256(seed.encode()).hexdigest(), 16) % n


def covering_pairs(left, right, rng) -> list:
    """``max(len(left), len(right))`` pairs, a random pairing (``rng``: a
    ``random.Random``) in which every item of ``left`` is a first element and every
    item of ``right`` a second one at least once."""
    n = max(len(left), len(right))
    a, b = list(left), list(right)
    rng.shuffle(a)
    rng.shuffle(b)
    return [(a[k % len(a)], b[k % len(b)]) for k in range(n)]
