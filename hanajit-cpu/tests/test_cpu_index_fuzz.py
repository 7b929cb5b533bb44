"""Random index expressions against NumPy: integers, slices with steps, ``None``,
``...``, integer and boolean index arrays, list displays and mixes of them, read,
assigned and updated in place, on arrays of random shape and layout.  Each case is
a generated function (an index's form is part of the compiled specialisation)
compared with the interpreter running it; exceptions must match too."""
import random

import numpy as np
from hanajit.testing.fuzz import DERANDOMIZE, run_both
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _slice(rng):
    def bound():
        return "" if rng.random() < 0.4 else str(rng.randint(-5, 5))
    step = rng.choice(["", "", "1", "2", "-1", "-2", "3"])
    text = f"{bound()}:{bound()}"
    return text + (f":{step}" if step else "")


def make_case(seed):
    """(source, args) of one random indexing function ``f``."""
    rng = random.Random(seed)
    ndim = rng.randint(1, 3)
    shape = [rng.randint(0, 4) for _ in range(ndim)]
    base = np.arange(int(np.prod(shape)) or 1, dtype=rng.choice(
        [np.float64, np.int64, np.int32]))[:int(np.prod(shape))].reshape(shape)
    layout = rng.choice(["C", "F", "rev", "step"])
    if layout == "F":
        base = np.asfortranarray(base)
    elif layout == "rev":
        base = base[::-1]
    elif layout == "step":
        big = np.repeat(base, 2, axis=-1) if base.size else base
        base = big[..., ::2] if base.size else base
    params, args, items = ["a"], [base], []
    used_ellipsis = False
    axis = 0
    for _ in range(rng.randint(1, ndim + 1)):
        kind = rng.choice(["int", "intarg", "slice", "slice", "none", "ellipsis",
                           "arr", "arr", "mask", "list"])
        name = f"i{len(params)}"
        if kind == "int":
            items.append(str(rng.randint(-4, 4)))
        elif kind == "intarg":
            params.append(name)
            args.append(rng.randint(-4, 4))
            items.append(name)
        elif kind == "slice":
            items.append(_slice(rng))
        elif kind == "none":
            items.append("None")
            continue
        elif kind == "ellipsis" and not used_ellipsis:
            used_ellipsis = True
            items.append("...")
            continue
        elif kind == "arr":
            n = rng.randint(0, 3)
            ix = np.array([rng.randint(-4, 4) for _ in range(n)], dtype=np.int64)
            if rng.random() < 0.3 and n:
                ix = ix.reshape(1, n)
            params.append(name)
            args.append(ix)
            items.append(name)
        elif kind == "mask":
            length = shape[axis] if axis < ndim else rng.randint(0, 3)
            params.append(name)
            args.append(np.array([rng.random() < 0.5 for _ in range(length)]))
            items.append(name)
        else:
            vals = [rng.randint(-4, 4) for _ in range(rng.randint(1, 3))]
            items.append("[" + ", ".join(map(str, vals)) + "]")
        axis += 1
    index = ", ".join(items) if len(items) > 1 else items[0]
    op = rng.choice(["read", "read", "assign", "update"])
    body = {"read": f"    return a[{index}]",
            "assign": f"    a[{index}] = 7\n    return a",
            "update": f"    a[{index}] += 1\n    return a"}[op]
    src = f"import numpy as np\n\n\ndef f({', '.join(params)}):\n{body}\n"
    return src, args


class _Scalar(np.ndarray):
    """A scalar result, as a 0-d array that says it was not one: ``a[i, ...]``
    is a 0-d array and ``a[i]`` of a 1-D array a scalar."""


def _value(r):
    if isinstance(r, np.ndarray):
        return r.copy()
    return np.array(r).view(_Scalar)


def _check(seed, compiled=None):
    src, args = make_case(seed)
    # the interpreter on the same layouts (make_case rebuilds the views)
    _, want_args = make_case(seed)
    got, want = run_both(src, args, want_args, _value, "index", compiled)
    assert got[0] == want[0], (src, args, got, want)
    if got[0] == "raise":
        assert got[1] is want[1], (src, args, got, want)
    else:
        assert got[1].shape == want[1].shape and got[1].dtype == want[1].dtype, (src, args)
        assert type(got[1]) is type(want[1]), (src, args, got, want)
        np.testing.assert_array_equal(got[1], want[1], err_msg=src)
    for g, w in zip(args, want_args):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w, err_msg=src)


# (80 random seeds and the 60 fixed ones of the next test: 140 cases checked)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=DERANDOMIZE)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_index_expressions_match_numpy(seed):
    _check(seed)


def test_the_fuzzer_reaches_compiled_code():
    # most generated indices must compile, or the comparison above would only be
    # testing the interpreter: the first 60 seeds, each also checked against NumPy
    # (one compile for both)
    compiled = []
    for seed in range(60):
        _check(seed, compiled)
    assert sum(compiled) >= 30
