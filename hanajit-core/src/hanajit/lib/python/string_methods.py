"""The ``str`` methods of a str built at run time that need no Unicode table
(``frontend/str_methods.py`` calls them; ``string_unicode.py`` has the others),
in Python source compiled by hanajit: CPython's ``unicodeobject.c`` algorithms,
its index adjustment of ``start``/``end`` (``ADJUST_INDICES``), its results for
empty strs and its errors.  A str is a 1-D int32 array of code points, never
written once made -- so a piece of a split or a stripped str is a view of the
str's array, made without copying; ``end`` None is passed as :data:`NO_END`."""
import numpy as np

NO_END = 9223372036854775807


def _adjusted(n, start, end):
    """``start``, ``end`` clipped to a str of ``n`` characters, as CPython's
    ``ADJUST_INDICES`` (a ``start`` past the end is left there)."""
    if end > n:
        end = n
    elif end < 0:
        end += n
        if end < 0:
            end = 0
    if start < 0:
        start += n
        if start < 0:
            start = 0
    return start, end


def _at(a, i, sub):
    """Does ``sub`` occur in ``a`` at ``i``?"""
    for j in range(len(sub)):
        if a[i + j] != sub[j]:
            return False
    return True


def find(a, sub, start, end):
    """``a.find(sub, start, end)``."""
    start, end = _adjusted(len(a), start, end)
    m = len(sub)
    if end - start < m:
        return -1
    for i in range(start, end - m + 1):
        if _at(a, i, sub):
            return i
    return -1


def rfind(a, sub, start, end):
    """``a.rfind(sub, start, end)``."""
    start, end = _adjusted(len(a), start, end)
    m = len(sub)
    if end - start < m:
        return -1
    for i in range(end - m, start - 1, -1):
        if _at(a, i, sub):
            return i
    return -1


def index(a, sub, start, end):
    """``a.index(sub, start, end)``."""
    i = find(a, sub, start, end)
    if i < 0:
        raise ValueError("substring not found")
    return i


def rindex(a, sub, start, end):
    """``a.rindex(sub, start, end)``."""
    i = rfind(a, sub, start, end)
    if i < 0:
        raise ValueError("substring not found")
    return i


def count(a, sub, start, end):
    """``a.count(sub, start, end)``: occurrences that do not overlap."""
    start, end = _adjusted(len(a), start, end)
    m = len(sub)
    if end - start < m:
        return 0
    if m == 0:
        return end - start + 1
    k, i = 0, start
    while i <= end - m:
        if _at(a, i, sub):
            k += 1
            i += m
        else:
            i += 1
    return k


def starts(a, sub, start, end):
    """``a.startswith(sub, start, end)`` of one str ``sub``."""
    start, end = _adjusted(len(a), start, end)
    if end - len(sub) < start:
        return False
    return _at(a, start, sub)


def ends(a, sub, start, end):
    """``a.endswith(sub, start, end)`` of one str ``sub``."""
    start, end = _adjusted(len(a), start, end)
    if end - len(sub) < start:
        return False
    return _at(a, end - len(sub), sub)


def replace(a, old, new, limit):
    """``a.replace(old, new, limit)`` (``limit`` below 0: every occurrence; an
    empty ``old`` matches before each character and at the end)."""
    n, m = len(a), len(old)
    if limit < 0:
        limit = NO_END
    hits = count(a, old, 0, NO_END)
    if hits > limit:
        hits = limit
    out = np.empty(n + hits * (len(new) - m), np.int32)
    i, k, done = 0, 0, 0
    while i <= n:
        if done < hits and (m == 0 or i <= n - m and _at(a, i, old)):
            for j in range(len(new)):
                out[k + j] = new[j]
            k += len(new)
            done += 1
            if m > 0:
                i += m
                continue
        if i < n:
            out[k] = a[i]
            k += 1
        i += 1
    return out


def padded(a, width, fill, left):
    """``a`` padded to ``width`` with ``fill`` (a one-character str), ``left``
    characters of it before ``a`` (``ljust``, ``rjust``, ``center``)."""
    n = len(a)
    if width <= n:
        return a
    out = np.empty(width, np.int32)
    for j in range(left):
        out[j] = fill[0]
    for j in range(n):
        out[left + j] = a[j]
    for j in range(left + n, width):
        out[j] = fill[0]
    return out


def _fill(fill):
    if len(fill) != 1:
        raise TypeError("The fill character must be exactly one character long")


def ljust(a, width, fill):
    _fill(fill)
    return padded(a, width, fill, 0)


def rjust(a, width, fill):
    _fill(fill)
    return padded(a, width, fill, width - len(a) if width > len(a) else 0)


