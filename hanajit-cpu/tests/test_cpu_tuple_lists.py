"""Lists of tuples of numbers (a stack or queue of coordinates), compiled as one
list per tuple position (``frontend/tuple_lists.py``), compared with CPython."""
import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit

DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def flood_fill(grid, sr, sc, new):
    h, w = grid.shape
    old = grid[sr, sc]
    if old == new:
        return grid
    stack = [(sr, sc)]
    while stack:
        r, c = stack.pop()
        if r < 0 or r >= h or c < 0 or c >= w:
            continue
        if grid[r, c] != old:
            continue
        grid[r, c] = new
        for dr, dc in DIRS:
            stack.append((r + dr, c + dc))
    return grid


def bfs(walls, start, goal):
    h, w = walls.shape
    dist = np.full((h, w), -1, dtype=np.int64)
    q = [start]
    dist[start] = 0
    qi = 0
    while qi < len(q):
        r, c = q[qi]
        qi += 1
        if (r, c) == goal:
            return dist[r, c]
        for dr, dc in DIRS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < h and 0 <= nc < w and not walls[nr, nc] and dist[nr, nc] < 0:
                dist[nr, nc] = dist[r, c] + 1
                q.append((nr, nc))
    return -1


def queue_popleft(x):
    q = []
    for i in range(len(x)):
        q.append((i, x[i]))
    total = 0.0
    order = 0
    while len(q) > 0:
        i, v = q.pop(0)
        total = total * 0.5 + v
        order = order * 10 + i
        if v > 0.5 and i < 3:
            q.append((i + 10, v / 4))
    return total, order


def loop_sees_appends(n):
    pts = [(0, 0.5)]
    s = 0.0
    for k, v in pts:
        s += k * v
        if k < n:
            pts.append((k + 1, v * 1.5))
    return s, len(pts)


def whole_items(x):
    pairs = []
    for v in x:
        pairs.append((v, v * 2))
    first = pairs[0]
    last = pairs.pop()
    total = 0
    for t in pairs:
        total += t[1]
    return first[0] + last[1], total


def empty_pop(k):
    s = [(1, 2)]
    for _ in range(k):
        a, b = s.pop()
    return a + b


def bad_index(i):
    s = [(1, 2.5), (3, 4.5)]
    a, b = s[i]
    return a * b


def returned(x):
    out = []
    for v in x:
        out.append((v, v + 1))
    return out


J = {f.__name__: jit(f, fallback=False) for f in (
    flood_fill, bfs, queue_popleft, loop_sees_appends, whole_items, empty_pop, bad_index)}


def same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    else:
        assert np.asarray(a).dtype == np.asarray(b).dtype, (a, b)
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes(), (a, b)


@pytest.mark.parametrize("dtype", [np.int64, np.uint8])
def test_flood_fill(dtype):
    g = np.array([[1, 1, 0, 2], [0, 1, 1, 2], [1, 0, 1, 1], [1, 1, 0, 1]], dtype)
    for sr, sc, new in [(0, 0, 5), (0, 3, 7), (2, 0, 1), (3, 3, 9)]:
        same(flood_fill(g.copy(), sr, sc, new), J["flood_fill"](g.copy(), sr, sc, new))
    same(flood_fill(g.copy(), np.int64(1), 1, 4), J["flood_fill"](g.copy(), np.int64(1), 1, 4))


def test_bfs():
    rng = np.random.default_rng(3)
    for _ in range(4):
        walls = rng.random((7, 9)) > 0.7
        walls[0, 0] = walls[6, 8] = False
        same(bfs(walls, (0, 0), (6, 8)), J["bfs"](walls, (0, 0), (6, 8)))
    walls = np.zeros((3, 3), bool)
    same(bfs(walls, (1, 1), (1, 1)), J["bfs"](walls, (1, 1), (1, 1)))


@pytest.mark.parametrize("x", [np.array([0.9, 0.2, 0.7, 0.1]), np.array([]),
                               np.array([0.6, 0.6]), np.array([np.nan, -0.0])])
def test_queue(x):
    same(queue_popleft(x), J["queue_popleft"](x))


def test_loop_sees_appends():
    for n in (0, 1, 5):
        same(loop_sees_appends(n), J["loop_sees_appends"](n))


@pytest.mark.parametrize("x", [np.array([3, 1, 4]), np.array([2.5]), np.array([7], np.uint8)])
def test_whole_items(x):
    with np.errstate(over="ignore"):
        same(whole_items(x), J["whole_items"](x))


def test_errors():
    same(empty_pop(1), J["empty_pop"](1))
    for f in (empty_pop, J["empty_pop"]):
        with pytest.raises(IndexError):
            f(2)
    same(bad_index(-1), J["bad_index"](-1))
    for f in (bad_index, J["bad_index"]):
        with pytest.raises(IndexError):
            f(2)


def test_returned_falls_back():
    x = np.array([1, 2])
    with pytest.warns(HanaJitFallbackWarning, match="list of tuples"):
        got = jit(returned)(x)
    assert got == returned(x)


def mixed_kinds(n):
    st = [(0, 0.5)]
    st.append((1, n))
    a, b = st.pop()
    return a + b


def test_mixed_kinds_named():
    from hanajit.errors import UnsupportedError
    with pytest.raises(UnsupportedError, match=r"the list 'st' \(item 1 of its tuples\).*"
                       "different kinds"):
        jit(mixed_kinds, fallback=False)(2)
    with pytest.warns(HanaJitFallbackWarning):
        assert jit(mixed_kinds)(2) == mixed_kinds(2)
