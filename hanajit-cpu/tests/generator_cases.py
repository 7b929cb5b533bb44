"""Generator functions of a module of their own (``test_cpu_generators.py``): their
globals are this module's, not the caller's."""
import numpy

SCALE = 10
OFFSET = 0.25


def scaled_range(n):
    for i in range(n):
        yield numpy.float64(i) * SCALE + OFFSET


def make_multiples(k):
    def multiples(n):
        for i in range(n):
            yield i * k
    return multiples
