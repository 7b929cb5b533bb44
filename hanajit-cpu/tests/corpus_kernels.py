"""Small kernels of the kinds users write (stencils, statistics, linear algebra,
sorting, simulations), used by test_cpu_corpus.py: which compile, and that none
gives an answer NumPy or CPython would not."""
import math

import numpy as np


def monte_carlo_pi(xs, ys):
    inside = 0
    for i in range(len(xs)):
        if xs[i] ** 2 + ys[i] ** 2 <= 1.0:
            inside += 1
    return 4.0 * inside / len(xs)


def black_scholes(S, K, T, r, v):
    d1 = (np.log(S / K) + (r + 0.5 * v * v) * T) / (v * np.sqrt(T))
    d2 = d1 - v * np.sqrt(T)
    cnd1 = 0.5 * (1 + np.tanh(d1 / np.sqrt(2)))
    cnd2 = 0.5 * (1 + np.tanh(d2 / np.sqrt(2)))
    return S * cnd1 - K * np.exp(-r * T) * cnd2


def nbody_step(pos, vel, mass, dt):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        for j in range(n):
            if i != j:
                d = pos[j] - pos[i]
                r2 = np.sum(d * d) + 1e-3
                acc[i] += mass[j] * d / r2 ** 1.5
    vel += acc * dt
    pos += vel * dt
    return pos, vel


def kmeans_assign(points, centers):
    n, k = points.shape[0], centers.shape[0]
    labels = np.empty(n, np.int64)
    for i in range(n):
        best, bi = np.inf, -1
        for c in range(k):
            d = np.sum((points[i] - centers[c]) ** 2)
            if d < best:
                best, bi = d, c
        labels[i] = bi
    return labels


def kmeans_update(points, labels, k):
    centers = np.zeros((k, points.shape[1]))
    counts = np.zeros(k)
    for i in range(points.shape[0]):
        centers[labels[i]] += points[i]
        counts[labels[i]] += 1
    for c in range(k):
        if counts[c] > 0:
            centers[c] /= counts[c]
    return centers


def laplace(u, iters):
    for _ in range(iters):
        u[1:-1, 1:-1] = 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2])
    return u


def life_step(board):
    n, m = board.shape
    out = np.zeros_like(board)
    for i in range(n):
        for j in range(m):
            s = 0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if di or dj:
                        s += board[(i + di) % n, (j + dj) % m]
            out[i, j] = 1 if s == 3 or (s == 2 and board[i, j]) else 0
    return out


def pairwise_norm(X):
    n = X.shape[0]
    D = np.empty((n, n))
    for i in range(n):
        D[i] = np.linalg.norm(X - X[i], axis=1)
    return D


def histogram2d(x, y, bins):
    H = np.zeros((bins, bins), np.int64)
    for i in range(len(x)):
        a = int(x[i] * bins)
        b = int(y[i] * bins)
        if 0 <= a < bins and 0 <= b < bins:
            H[a, b] += 1
    return H


def rolling_mean(x, w):
    out = np.empty(len(x) - w + 1)
    s = np.sum(x[:w])
    out[0] = s / w
    for i in range(w, len(x)):
        s += x[i] - x[i - w]
        out[i - w + 1] = s / w
    return out


def ewma(x, alpha):
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


def trapz(y, x):
    s = 0.0
    for i in range(1, len(x)):
        s += (x[i] - x[i - 1]) * (y[i] + y[i - 1]) / 2
    return s


