"""A pure-Python model of CPython's set table (Objects/setobject.c) for ints and
floats -- the algorithm lib/python/set_algorithms.py compiles -- checked against
real sets: test_cpu_sets.py (hypothesis), and as a script under any Python::

    python set_table_model.py 300      # 900 random add/discard/pop/clear runs

It agrees with CPython 3.10.13, 3.11.7, 3.12.1 and 3.13.0 (iteration order after
every step, pop()'s results, hashes).  Found by experiment: an element is added
in the LAST dummy met before the empty slot ending its search, and clear() keeps
pop()'s finger."""
import math
import random
import sys

P = (1 << 61) - 1
M64 = (1 << 64) - 1


def h_int(x):
    a = abs(x) % P
    h = -a if x < 0 else a
    return -2 if h == -1 else h


def h_float(v):
    if math.isinf(v):
        return 314159 if v > 0 else -314159
    if v == 0.0:
        return 0
    m, e = math.frexp(abs(v))          # |v| = m * 2**e, 0.5 <= m < 1
    n = int(m * (1 << 53))             # exact 53-bit mantissa
    e -= 53
    r = e % 61
    x = ((n << r) & P) | (n >> (61 - r))
    # (n < 2**53 < P; a rotation within 61 bits is multiplying by 2**e mod P)
    if x >= P:
        x -= P
    x = -x if v < 0 else x
    return -2 if x == -1 else x


def h(x):
    return h_float(x) if isinstance(x, float) else h_int(int(x))


class Model:
    def __init__(self):
        self.finger = 0
        self._empty()

    def _empty(self):
        self.mask = 7
        self.keys = [None] * 8      # None empty, DUMMY, or (key,)
        self.hashes = [0] * 8
        self.fill = 0
        self.used = 0

    def _probe(self, hh):
        """slots in probe order (start slots with their linear runs)."""
        mask = self.mask
        perturb = hh & M64
        i = hh & mask
        while True:
            probes = 9 if i + 9 <= mask else 0
            j = i
            for _ in range(probes + 1):
                yield j
                j += 1
            perturb >>= 5
            i = (i * 5 + 1 + perturb) & mask

    def lookup(self, key):
        hh = h(key)
        for j in self._probe(hh):
            k = self.keys[j]
            if k is None:
                return -1
            if k is not DUMMY and self.hashes[j] == hh and k[0] == key:
                return j

    def add(self, key):
        hh = h(key)
        free = -1
        for j in self._probe(hh):
            k = self.keys[j]
            if k is None:
                break
            if k is DUMMY:
                free = j            # the last dummy on the way (CPython 3.10-3.13)
            elif self.hashes[j] == hh and k[0] == key:
                return
        if free >= 0:
            self.used += 1
            self.keys[free] = (key,)
            self.hashes[free] = hh
            return
        self.fill += 1
        self.used += 1
        self.keys[j] = (key,)
        self.hashes[j] = hh
        if self.fill * 5 >= self.mask * 3:
            self.resize(self.used * 2 if self.used > 50000 else self.used * 4)

    def resize(self, minused):
        n = 8
        while n <= minused:
            n <<= 1
        old = [(k, hh) for k, hh in zip(self.keys, self.hashes)
               if k is not None and k is not DUMMY]
        self.mask = n - 1
        self.keys = [None] * n
        self.hashes = [0] * n
        self.fill = self.used
        for k, hh in old:
            for j in self._probe(hh):
                if self.keys[j] is None:
                    break
            self.keys[j] = k
            self.hashes[j] = hh

    def discard(self, key):
        j = self.lookup(key)
        if j < 0:
            return False
        self.keys[j] = DUMMY
        self.hashes[j] = -1
        self.used -= 1
        return True

    def pop(self):
        if self.used == 0:
            raise KeyError("pop from an empty set")
        j = self.finger & self.mask
        while self.keys[j] is None or self.keys[j] is DUMMY:
            j += 1
            if j > self.mask:
                j = 0
        k = self.keys[j][0]
        self.keys[j] = DUMMY
        self.hashes[j] = -1
        self.used -= 1
        self.finger = j + 1
        return k

    def clear(self):
        self._empty()

    def items(self):
        return [k[0] for k in self.keys if k is not None and k is not DUMMY]


DUMMY = object()


