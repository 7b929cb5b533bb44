"""The thread runtime behind ``ParallelFor`` on POSIX hosts (pthreads).

``i32 hj_parallel_for(ptr fn, ptr ctx, i64 count, ptr err)`` calls
``i32 fn(ctx, k, err_k)`` for every ``k`` in ``0..count-1``: the calling thread
and the pool threads take chunk numbers from an atomic counter, each chunk with
its own zeroed error record.  When every thread has reported, the lowest ``k``
whose record holds an error is copied to ``err`` and 1 is returned.

The pool: detached threads started on demand (up to ``hj_num_threads - 1``)
that poll the generation counter for a while (``SPIN`` polls) and then sleep on a
condition variable until it moves, help with the posted job, decrement
``pending`` and poll again; the caller helps too, then polls (and then sleeps)
until ``pending`` is 0, so the job (on its stack) is never used after it
returns.  Polling first makes back-to-back loops cost a few microseconds instead
of a wake-up each.  The
pool belongs to the process id that made it: after ``fork`` the child finds
another pid, forgets the parent's threads (which do not exist in the child),
re-initialises the mutex and condition variables and starts its own.  A region
that starts while another is running (a nested ``prange``, or a second Python
thread calling with the GIL released) runs serially in its caller's thread,
which keeps the machine from being oversubscribed.  ``hj_num_threads`` is a
global the host sets (``hanajit.parallel_config``).
"""
from __future__ import annotations

PARALLEL_FOR = "hj_parallel_for"
NUM_THREADS = "hj_num_threads"
SYMBOLS = (PARALLEL_FOR, NUM_THREADS)

SPIN = 20000          # atomic polls before sleeping (tens of microseconds)

