"""The operations of a str built at run time (``frontend/str_locals.py``) in
Python source compiled by hanajit (``strings.py`` types the calls that need it):
a str is a 1-D int32 array of its code points, never written once made (every
operation makes a new one, so two names may hold the same array).  Errors are
CPython's, with its messages (``int(s)``: ``string_int.py``)."""
import numpy as np


def concat(a, b):
    """``a + b``."""
    na = len(a)
    out = np.empty(na + len(b), np.int32)
    for i in range(na):
        out[i] = a[i]
    for i in range(len(b)):
        out[na + i] = b[i]
    return out


def repeat(a, k):
    """``a * k`` (no characters for ``k`` below 1)."""
    if k < 1:
        return np.empty(0, np.int32)
    n = len(a)
    out = np.empty(n * k, np.int32)
    for r in range(k):
        for i in range(n):
            out[r * n + i] = a[i]
    return out


def copied(a):
    """A slice ``s[i:j:k]`` (a view of ``s``'s array) as a str of its own."""
    out = np.empty(len(a), np.int32)
    for i in range(len(a)):
        out[i] = a[i]
    return out


def unit(cp):
    """The one-character str of code point ``cp``."""
    out = np.empty(1, np.int32)
    out[0] = cp
    return out


def char_table():
    """The one-character strs of code points 0 to 255, one per row (``char_of``
    gives views of them: never written)."""
    t = np.empty((256, 1), np.int32)
    for i in range(256):
        t[i, 0] = i
    return t


def character_in(table, i):
    """``chr(i)``: a row of ``table`` (``char_table``) below 256."""
    if i < 0 or i >= 0x110000:
        raise ValueError("chr() arg not in range(0x110000)")
    return char_of(table, i)


def char_of(table, cp):
    """The one-character str of ``cp`` (a loop over a str): a row of ``table``
    below 256, else a new one."""
    if cp < 256:
        return table[cp]
    return unit(cp)


def item(a, i):
    """``s[i]`` (negative from the end)."""
    n = len(a)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("string index out of range")
    return unit(a[i])


def character(i):
    """``chr(i)``."""
    if i < 0 or i >= 0x110000:
        raise ValueError("chr() arg not in range(0x110000)")
    return unit(i)


def code_point(a):
    """``ord(c)``."""
    if len(a) != 1:
        raise TypeError(f"ord() expected a character, but string of length {len(a)} found")
    return int(a[0])


def order(a, b):
    """-1, 0 or 1 as ``a`` sorts before, with or after ``b`` (by code points)."""
    na, nb = len(a), len(b)
    m = na if na < nb else nb
    for i in range(m):
        if a[i] != b[i]:
            return -1 if a[i] < b[i] else 1
    if na == nb:
        return 0
    return -1 if na < nb else 1


def equal(a, b):
    """``a == b``."""
    if len(a) != len(b):
        return False
    for i in range(len(a)):
        if a[i] != b[i]:
            return False
    return True


def contains(hay, needle):
    """``needle in hay``."""
    n, m = len(hay), len(needle)
    for i in range(n - m + 1):
        found = True
        for j in range(m):
            if hay[i + j] != needle[j]:
                found = False
                break
        if found:
            return True
    return False


def digits(n, base, upper):
    """The digits of ``abs(n)`` in ``base`` (worked on ``-abs(n)``, which every
    int64 has)."""
    m = n if n < 0 else -n
    buf = np.empty(64, np.int32)
    k = 0
    while True:
        q = (m + base - 1) // base
        d = q * base - m
        buf[k] = 48 + d if d < 10 else (55 if upper else 87) + d
        k += 1
        m = q
        if m == 0:
            break
    out = np.empty(k, np.int32)
    for i in range(k):
        out[i] = buf[k - 1 - i]
    return out