def center(a, width, fill):
    """``a.center(width, fill)``: CPython puts the odd character on the right
    unless both the padding and ``width`` are odd."""
    _fill(fill)
    margin = width - len(a)
    if margin <= 0:
        return a
    return padded(a, width, fill, margin // 2 + (margin & width & 1))


def zfill(a, width):
    """``a.zfill(width)``: zeros after a leading sign."""
    n = len(a)
    if width <= n:
        return a
    out = np.empty(width, np.int32)
    fill = width - n
    for j in range(fill):
        out[j] = 48
    for j in range(n):
        out[fill + j] = a[j]
    if n > 0 and (a[0] == 43 or a[0] == 45):
        out[0] = a[0]
        out[fill] = 48
    return out


def _within(c, chars):
    for j in range(len(chars)):
        if chars[j] == c:
            return True
    return False


def strip_chars(a, chars, sides):
    """``a.strip(chars)`` (``sides`` 3), ``lstrip`` (1), ``rstrip`` (2)."""
    i, j = 0, len(a)
    if sides & 1:
        while i < j and _within(a[i], chars):
            i += 1
    if sides & 2:
        while j > i and _within(a[j - 1], chars):
            j -= 1
    return a[i:j]


def split_at(a, sep, limit):
    """The bounds of the pieces of ``a.split(sep, limit)``: a start and an end
    per piece (``ValueError`` for an empty ``sep``)."""
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    if limit < 0:
        limit = NO_END
    hits = count(a, sep, 0, NO_END)
    if hits > limit:
        hits = limit
    bounds = np.empty(2 * hits + 2, np.int64)
    i, k, begin = 0, 0, 0
    while k < hits:
        if _at(a, i, sep):
            bounds[2 * k] = begin
            bounds[2 * k + 1] = i
            k += 1
            i += m
            begin = i
        else:
            i += 1
    bounds[2 * k] = begin
    bounds[2 * k + 1] = len(a)
    return bounds


def piece(a, bounds, i):
    """Piece ``i`` of a split (negative from the end): a view of ``a``."""
    k = len(bounds) // 2
    if i < 0:
        i += k
    if i < 0 or i >= k:
        raise IndexError("list index out of range")
    return a[bounds[2 * i]:bounds[2 * i + 1]]


def split_at_count(a, sep, limit):
    """``len(a.split(sep, limit))``."""
    return len(split_at(a, sep, limit)) // 2


def split_at_piece(a, sep, limit, i):
    """``a.split(sep, limit)[i]``."""
    return piece(a, split_at(a, sep, limit), i)


def rsplit_at(a, sep, limit):
    """The bounds of the pieces of ``a.rsplit(sep, limit)``: the separators found
    from the right (CPython's ``rsplit``), the pieces in order."""
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    if limit < 0:
        limit = NO_END
    hits, i = 0, len(a) - m
    while i >= 0 and hits < limit:
        if _at(a, i, sep):
            hits += 1
            i -= m
        else:
            i -= 1
    bounds = np.empty(2 * hits + 2, np.int64)
    k, end, i = hits, len(a), len(a) - m
    while k > 0:
        if _at(a, i, sep):
            bounds[2 * k] = i + m
            bounds[2 * k + 1] = end
            k -= 1
            end = i
            i -= m
        else:
            i -= 1
    bounds[0] = 0
    bounds[1] = end
    return bounds


def rsplit_at_count(a, sep, limit):
    return len(rsplit_at(a, sep, limit)) // 2


def rsplit_at_piece(a, sep, limit, i):
    return piece(a, rsplit_at(a, sep, limit), i)


def _parted(start, end, n):
    """The bounds of the three pieces of a partition around ``start:end``."""
    bounds = np.empty(6, np.int64)
    bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5] = \
        0, start, start, end, end, n
    return bounds


def partition(a, sep):
    """The bounds of ``a.partition(sep)``: before, the separator, after (not
    found: ``a``, '' and '')."""
    if len(sep) == 0:
        raise ValueError("empty separator")
    i = find(a, sep, 0, NO_END)
    if i < 0:
        return _parted(len(a), len(a), len(a))
    return _parted(i, i + len(sep), len(a))


def rpartition(a, sep):
    """The bounds of ``a.rpartition(sep)`` (not found: '', '' and ``a``)."""
    if len(sep) == 0:
        raise ValueError("empty separator")
    i = rfind(a, sep, 0, NO_END)
    if i < 0:
        return _parted(0, 0, len(a))
    return _parted(i, i + len(sep), len(a))


def partition_count(a, sep):
    return len(partition(a, sep)) // 2


def partition_piece(a, sep, i):
    return piece(a, partition(a, sep), i)


def rpartition_count(a, sep):
    return len(rpartition(a, sep)) // 2


def rpartition_piece(a, sep, i):
    return piece(a, rpartition(a, sep), i)


def line_break(c):
    """Does ``c`` end a line (CPython's ``Py_UNICODE_ISLINEBREAK``)?"""
    return 10 <= c <= 13 or 28 <= c <= 30 or c == 0x85 or c == 0x2028 or c == 0x2029


def split_lines(a, keep):
    """The bounds of the lines of ``a.splitlines(keep)`` ("\\r\\n" one break)."""
    n = len(a)
    bounds = np.empty(2 * n, np.int64)
    i, j, k = 0, 0, 0
    while i < n:
        while i < n and not line_break(a[i]):
            i += 1
        eol = i
        if i < n:
            if a[i] == 13 and i + 1 < n and a[i + 1] == 10:
                i += 2
            else:
                i += 1
            if keep:
                eol = i
        bounds[2 * k] = j
        bounds[2 * k + 1] = eol
        k += 1
        j = i
    return first_bounds(bounds, k)


def first_bounds(bounds, k):
    """The bounds of the first ``k`` pieces, in an array of their own."""
    out = np.empty(2 * k, np.int64)
    for m in range(2 * k):
        out[m] = bounds[m]
    return out


def split_lines_count(a, keep):
    return len(split_lines(a, keep)) // 2


def split_lines_piece(a, keep, i):
    return piece(a, split_lines(a, keep), i)


def join_pieces(sep, a, bounds):
    """``sep.join(parts)`` of the pieces of a split of ``a``."""
    k = len(bounds) // 2
    size = 0
    for i in range(k):
        size += bounds[2 * i + 1] - bounds[2 * i]
    if k > 1:
        size += (k - 1) * len(sep)
    out = np.empty(size, np.int32)
    w = 0
    for i in range(k):
        if i > 0:
            for j in range(len(sep)):
                out[w] = sep[j]
                w += 1
        for j in range(bounds[2 * i], bounds[2 * i + 1]):
            out[w] = a[j]
            w += 1
    return out
