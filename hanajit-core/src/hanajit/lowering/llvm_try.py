"""LLVM lowering of ``try`` (``ir.nodes.Try``, ``Caught``, ``Reraise``): a mixin of
``llvm.FunctionLowering``.

Every raise -- a ``Raise``, a failing call, a failed allocation, a failing
parallel loop -- writes the error record (``*err``: the code, up to 3 int64
arguments) and calls ``fail()``.  Inside a ``try`` body ``fail()`` branches to
the innermost try's landing block instead of the function's failing exit.  The
landing block first sends a deopt code (``Raise.deopt`` True, or the ``Deopt``
class: the interpreter must re-run the whole call) on outward as if the try were
not there; any other error is copied into the try's own record (an alloca of 4
int64, so a handler can raise it again after a nested try has caught another
error), the code in ``*err`` is cleared (nothing pending: a parallel loop's
runtime reads a chunk's record) and the handlers run: ``Caught`` tests the
saved code, ``Reraise`` writes the saved record back and calls ``fail()`` (outer
handlers, or the exit).

Raise codes are allocated as raise sites are lowered (``Module.raise_code``), so
the tests on a code are ``switch`` instructions whose cases are added once the
whole module is lowered (:func:`fill_switches`): a code whose class (known per
code) is a subclass of a clause's classes jumps to the "true" block.  A module
without ``try`` has no such switch: its IR is what it was.

A str in a message (``errors.Field``, ``{s}``/``{r}``) travels as a reference
the record holds (:meth:`TryLowering.record_value`): the runtime that reads the
error takes it.  A try's record takes it over from ``*err`` when it catches the
error, and gives it back to ``*err`` on ``Reraise`` (the record is then empty:
code 0); an error handled for good is released when the try catches the next
one and at every exit of the function (:meth:`TryLowering.release_records`:
every try record starts empty, on entry).  The releases are switches on the
code too, whose cases -- the codes with str fields -- are added with the others.
"""
from __future__ import annotations

from llvmlite import ir

from ..ir import nodes as N
from ..ir.walk import walk_stmts
from . import llvm_types as _ll

I1, I64 = ir.IntType(1), ir.IntType(64)


def _is_deopt(exc, deopt) -> bool:
    """Codes a ``Try`` never catches.  (``errors.RERUN`` is not one: its class is
    exact, only its message or arguments approximate -- which a handler cannot
    see -- and a re-raise keeps the code.)"""
    from ..errors import RERUN
    from ..lib.python.helpers import Deopt
    return (deopt and deopt != RERUN) or exc is Deopt


def fill_switches(ml) -> None:
    """Add the cases of every code test of ``ml``'s functions, now that
    ``ml.module.raises`` holds every code."""
    from ..errors import str_field_slots
    for sw, target, classes in ml.code_tests:
        if classes == "strs":                   # a release of a record's strs
            _release_cases(ml, sw, *target, [
                (code, str_field_slots(message))
                for code, (_exc, message, _deopt) in enumerate(ml.module.raises, 1)])
            continue
        for code, (exc, _message, deopt) in enumerate(ml.module.raises, 1):
            if _is_deopt(exc, deopt):
                if classes is None:             # the landing's deopt test
                    sw.add_case(ir.Constant(I64, code), target)
            elif classes is not None and isinstance(exc, type) and issubclass(exc, classes):
                sw.add_case(ir.Constant(I64, code), target)
    ml.code_tests = []


def _release_cases(ml, sw, slot, done, decref, codes) -> None:
    """The cases of the release switch ``sw`` of the record ``slot``: for each code
    with str fields, a block releasing them, then ``done``."""
    b = ir.IRBuilder()
    fn = sw.parent.parent
    for code, slots in codes:
        if not slots:
            continue
        bb = fn.append_basic_block("record.release")
        b.position_at_end(bb)
        for k in slots:
            v = b.load(b.gep(slot, [ir.Constant(I64, k + 1)], source_etype=I64), typ=I64)
            b.call(decref, [b.inttoptr(v, _ll.PTR)])    # (NULL: nothing)
        b.branch(done)
        sw.add_case(ir.Constant(I64, code), bb)


