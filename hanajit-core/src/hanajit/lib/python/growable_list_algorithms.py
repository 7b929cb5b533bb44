"""The operations of a growable list (``frontend/growable_lists.py``) in Python
source compiled by hanajit (``growable_lists.py`` types the calls): the list is
a buffer array ``buf`` with spare room and a count ``n`` of the items in it.
Errors are CPython's list errors, with its messages."""
import numpy as np

from .helpers import Deopt


def grown(buf, n):
    """``buf`` with room for one more item: twice as long (and at least 8) when
    full, its first ``n`` items moved over.  (``out.append(x)`` calls it only
    when full and stores ``x`` itself: a call per item would cost more than the
    store.)"""
    if n < len(buf):
        return buf
    new = np.empty(2 * n + 8, buf.dtype)
    for j in range(n):
        new[j] = buf[j]
    return new


# (compiled once per process and called -- by append only when the buffer is full
# -- not copied into every append and insert: 300 lines of IR each, 26 in one test
# kernel)
grown.hj_share = True


def insert(buf, n, i, x):
    """``out.insert(i, x)``: ``i`` clipped to the list as CPython does."""
    if i < 0:
        i += n
        if i < 0:
            i = 0
    elif i > n:
        i = n
    buf = grown(buf, n)
    j = n
    while j > i:
        buf[j] = buf[j - 1]
        j -= 1
    buf[i] = x
    return buf


def item_index(n, i):
    """``out[i]``: the position of item ``i`` (negative from the end)."""
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("list index out of range")
    return i


def store_index(n, i):
    """``out[i] = v``: the position written."""
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("list assignment index out of range")
    return i


def pop_index(n, i):
    """``out.pop(i)``: the position of the item taken."""
    if n == 0:
        raise IndexError("pop from empty list")
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("pop index out of range")
    return i


def remove_at(buf, n, i):
    """Close the gap at ``i`` (the count becomes ``n - 1``)."""
    for j in range(i, n - 1):
        buf[j] = buf[j + 1]
    return 0


def repeat_count(k):
    """``k`` of ``out * k``: no items for a count below 1."""
    return k if k > 0 else 0


def reverse(buf, n):
    i = 0
    j = n - 1
    while i < j:
        t = buf[i]
        buf[i] = buf[j]
        buf[j] = t
        i += 1
        j -= 1
    return 0


def _no_nan(x):
    if x != x:
        raise Deopt("a NaN looked up in a list (a list compares items by identity "
                    "first, which compiled code does not have)")


def find(buf, n, x):
    """The first position holding ``x``, or -1."""
    _no_nan(x)
    for j in range(n):
        if buf[j] == x:
            return j
    return -1


def index(buf, n, x):
    """``out.index(x)`` of a Python int ``x``: CPython's message holds its repr."""
    j = find(buf, n, x)
    if j < 0:
        raise ValueError(f"{x} is not in list")
    return j


def index_other(buf, n, x):
    """``out.index(x)`` of any other ``x`` (a float, a NumPy scalar), whose repr
    compiled code does not write: a miss re-runs the function in the interpreter."""
    j = find(buf, n, x)
    if j < 0:
        raise Deopt("list.index() of a value not in the list, other than a Python int")
    return j


def _bound(i, n):
    """A start or stop of ``list.index`` as CPython clamps it to ``0..n``."""
    if i < 0:
        i += n
        if i < 0:
            i = 0
    return min(i, n)


def find_between(buf, n, x, start, stop):
    """The first position in ``start..stop`` (CPython's clamping) holding ``x``,
    or -1."""
    _no_nan(x)
    for j in range(_bound(start, n), _bound(stop, n)):
        if buf[j] == x:
            return j
    return -1


def index_between(buf, n, x, start, stop):
    """``out.index(x, start, stop)`` of a Python int ``x``."""
    j = find_between(buf, n, x, start, stop)
    if j < 0:
        raise ValueError(f"{x} is not in list")
    return j


def index_other_between(buf, n, x, start, stop):
    """``out.index(x, start, stop)`` of any other ``x`` (see :func:`index_other`)."""
    j = find_between(buf, n, x, start, stop)
    if j < 0:
        raise Deopt("list.index() of a value not in the list, other than a Python int")
    return j


def remove_index(buf, n, x):
    """``out.remove(x)``: the position of the first item equal to ``x``."""
    j = find(buf, n, x)
    if j < 0:
        raise ValueError("list.remove(x): x not in list")
    return j


def contains(buf, n, x):
    """``x in out``."""
    return find(buf, n, x) >= 0


def count(buf, n, x):
    """``out.count(x)``."""
    _no_nan(x)
    c = 0
    for j in range(n):
        if buf[j] == x:
            c += 1
    return c


def to_array(buf, n):
    """``np.array(out)``: a new array of the items."""
    return buf[:n].copy()


def to_array_float(buf, n):
    """``np.array(out)`` of items that are not float64: no items is NumPy's float64
    array of an empty list, whose type compiled code fixed otherwise."""
    if n == 0:
        raise Deopt("np.array() of an empty list is float64 whatever its items")
    return buf[:n].copy()


_BIG = 9007199254740992.0           # 2**53: the ints a float64 holds exactly


def compare(a, na, b, nb, op, check, numpy_items):
    """``a OP b`` of two lists as CPython compares them: ``==``/``!=`` of lists of
    other lengths without looking at the items; else the first position whose
    items differ decides (``op``: 0 ``==``, 1 ``!=``, 2 ``<``, 3 ``<=``, 4 ``>``,
    5 ``>=``), or the lengths when there is none.  A NaN met re-runs the function
    in the interpreter (CPython compares items by identity first), and so does an
    int beyond 2**53 compared with a float (``check``: NumPy would round it), and
    an ordering decided by two items of which one is a NumPy scalar
    (``numpy_items``: CPython's result is then a NumPy bool)."""
    if na != nb and op <= 1:
        return op == 1
    i = 0
    while i < na and i < nb:
        x = a[i]
        y = b[i]
        if x != x or y != y:
            raise Deopt("a NaN in a list comparison (a list compares items by identity "
                        "first, which compiled code does not have)")
        if check and (abs(x) >= _BIG or abs(y) >= _BIG):
            raise Deopt("an int beyond 2**53 compared with a float in a list comparison")
        if not x == y:
            break
        i += 1
    if i >= na or i >= nb:
        x2 = na
        y2 = nb
        if op == 0:
            return x2 == y2
        if op == 1:
            return x2 != y2
        if op == 2:
            return x2 < y2
        if op == 3:
            return x2 <= y2
        if op == 4:
            return x2 > y2
        return x2 >= y2
    if op <= 1:
        return op == 1
    if numpy_items:
        raise Deopt("an ordering of lists decided by NumPy scalar items (a NumPy bool)")
    if op == 2:
        return a[i] < b[i]
    if op == 3:
        return a[i] <= b[i]
    if op == 4:
        return a[i] > b[i]
    return a[i] >= b[i]