# ---------------------------------------------------------------- operators
# (set_merge, set_intersection, set_difference ... of Objects/setobject.c on
# Models; ``a is b`` where the Python code names the same set twice)

def _add_entry(m, key, hh):
    m.add(key)


def _entries(m):
    return [(k[0], hh) for k, hh in zip(m.keys, m.hashes) if k is not None and k is not DUMMY]


def _resize_keep(m, minused):
    m.resize(minused)


def merge(so, other):
    """set_merge(so, other)."""
    if other is so or other.used == 0:
        return
    if (so.fill + other.used) * 5 >= so.mask * 3:
        so.resize((so.used + other.used) * 2)
    if so.fill == 0 and so.mask == other.mask and other.fill == other.used:
        so.keys = list(other.keys)
        so.hashes = list(other.hashes)
        so.fill, so.used = other.fill, other.used
        return
    if so.fill == 0:
        so.fill = so.used = other.used
        for k, hh in _entries(other):
            for j in so._probe(hh):
                if so.keys[j] is None:
                    break
            so.keys[j] = (k,)
            so.hashes[j] = hh
        return
    for k, _ in _entries(other):
        so.add(k)


def copy(so):
    m = Model()
    merge(m, so)
    return m


def intersection(so, other):
    if other is so:
        return copy(so)
    r = Model()
    if other.used > so.used:
        so, other = other, so
    for k, _ in _entries(other):
        if so.lookup(k) >= 0:
            r.add(k)
    return r


def intersection_multi(so, *others):
    r = so
    for o in others:
        r = intersection(r, o)
    return copy(so) if r is so else r


def swap_bodies(a, b):
    for f in ("fill", "used", "mask", "keys", "hashes"):
        x = getattr(a, f)
        setattr(a, f, getattr(b, f))
        setattr(b, f, x)


def intersection_update(so, *others):
    swap_bodies(so, intersection_multi(so, *others))


def difference_update(so, other):
    if other is so:
        so.clear()
        return
    if (other.used >> 3) > so.used:
        other = intersection(so, other)
    for k, _ in _entries(other):
        so.discard(k)
    if so.fill - so.used <= so.mask // 4:
        return
    so.resize(so.used * 2 if so.used > 50000 else so.used * 4)


def difference(so, other):
    if (so.used >> 2) > other.used:
        r = copy(so)
        difference_update(r, other)
        return r
    r = Model()
    for k, _ in _entries(so):
        if other.lookup(k) < 0:
            r.add(k)
    return r


def difference_multi(so, *others):
    if not others:
        return copy(so)
    r = difference(so, others[0])
    for o in others[1:]:
        difference_update(r, o)
    return r


def symmetric_difference_update(so, other):
    if other is so:
        so.clear()
        return
    for k, _ in _entries(other):
        if not so.discard(k):
            so.add(k)


def symmetric_difference(so, other):
    r = copy(other)
    symmetric_difference_update(r, so)
    return r


def union(so, *others):
    r = copy(so)
    for o in others:
        if o is not so:
            merge(r, o)
    return r



def same(a, b):
    return len(a) == len(b) and all(
        type(x) is type(y) and (x == y and math.copysign(1, x) == math.copysign(1, y)
                                if isinstance(x, float) else x == y) for x, y in zip(a, b))


def rand_value(rng, mode):
    r = rng.random()
    if mode == "int":
        if r < 0.6:
            return rng.randint(-40, 200)
        if r < 0.8:
            return rng.randint(-2**63, 2**63 - 1)
        return rng.choice([-1, -2, P, P - 1, P + 1, -P, 2**61, -2**63, 2**63 - 1, 0])
    if mode == "float":
        if r < 0.3:
            return float(rng.randint(-40, 200))
        if r < 0.6:
            return rng.uniform(-1e3, 1e3)
        if r < 0.7:
            return rng.choice([0.0, -0.0, math.inf, -math.inf, 1e300, -1e-300, 5e-324,
                               2.0**61, 2.0**63, -2.0**63, 0.5, 1.5, 2.0**-30])
        return rng.uniform(-1, 1) * 10.0 ** rng.randint(-300, 300)
    # mixed ints and integral floats
    v = rng.randint(-30, 100)
    return float(v) if r < 0.5 else v