RUNTIME_IR = r"""
%job = type { ptr, ptr, i64, i64, ptr }

@hj_num_threads = global i64 1
@hj_active = internal global i64 0
@hj_pool_pid = internal global i32 0
@hj_pool_n = internal global i64 0
@hj_pool_mutex = internal global [64 x i8] zeroinitializer, align 16
@hj_pool_work = internal global [64 x i8] zeroinitializer, align 16
@hj_pool_done = internal global [64 x i8] zeroinitializer, align 16
@hj_pool_gen = internal global i64 0
@hj_pool_job = internal global ptr null
@hj_pool_pending = internal global i64 0

declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_detach(i64)
declare i32 @pthread_mutex_lock(ptr)
declare i32 @pthread_mutex_unlock(ptr)
declare i32 @pthread_cond_wait(ptr, ptr)
declare i32 @pthread_cond_broadcast(ptr)
declare i32 @pthread_cond_signal(ptr)
declare i32 @getpid()
declare ptr @calloc(i64, i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define internal ptr @hj_worker(ptr %job) nounwind {
entry:
  %fnp = getelementptr %job, ptr %job, i32 0, i32 0
  %fn = load ptr, ptr %fnp
  %ctxp = getelementptr %job, ptr %job, i32 0, i32 1
  %ctx = load ptr, ptr %ctxp
  %cntp = getelementptr %job, ptr %job, i32 0, i32 2
  %count = load i64, ptr %cntp
  %nextp = getelementptr %job, ptr %job, i32 0, i32 3
  %errsp = getelementptr %job, ptr %job, i32 0, i32 4
  %errs = load ptr, ptr %errsp
  br label %loop
loop:
  %k = atomicrmw add ptr %nextp, i64 1 seq_cst
  %done = icmp sge i64 %k, %count
  br i1 %done, label %exit, label %body
body:
  %off = mul i64 %k, 4
  %e = getelementptr i64, ptr %errs, i64 %off
  %st = call i32 %fn(ptr %ctx, i64 %k, ptr %e)
  br label %loop
exit:
  ret ptr null
}

; a pool thread: spins a while, then sleeps, until the generation moves; helps
; with the posted job; reports; repeats
define internal ptr @hj_pool_main(ptr %start_gen) nounwind {
entry:
  %g0 = ptrtoint ptr %start_gen to i64
  br label %spin.start
spin.start:
  %seen = phi i64 [%g0, %entry], [%cur2, %reported]
  br label %spin
spin:
  %i = phi i64 [0, %spin.start], [%i1, %spin.next]
  %cur = load atomic i64, ptr @hj_pool_gen seq_cst, align 8
  %new = icmp ne i64 %cur, %seen
  br i1 %new, label %run, label %spin.next
spin.next:
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, SPIN
  br i1 %more, label %spin, label %sleep.lock
sleep.lock:
  %l0 = call i32 @pthread_mutex_lock(ptr @hj_pool_mutex)
  br label %sleep.check
sleep.check:
  %cur1 = load atomic i64, ptr @hj_pool_gen seq_cst, align 8
  %same = icmp eq i64 %cur1, %seen
  br i1 %same, label %sleep.wait, label %sleep.done
sleep.wait:
  %w = call i32 @pthread_cond_wait(ptr @hj_pool_work, ptr @hj_pool_mutex)
  br label %sleep.check
sleep.done:
  %u0 = call i32 @pthread_mutex_unlock(ptr @hj_pool_mutex)
  br label %run
run:
  %cur2 = phi i64 [%cur, %spin], [%cur1, %sleep.done]
  %job = load atomic ptr, ptr @hj_pool_job seq_cst, align 8
  %r = call ptr @hj_worker(ptr %job)
  %p = atomicrmw sub ptr @hj_pool_pending, i64 1 seq_cst
  %last = icmp eq i64 %p, 1
  br i1 %last, label %signal, label %reported
signal:
  %l1 = call i32 @pthread_mutex_lock(ptr @hj_pool_mutex)
  %sg = call i32 @pthread_cond_signal(ptr @hj_pool_done)
  %u1 = call i32 @pthread_mutex_unlock(ptr @hj_pool_mutex)
  br label %reported
reported:
  br label %spin.start
}

define i32 @hj_parallel_for(ptr %fn, ptr %ctx, i64 %count, ptr %err) nounwind {
entry:
  %pid = call i32 @getpid()
  %ppid = load i32, ptr @hj_pool_pid
  %forked = icmp ne i32 %pid, %ppid
  br i1 %forked, label %reset, label %start
reset:
  ; first use in this process (or in a forked child): no pool thread exists here
  call void @llvm.memset.p0.i64(ptr @hj_pool_mutex, i8 0, i64 64, i1 false)
  call void @llvm.memset.p0.i64(ptr @hj_pool_work, i8 0, i64 64, i1 false)
  call void @llvm.memset.p0.i64(ptr @hj_pool_done, i8 0, i64 64, i1 false)
  store i64 0, ptr @hj_pool_n
  store i64 0, ptr @hj_pool_pending
  store i64 0, ptr @hj_active
  store i32 %pid, ptr @hj_pool_pid
  br label %start
start:
  %prev = atomicrmw add ptr @hj_active, i64 1 seq_cst
  %nested = icmp ne i64 %prev, 0
  %nt0 = load i64, ptr @hj_num_threads
  %lt = icmp slt i64 %count, %nt0
  %nt = select i1 %lt, i64 %count, i64 %nt0
  %one = icmp sle i64 %nt, 1
  %serial = or i1 %one, %nested
  br i1 %serial, label %sloop.head, label %par
sloop.head:
  %sk = phi i64 [0, %start], [0, %par], [%sk1, %sloop.next]
  %sdone = icmp sge i64 %sk, %count
  br i1 %sdone, label %ok, label %sloop.body
sloop.body:
  %sst = call i32 %fn(ptr %ctx, i64 %sk, ptr %err)
  %sfail = icmp ne i32 %sst, 0
  br i1 %sfail, label %fail, label %sloop.next
sloop.next:
  %sk1 = add i64 %sk, 1
  br label %sloop.head
par:
  %n4 = mul i64 %count, 4
  %errs = call ptr @calloc(i64 %n4, i64 8)
  %nomem = icmp eq ptr %errs, null
  br i1 %nomem, label %sloop.head, label %par2
par2:
  %job = alloca %job
  %jf = getelementptr %job, ptr %job, i32 0, i32 0
  store ptr %fn, ptr %jf
  %jc = getelementptr %job, ptr %job, i32 0, i32 1
  store ptr %ctx, ptr %jc
  %jn = getelementptr %job, ptr %job, i32 0, i32 2
  store i64 %count, ptr %jn
  %jk = getelementptr %job, ptr %job, i32 0, i32 3
  store i64 0, ptr %jk
  %je = getelementptr %job, ptr %job, i32 0, i32 4
  store ptr %errs, ptr %je
  %nthr = sub i64 %nt, 1
  %tid = alloca i64
  %l0 = call i32 @pthread_mutex_lock(ptr @hj_pool_mutex)
  %gen = load i64, ptr @hj_pool_gen
  %genp = inttoptr i64 %gen to ptr
  br label %grow.head
grow.head:
  %have = load i64, ptr @hj_pool_n
  %enough = icmp sge i64 %have, %nthr
  br i1 %enough, label %post, label %grow.body
grow.body:
  %rc = call i32 @pthread_create(ptr %tid, ptr null, ptr @hj_pool_main, ptr %genp)
  %rcok = icmp eq i32 %rc, 0
  br i1 %rcok, label %grow.next, label %post
grow.next:
  %t = load i64, ptr %tid
  %dr = call i32 @pthread_detach(i64 %t)
  %have1 = add i64 %have, 1
  store i64 %have1, ptr @hj_pool_n
  br label %grow.head
post:
  store atomic ptr %job, ptr @hj_pool_job seq_cst, align 8
  %nw = load i64, ptr @hj_pool_n
  store atomic i64 %nw, ptr @hj_pool_pending seq_cst, align 8
  %gen1 = add i64 %gen, 1
  store atomic i64 %gen1, ptr @hj_pool_gen seq_cst, align 8
  %b0 = call i32 @pthread_cond_broadcast(ptr @hj_pool_work)
  %u0 = call i32 @pthread_mutex_unlock(ptr @hj_pool_mutex)
  %w = call ptr @hj_worker(ptr %job)
  br label %mspin
mspin:
  %mi = phi i64 [0, %post], [%mi1, %mspin.next]
  %pend0 = load atomic i64, ptr @hj_pool_pending seq_cst, align 8
  %none0 = icmp eq i64 %pend0, 0
  br i1 %none0, label %scan.head, label %mspin.next
mspin.next:
  %mi1 = add i64 %mi, 1
  %mmore = icmp slt i64 %mi1, SPIN
  br i1 %mmore, label %mspin, label %wait.lock
wait.lock:
  %l1 = call i32 @pthread_mutex_lock(ptr @hj_pool_mutex)
  br label %wait.head
wait.head:
  %pend = load atomic i64, ptr @hj_pool_pending seq_cst, align 8
  %alldone = icmp eq i64 %pend, 0
  br i1 %alldone, label %waited, label %wait.body
wait.body:
  %cw = call i32 @pthread_cond_wait(ptr @hj_pool_done, ptr @hj_pool_mutex)
  br label %wait.head
waited:
  %u1 = call i32 @pthread_mutex_unlock(ptr @hj_pool_mutex)
  br label %scan.head
scan.head:
  %q = phi i64 [0, %waited], [0, %mspin], [%q1, %scan.next]
  %qdone = icmp sge i64 %q, %count
  br i1 %qdone, label %free.ok, label %scan.body
scan.body:
  %qo = mul i64 %q, 4
  %qe = getelementptr i64, ptr %errs, i64 %qo
  %code = load i64, ptr %qe
  %has = icmp ne i64 %code, 0
  br i1 %has, label %copy, label %scan.next
scan.next:
  %q1 = add i64 %q, 1
  br label %scan.head
copy:
  call void @llvm.memcpy.p0.p0.i64(ptr %err, ptr %qe, i64 32, i1 false)
  call void @free(ptr %errs)
  br label %fail
free.ok:
  call void @free(ptr %errs)
  br label %ok
ok:
  %d0 = atomicrmw sub ptr @hj_active, i64 1 seq_cst
  ret i32 0
fail:
  %d1 = atomicrmw sub ptr @hj_active, i64 1 seq_cst
  ret i32 1
}
""".replace("SPIN", str(SPIN))
