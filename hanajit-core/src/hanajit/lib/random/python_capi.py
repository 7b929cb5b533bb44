"""``gauss_next`` of a ``random.Random``, read and written from compiled code
through CPython's C API (``lib/random/python_random.py``).

``prims.pyrandom_gauss_has/value/set`` compile to these functions: each takes
the GIL (``PyGILState_Ensure``, cheap when the thread holds it, so ``nogil=True``
code is safe too), reads or sets the attribute with ``PyObject_GetAttr`` /
``PyObject_SetAttr`` and releases what it made.  ``prims.pyapi_consts()`` holds
``None``, ``float`` and the interned name ``"gauss_next"`` (linked by the CPU
engine as ``hj.python.pyapi_consts``, ``python_random_state.py``).  A missing
attribute or one that is neither a float nor None reads as 2, which the caller
refuses.
"""
from .. import prims


def gauss_has(obj):
    c = prims.pyapi_consts()
    state = prims.pyapi_gil_ensure()
    o = prims.pyapi_getattr(obj, c[2])
    has = 2
    if o == 0:
        prims.pyapi_err_clear()
    else:
        if o == c[0]:
            has = 0
        elif prims.pyapi_words(o)[1] == c[1]:     # ob_type is exactly float
            has = 1
        prims.pyapi_decref(o)
    prims.pyapi_gil_release(state)
    return has


def gauss_value(obj):
    c = prims.pyapi_consts()
    state = prims.pyapi_gil_ensure()
    o = prims.pyapi_getattr(obj, c[2])
    value = prims.pyapi_float_as(o)
    prims.pyapi_decref(o)
    prims.pyapi_gil_release(state)
    return value


def gauss_set(obj, has, value):
    c = prims.pyapi_consts()
    state = prims.pyapi_gil_ensure()
    if has != 0:
        o = prims.pyapi_float_from(value)
        prims.pyapi_setattr(obj, c[2], o)
        prims.pyapi_decref(o)
    else:
        prims.pyapi_setattr(obj, c[2], c[0])
    prims.pyapi_gil_release(state)