def assemble(sign, prefix, body, fill, align, width):
    """``sign`` (a code point, 0 for none), ``prefix`` (``0x``'s letter, 0 for
    none), then ``body``, padded with ``fill`` to ``width`` as ``align`` says
    (0 ``<``, 1 ``>``, 2 ``^``, 3 ``=``: between the sign and prefix and the
    digits), as ``format`` does."""
    head = (1 if sign != 0 else 0) + (2 if prefix != 0 else 0)
    used = head + len(body)
    pad = width - used if width > used else 0
    left = 0
    if align == 1:
        left = pad
    elif align == 2:
        left = pad // 2
    out = np.empty(used + pad, np.int32)
    k = 0
    if align != 3:
        for r in range(left):
            out[k] = fill
            k += 1
    if sign != 0:
        out[k] = sign
        k += 1
    if prefix != 0:
        out[k] = 48
        out[k + 1] = prefix
        k += 2
    if align == 3:
        for r in range(pad):
            out[k] = fill
            k += 1
    for i in range(len(body)):
        out[k] = body[i]
        k += 1
    while k < used + pad:
        out[k] = fill
        k += 1
    return out


def int_text(n):
    """``str(n)`` of an int: its digits counted, then written from the end into
    one new str (worked on ``-abs(n)``, which every int64 has)."""
    m = n if n < 0 else -n
    k, t = 0, m
    while True:
        t = (t + 9) // 10
        k += 1
        if t == 0:
            break
    size = k + 1 if n < 0 else k
    out = np.empty(size, np.int32)
    pos, t = size - 1, m
    while True:
        q = (t + 9) // 10
        out[pos] = 48 + q * 10 - t
        pos -= 1
        t = q
        if t == 0:
            break
    if n < 0:
        out[0] = 45
    return out


def formatted_int(n, fill, align, sign, prefix, width, base, upper):
    """``format(n, spec)`` of an int (``spec`` parsed: ``frontend/str_locals.py``;
    ``sign`` 0 ``-``, 1 ``+``, 2 a space)."""
    mark = 45 if n < 0 else (43 if sign == 1 else (32 if sign == 2 else 0))
    return assemble(mark, prefix, digits(n, base, upper), fill, align, width)


def bool_text(b):
    """``str(b)`` of a bool."""
    if b:
        out = np.empty(4, np.int32)
        out[0], out[1], out[2], out[3] = 84, 114, 117, 101
        return out
    out = np.empty(5, np.int32)
    out[0], out[1], out[2], out[3], out[4] = 70, 97, 108, 115, 101
    return out


def grown(buf, n, more):
    """``buf`` (``n`` code points used) with room for ``more`` more."""
    if n + more <= len(buf):
        return buf
    size = 2 * len(buf) + 16
    if size < n + more:
        size = n + more
    new = np.empty(size, np.int32)
    for j in range(n):
        new[j] = buf[j]
    return new


# (compiled once per process and called where a str built by ``+=`` runs out of
# room, not copied into every ``+=``)
grown.hj_share = True


def put(buf, n, piece):
    """``piece`` written after the ``n`` code points of ``buf`` (room made
    first: ``grown``, called only then); the buffer, perhaps a new one."""
    if n + len(piece) > len(buf):
        buf = grown(buf, n, len(piece))
    for j in range(len(piece)):
        buf[n + j] = piece[j]
    return buf


def taken(buf, n):
    """The str of the first ``n`` code points of ``buf``."""
    out = np.empty(n, np.int32)
    for j in range(n):
        out[j] = buf[j]
    return out


def picked(codes, starts, i):
    """``names[i]`` of a list of str constants (``codes`` all their code points,
    ``starts`` where each begins, and the end)."""
    k = len(starts) - 1
    if i < 0:
        i += k
    if i < 0 or i >= k:
        raise IndexError("list index out of range")
    out = np.empty(starts[i + 1] - starts[i], np.int32)
    for j in range(len(out)):
        out[j] = codes[starts[i] + j]
    return out
