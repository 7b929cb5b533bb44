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


if __name__ == "__main__":
    rng = random.Random(1)
    check_hashes(rng)
    count = 0
    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 300):
        for mode in ("int", "float", "mixed"):
            run(seed, mode, rng.choice([10, 50, 200, 2000]))
            count += 1
    print(sys.version.split()[0], "ok", count, "sequences")
