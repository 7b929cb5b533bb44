"""``np.packbits`` and ``np.unpackbits`` of the flattened array in Python source
compiled by hanajit (``packbits`` types the calls): NumPy's C loops
(``numpy/_core/src/multiarray/compiled_base.c``) in effect -- each element's
truth is one bit, eight to a byte from the most significant bit (``big``) or
the least (``little``), the last byte padded with zeros."""
import numpy as np


def packbits_flat(a, little):
    flat = a.ravel()
    n = len(flat)
    out = np.zeros((n + 7) // 8, np.uint8)
    for j in range(len(out)):
        byte = 0
        for b in range(8):
            i = j * 8 + b
            if i < n and flat[i] != 0:
                byte |= (1 << b) if little else (128 >> b)
        out[j] = byte
    return out


def unpackbits_flat(a, little):
    flat = a.ravel()
    n = len(flat)
    out = np.empty(n * 8, np.uint8)
    for j in range(n):
        byte = int(flat[j])
        for b in range(8):
            out[j * 8 + b] = (byte >> b) & 1 if little else (byte >> (7 - b)) & 1
    return out
