"""The list ``np.split`` (and ``array_split``, ``hsplit``, ``vsplit``, ``dsplit``)
returns, when a function returns it.

Compiled code holds the parts as a tuple of views (``lib/arrays/split.py``):
unpacking, ``parts[i]``, ``len(parts)`` and ``for p in parts`` read a tuple as
they read a list.  A function that returns one -- ``return np.split(a, 3)``, or
``return parts`` where every assignment of ``parts`` is such a call -- hands the
caller a list of the arrays (``Function.returns_list`` with a tuple result and
no list comprehensions in it: ``cwrapper._list_boxer``).  Returning the parts
inside a tuple, a list or a conditional expression, or a name also assigned
something else, is unsupported (the function runs in the interpreter)."""
from __future__ import annotations

import ast

_NAMES = frozenset(("split", "array_split", "hsplit", "vsplit", "dsplit"))


def _is_split(b, node) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Name):
        obj = b._global_object(f.id)
    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        obj = getattr(b._global_object(f.value.id), f.attr, None)
    else:
        return False
    return getattr(obj, "__name__", None) in _NAMES and \
        (getattr(obj, "__module__", None) or "").startswith("numpy")


def _split_name(b, node):
    """``"split"`` when ``node`` is a name every store of which assigns an
    ``np.split`` call, ``"mixed"`` when some do and some do not, else None."""
    if not isinstance(node, ast.Name):
        return None
    stores = splits = 0
    for n in ast.walk(b.fnode):
        if isinstance(n, ast.Name) and n.id == node.id and not isinstance(n.ctx, ast.Load):
            stores += 1
        elif isinstance(n, (ast.Global, ast.Nonlocal)) and node.id in n.names:
            stores += 1
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], ast.Name) and n.targets[0].id == node.id \
                and _is_split(b, n.value):
            splits += 1
    if not splits:
        return None
    return "split" if splits == stores else "mixed"


def _holds_parts(b, node) -> bool:
    return _is_split(b, node) or _split_name(b, node) is not None


def returned(b, value) -> bool:
    """Does ``return value`` give the caller the list of parts of a split?
    (``b.returns["arrays"]`` is noted for :func:`mark`.)  Fails for the forms
    that would hand back a tuple where the interpreter has a list."""
    if value is None:
        return False
    if _is_split(b, value) or _split_name(b, value) == "split":
        b.returns["arrays"] = True
        return True
    if _split_name(b, value) == "mixed":
        b.fail(value, "return of np.split's list",
               f"'{value.id}' holds it on some paths and something else on others")
    if _contains(b, value, top=True):
        b.fail(value, "return of np.split's list",
               "the list of parts inside a tuple, a list or a conditional expression "
               "(compiled code holds it as a tuple)")
    return False


def _contains(b, value, top=False) -> bool:
    """Does ``value`` hold a split's parts as itself or as an item of the
    displays and conditional expressions it is made of?"""
    if not top and _holds_parts(b, value):
        return True
    if isinstance(value, (ast.Tuple, ast.List)):
        inner = value.elts
    elif isinstance(value, ast.IfExp):
        inner = [value.body, value.orelse]
    elif isinstance(value, ast.BoolOp):
        inner = value.values
    else:
        return False
    return any(_contains(b, e) for e in inner)


def mark(b, fn) -> bool:
    """``fn.returns_list`` when the returns give a split's list; a fallback when
    some return gives anything else.  True when marked."""
    if not b.returns.get("arrays"):
        return False
    if b.returns.get("other") or b.returns.get("list") or b.returns.get("tuple"):
        b.fail(b.fnode, "return of np.split's list",
               "the function returns something else on another path")
    fn.returns_list = True      # the dispatcher hands back the tuple as a list
    fn.list_items = []
    fn.returns_split = True     # (for messages)
    return True
