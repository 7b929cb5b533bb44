"""``np.piecewise``'s call of one function, in Python source compiled by hanajit
(``frontend/piecewise_calls.py`` emits it): NumPy's loop body for a callable
item of ``funclist``."""


def apply(y, x, cond, func):
    vals = x[cond]
    if vals.size > 0:
        y[cond] = func(vals)