def logsumexp(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


def softmax2d(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def conv1d(x, k):
    n, m = len(x), len(k)
    out = np.zeros(n - m + 1)
    for i in range(n - m + 1):
        for j in range(m):
            out[i] += x[i + j] * k[j]
    return out


def matmul_loop(a, b):
    n, m, p = a.shape[0], a.shape[1], b.shape[1]
    c = np.zeros((n, p))
    for i in range(n):
        for k in range(m):
            aik = a[i, k]
            for j in range(p):
                c[i, j] += aik * b[k, j]
    return c


def bubble_sort(a):
    a = a.copy()
    n = len(a)
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


def primes_below(n):
    sieve = np.ones(n, dtype=np.bool_)
    sieve[:2] = False
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = False
    return np.nonzero(sieve)[0]


def mandel(w, h, it):
    out = np.zeros((h, w), np.int32)
    for y in range(h):
        for x in range(w):
            c = complex(-2 + 3 * x / w, -1.5 + 3 * y / h)
            z = 0j
            n = 0
            while abs(z) < 2 and n < it:
                z = z * z + c
                n += 1
            out[y, x] = n
    return out


def gradient_descent(X, y, lr, steps):
    w = np.zeros(X.shape[1])
    for _ in range(steps):
        grad = X.T @ (X @ w - y) / len(y)
        w -= lr * grad
    return w


def lstsq_normal(X, y):
    return np.linalg.solve(X.T @ X, X.T @ y)


def covariance(X):
    Xc = X - X.mean(axis=0)
    return Xc.T @ Xc / (X.shape[0] - 1)


def cumulative_max(x):
    out = np.empty_like(x)
    m = -np.inf
    for i in range(len(x)):
        m = max(m, x[i])
        out[i] = m
    return out


def argsort_topk(x, k):
    idx = np.argsort(x)[::-1][:k]
    return idx, x[idx]


def unique_counts(labels):
    u = np.unique(labels)
    counts = np.zeros(len(u), np.int64)
    for i in range(len(u)):
        counts[i] = np.sum(labels == u[i])
    return u, counts


def where_clip(x, lo, hi):
    return np.where(x < lo, lo, np.where(x > hi, hi, x))


def digitize_loop(x, edges):
    return np.searchsorted(edges, x, side="right")


def running_var(x):
    n = 0
    mean = 0.0
    m2 = 0.0
    for v in x:
        n += 1
        d = v - mean
        mean += d / n
        m2 += d * (v - mean)
    return m2 / (n - 1)


def polyval_horner(coef, x):
    out = np.zeros_like(x)
    for c in coef:
        out = out * x + c
    return out


def outer_dist(a, b):
    return np.sqrt((a[:, None] - b[None, :]) ** 2)


def random_walk(steps):
    pos = np.zeros(len(steps) + 1)
    for i in range(len(steps)):
        pos[i + 1] = pos[i] + (1.0 if steps[i] > 0.5 else -1.0)
    return pos


def string_free_stats(x):
    return np.mean(x), np.std(x), np.median(x), np.percentile(x, 90), np.var(x, ddof=1)


def triu_sum(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(i, m.shape[1]):
            s += m[i, j]
    return s


def eye_kron(n):
    return np.kron(np.eye(n), np.ones((2, 2)))


def meshgrid_eval(n):
    x = np.linspace(-1, 1, n)
    X, Y = np.meshgrid(x, x)
    return np.exp(-(X ** 2 + Y ** 2))


def cross_products(a, b):
    return np.cross(a, b)


def convolve_np(x, k):
    return np.convolve(x, k, mode="valid")


def einsum_trace(a):
    return np.einsum("ii->", a)


def tri_lower(n):
    return np.tril(np.ones((n, n)))


def fill_diag(a, v):
    np.fill_diagonal(a, v)
    return a


def arange_reshape(n):
    return np.arange(n * n).reshape(n, n).T.copy()


def bincount_weights(idx, w):
    return np.bincount(idx, weights=w)


def cumsum_axis(m):
    return np.cumsum(m, axis=1)


def allclose_check(a, b):
    return np.allclose(a, b)


def interp_grid(x, xp, fp):
    return np.interp(x, xp, fp)


def any_nan(x):
    return np.isnan(x).any()


def hypot_loop(x, y):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = math.hypot(x[i], y[i])
    return out


def collect_positive(x):
    out = []
    for v in x:
        if v > 0.5:
            out.append(v)
    return np.array(out)


def argmax_rows(m):
    return np.argmax(m, axis=1)


def normalize_rows(m):
    return m / np.linalg.norm(m, axis=1)[:, None]


def clip_inplace(x, lo, hi):
    np.clip(x, lo, hi, out=x)
    return x


def sort_rows(m):
    return np.sort(m, axis=1)


def sort_cols(m):
    return np.sort(m, axis=0)


def nan_to_num(x):
    return np.nan_to_num(x)


def cumsum_2d_flat(m):
    return m.cumsum()


def astype_round(x):
    return np.round(x, 2).astype(np.float32)


def stack_cols(a, b):
    return np.stack((a, b), axis=1)


def reshape_sum(x):
    return x.reshape(-1, 4).sum(axis=1)


def boolean_count(x):
    return np.count_nonzero(x > 0.5), (x > 0.5).sum()


def tuple_return(x):
    return x.min(), x.max(), x.argmin(), x.argmax()


def enumerate_zip(a, b):
    s = 0.0
    for i, (u, v) in enumerate(zip(a, b)):
        s += i * u * v
    return s


def while_newton(x0):
    x = x0
    while abs(x * x - 2.0) > 1e-12:
        x = x - (x * x - 2.0) / (2 * x)
    return x


def nested_func(x):
    def sq(v):
        return v * v
    s = 0.0
    for v in x:
        s += sq(v)
    return s


def ravel_multi(m):
    return m.ravel()[::2].copy()


def diff2(x):
    return np.diff(x, n=2)


def roll_sum(x):
    return x + np.roll(x, 1)


def outer_prod(a, b):
    return np.outer(a, b)


def isin_like(a, b):
    out = np.zeros(len(a), np.bool_)
    for i in range(len(a)):
        for j in range(len(b)):
            if a[i] == b[j]:
                out[i] = True
                break
    return out


def tile_repeat(x):
    return np.tile(x, 2), np.repeat(x, 2)


def max_drawdown(p):
    peak = p[0]
    mdd = 0.0
    for v in p:
        peak = max(peak, v)
        dd = (peak - v) / peak
        mdd = max(mdd, dd)
    return mdd


def sum_of_squares_int(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def gcd_loop(a, b):
    while b:
        a, b = b, a % b
    return a


def np_where_idx(x):
    return np.where(x > 0.5)[0]


def argpartition_k(x, k):
    return np.sort(np.partition(x, k)[:k])


def dot_1d(a, b):
    return np.dot(a, b)


def vdot_like(a, b):
    return np.vdot(a, b)


def linspace_trapz(n):
    x = np.linspace(0, 1, n)
    return np.trapezoid(x ** 2, x)


def min_max_scale(x):
    return (x - x.min()) / (x.max() - x.min())


def sign_abs(x):
    return np.sign(x) * np.abs(x)


def floor_div_mod(a, b):
    return a // b, a % b


def complex_abs(z):
    return np.abs(z), np.angle(z)


def prod_axis(m):
    return np.prod(m, axis=0)


def all_any_axis(m):
    return np.all(m > 0.1, axis=1), np.any(m > 0.9, axis=0)


def mean_std_axis(m):
    return m.mean(axis=0), m.std(axis=1)