def run(seed, mode, n_ops):
    rng = random.Random(seed)
    s, m = set(), Model()
    pool = []
    for _ in range(n_ops):
        r = rng.random()
        if r < 0.6 or not pool:
            v = rand_value(rng, mode)
            pool.append(v)
            s.add(v)
            m.add(v)
        elif r < 0.8:
            v = rng.choice(pool)
            s.discard(v)
            m.discard(v)
        elif r < 0.95:
            if s:
                a, b = s.pop(), m.pop()
                assert same([a], [b]), (seed, a, b)
            else:
                try:
                    m.pop()
                except KeyError as e:
                    assert str(e) == "'pop from an empty set'"
                else:
                    raise AssertionError
        elif r < 0.97:
            s.clear()
            m.clear()
        else:       # lookups
            v = rng.choice(pool)
            assert (v in s) == (m.lookup(v) >= 0)
        assert same(list(s), m.items()), (seed, mode, list(s), m.items())
        assert len(s) == m.used
    return True


def check_hashes(rng):
    for _ in range(20000):
        for mode in ("int", "float"):
            v = rand_value(rng, mode)
            assert hash(v) == h(v), (v, hash(v), h(v))


def _built(rng, mode, n):
    """A set and its Model after ``n`` random adds, discards and pops."""
    s, m = set(), Model()
    pool = []
    for _ in range(n):
        r = rng.random()
        if r < 0.7 or not pool:
            v = rand_value(rng, mode)
            pool.append(v)
            s.add(v)
            m.add(v)
        elif r < 0.9:
            v = rng.choice(pool)
            s.discard(v)
            m.discard(v)
        elif s:
            s.pop()
            m.pop()
    return s, m


def _later(s, m, rng, mode):
    """The same after a few more adds and pops (the tables are the same)."""
    for _ in range(6):
        v = rand_value(rng, mode)
        s.add(v)
        m.add(v)
        assert same(list(s), m.items())
    while s:
        assert same([s.pop()], [m.pop()])


OPERATORS = {
    "|": (lambda a, b: a | b, union), "&": (lambda a, b: a & b, intersection),
    "-": (lambda a, b: a - b, difference),
    "^": (lambda a, b: a ^ b, symmetric_difference),
    "copy": (lambda a, b: a.copy(), lambda a, b: copy(a)),
    "union3": (lambda a, b: a.union(b, a, b), lambda a, b: union(a, b, a, b)),
    "inter3": (lambda a, b: a.intersection(b, a), lambda a, b: intersection_multi(a, b, a)),
    "diff3": (lambda a, b: a.difference(b, b), lambda a, b: difference_multi(a, b, b)),
}


def _inplace(s, t, m, n, op, same_set):
    if same_set:
        t, n = s, m
    if op == "|=":
        s |= t
        merge(m, n)
    elif op == "&=":
        s &= t
        intersection_update(m, n)
    elif op == "-=":
        s -= t
        difference_update(m, n)
    elif op == "^=":
        s ^= t
        symmetric_difference_update(m, n)
    return s


def run_operators(seed):
    rng = random.Random(seed)
    mode = rng.choice(["int", "float", "mixed"])
    a, ma = _built(rng, mode, rng.choice([0, 3, 10, 40, 200]))
    b, mb = _built(rng, mode, rng.choice([0, 3, 10, 40, 200]))
    for name, (real, model) in OPERATORS.items():
        for x, y, mx, my in ((a, b, ma, mb), (b, a, mb, ma), (a, a, ma, ma)):
            r, mr = real(x, y), model(x if False else mx, my)
            assert same(list(r), mr.items()), (seed, name)
            _later(r, mr, random.Random(seed), mode)
    for op in ("|=", "&=", "-=", "^="):
        for same_set in (False, True):
            s, m = _built(random.Random(seed), mode, 30)
            t, n = b.copy(), copy(mb)
            s = _inplace(s, t, m, n, op, same_set)
            assert same(list(s), m.items()), (seed, op)
            _later(s, m, random.Random(seed + 1), mode)
    return True


if __name__ == "__main__":
    rng = random.Random(1)
    check_hashes(rng)
    count = 0
    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 300):
        for mode in ("int", "float", "mixed"):
            run(seed, mode, rng.choice([10, 50, 200, 2000]))
            count += 1
    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 300):
        run_operators(seed)
    print(sys.version.split()[0], "ok", count, "sequences and operators")