class TryLowering:
    """``Try``, ``Caught`` and ``Reraise``; ``fail()`` consults :attr:`landings`."""

    def record_value(self, a):
        """A raise's value ``a`` as its int64 slot of the record: a str (an array:
        ``{s}``, ``{r}``) as the address of a reference the record holds."""
        v = self.expr(a)
        if not _ll.holds_array(a.type):
            return v
        self.refcount(v, a.type, self.m.nrt("incref"))
        return self.b.ptrtoint(self.b.extract_value(v, 0), I64)

    def start_records(self):
        """An empty record for every ``try`` of the function, on entry (so that
        every exit may release what they hold: :meth:`release_records`)."""
        for s in walk_stmts(self.fn.body):
            if isinstance(s, N.Try):
                self.record(s.label)

    def release_records(self):
        for slot in self.try_records.values():
            self.release_record(slot)

    def release_record(self, slot):
        """Release the strs a try's record holds (an error it handled)."""
        b = self.b
        code = b.load(slot, typ=I64)
        done = self.llfn.append_basic_block("record.released")
        sw = b.switch(code, done)
        self.m.code_tests.append((sw, (slot, done, self.m.nrt("decref")), "strs"))
        b.position_at_end(done)

    def landing(self):
        """The innermost try's landing block, or None."""
        return self.landings[-1] if self.landings else None

    def record(self, label: int):
        """The error record of the try numbered ``label`` (one alloca per label)."""
        slot = self.try_records.get(label)
        if slot is None:
            with self.b.goto_entry_block():
                slot = self.try_records[label] = self.b.alloca(
                    I64, size=ir.Constant(I64, 4), name=f"try{label}")
                self.b.store(ir.Constant(I64, 0), slot)         # (empty)
        return slot

    def copy_record(self, src, dst):
        b = self.b
        for k in range(4):
            v = b.load(b.gep(src, [ir.Constant(I64, k)], source_etype=I64), typ=I64)
            b.store(v, b.gep(dst, [ir.Constant(I64, k)], source_etype=I64))

    def lower_try(self, s: N.Try):
        b = self.b
        catch = self.llfn.append_basic_block(f"try{s.label}.catch")
        merge = self.llfn.append_basic_block(f"try{s.label}.end")
        self.landings.append(catch)
        try:
            self.block(s.body)
        finally:
            self.landings.pop()
        self.block(s.orelse)                # (outside the handlers' reach)
        if not b.block.is_terminated:
            b.branch(merge)
        # (lowered even when nothing in the body raises -- LLVM drops the dead
        # blocks -- so loops are met in the order evolve.genome counts them)
        b.position_at_end(catch)
        onward = self.llfn.append_basic_block(f"try{s.label}.deopt")
        handlers = self.llfn.append_basic_block(f"try{s.label}.handlers")
        code = b.load(self.err, typ=I64)
        self.m.code_tests.append((b.switch(code, handlers), onward, None))
        b.position_at_end(onward)          # a deopt leaves as if this try were not there
        self.fail()
        b.position_at_end(handlers)
        self.release_record(self.record(s.label))   # (an error handled before)
        self.copy_record(self.err, self.record(s.label))
        # caught: no error pending (a parallel loop's runtime reads a chunk's
        # record, not its status, to find the failing chunk)
        b.store(ir.Constant(I64, 0), self.err)
        self.block(s.then)
        if not b.block.is_terminated:
            b.branch(merge)
        b.position_at_end(merge)

    def reraise(self, s: N.Reraise):
        slot = self.record(s.label)
        self.copy_record(slot, self.err)
        self.b.store(ir.Constant(I64, 0), slot)     # (its strs are the error's now)
        self.fail()

    def e_Caught(self, e):
        b = self.b
        code = b.load(self.record(e.label), typ=I64)      # (element 0: the code)
        yes = self.llfn.append_basic_block("caught.yes")
        no = self.llfn.append_basic_block("caught.no")
        merge = self.llfn.append_basic_block("caught.end")
        self.m.code_tests.append((b.switch(code, no), yes, tuple(e.classes)))
        for bb in (yes, no):
            b.position_at_end(bb)
            b.branch(merge)
        b.position_at_end(merge)
        phi = b.phi(I1)
        phi.add_incoming(ir.Constant(I1, 1), yes)
        phi.add_incoming(ir.Constant(I1, 0), no)
        return phi
