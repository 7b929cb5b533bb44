"""``lowering.llvm_memory.moved_temps``: which ``x = $t`` statements take over
the temporary's reference (its slot emptied, no incref), so the array's last
reference is ``x``'s and rebinding ``x`` frees it at once.  Only where nothing
can read ``$t`` afterwards: every other read of it lies between its assignment
and the move, in the same run of statements."""
from __future__ import annotations

from types import SimpleNamespace

from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering import llvm  # noqa: F401 - (llvm_memory is imported by it)
from hanajit.lowering.llvm_memory import moved_temps

A = T.ArrayType(T.FLOAT64, 1, "C")
I = T.INT64


def var(name):
    return N.Var(name, A)


def alloc(target):
    return N.Assign(target=target, value=N.AllocArray([N.Const(4, I)], A))


def fill(name):
    return N.ForCount(counter="$i", count=N.Const(4, I),
                      body=[N.Store(array=var(name), indices=[N.Var("$i", I)],
                                    value=N.Const(0.0, T.FLOAT64))])


def moves(body, managed=("$t", "y", "z")):
    return moved_temps(SimpleNamespace(body=body), set(managed))


def test_a_filled_temporary_moves_into_its_variable():
    move = N.Assign(target="y", value=var("$t"))
    assert moves([alloc("$t"), fill("$t"), move, N.Return(var("y"))]) == {id(move)}


def test_each_pass_of_a_loop_moves_its_own_temporary():
    move = N.Assign(target="y", value=var("$t"))
    loop = N.ForCount(counter="$k", count=N.Const(8, I), body=[alloc("$t"), fill("$t"), move])
    assert moves([alloc("y"), loop]) == {id(move)}


def test_no_move_when_read_again_after():
    move = N.Assign(target="y", value=var("$t"))
    after = N.Assign(target="z", value=var("$t"))
    assert moves([alloc("$t"), move, after]) == {id(after)}


def test_no_move_of_a_temporary_assigned_outside_the_loop_reading_it():
    move = N.Assign(target="y", value=var("$t"))
    loop = N.ForCount(counter="$k", count=N.Const(8, I), body=[move])
    assert moves([alloc("$t"), loop]) == set()


def test_no_move_when_a_later_pass_could_read_it_first():
    # $t read at the top of the loop body, before its assignment there: a second
    # pass would read the emptied slot
    use = N.ExprStmt(value=N.ArrayAttr(var("$t"), "shape", 0, I))
    move = N.Assign(target="y", value=var("$t"))
    loop = N.ForCount(counter="$k", count=N.Const(8, I), body=[use, alloc("$t"), move])
    assert moves([alloc("$t"), loop]) == set()


def test_user_variables_and_self_assignments_never_move():
    a = N.Assign(target="z", value=var("y"))        # not a temporary
    b = N.Assign(target="$t", value=var("$t"))
    assert moves([alloc("y"), a, alloc("$t"), b]) == set()
