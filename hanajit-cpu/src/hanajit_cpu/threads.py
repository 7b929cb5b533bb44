"""The thread runtime behind ``ParallelFor`` on POSIX hosts (pthreads).

``i32 hj_parallel_for(ptr fn, ptr ctx, i64 count, ptr err)`` calls
``i32 fn(ctx, k, err_k)`` for every ``k`` in ``0..count-1``, each chunk with its
own zeroed error record.  When every chunk has finished, the lowest ``k`` whose
record holds an error is copied to ``err`` and 1 is returned.

Chunks are *claimed*: one atomic word ``hj_claim`` holds the region's
generation (32 bits), its chunk count and the next unclaimed chunk (16 bits
each), and the caller and the pool threads take chunks from it by
compare-and-swap.  The caller then waits only for the chunks others have
claimed (``hj_done`` counts finished chunks), never for a pool thread that has
not woken up: on a loaded machine, where a pool thread may not get a core for
milliseconds, the caller simply runs every chunk itself.  A pool thread that
wakes late finds the generation moved on (or every chunk taken) and goes back
to waiting; the region's globals (function, context, error records) stay valid
while any claimed chunk runs, because the region cannot finish before it.

The pool: detached threads started on demand (up to ``hj_num_threads - 1``)
that poll the generation counter for a while (``SPIN`` polls) and then sleep on a
condition variable until it moves; the caller broadcasts only when a thread
sleeps, and the last chunk's thread signals the caller only when it sleeps, so
back-to-back loops cost a few microseconds and no system call.  The pool
belongs to the process id that made it: after ``fork`` the child finds another
pid, forgets the parent's threads (which do not exist in the child),
re-initialises the mutex and condition variables and starts its own.  A region
that starts while another is running (a nested ``prange``, or a second Python
thread calling with the GIL released) runs serially in its caller's thread,
which keeps the machine from being oversubscribed -- and is why one set of
globals describes the running region.  So does a region of more than 65,535
chunks (chunks are at most the worker count).  ``hj_num_threads`` is a global
the host sets (``hanajit_cpu.parallel_config``).
"""
from __future__ import annotations

# the names hanajit.lowering.parallel calls (spelt here: importing it would load
# llvmlite's IR builder, which a warm start from the disk cache never needs)
PARALLEL_FOR, NUM_THREADS = "hj_parallel_for", "hj_num_threads"

SYMBOLS = (PARALLEL_FOR, NUM_THREADS)

SPIN = 20000          # atomic polls before sleeping (tens of microseconds)

RUNTIME_IR = r"""
@hj_num_threads = global i64 1
@hj_active = internal global i64 0
@hj_pool_pid = internal global i32 0
@hj_pool_n = internal global i64 0
@hj_pool_mutex = internal global [64 x i8] zeroinitializer, align 16
@hj_pool_work = internal global [64 x i8] zeroinitializer, align 16
@hj_pool_done = internal global [64 x i8] zeroinitializer, align 16
@hj_pool_gen = internal global i64 0
@hj_sleepers = internal global i64 0
@hj_waiting = internal global i64 0
@hj_claim = internal global i64 0
@hj_done = internal global i64 0
@hj_job_fn = internal global ptr null
@hj_job_ctx = internal global ptr null
@hj_job_errs = internal global ptr null

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

; claim and run chunks of region %g32 (the generation's low 32 bits) until none
; is left or the region is another one; the thread finishing the last chunk
; wakes the caller if it sleeps
define internal void @hj_run_chunks(i64 %g32) nounwind {
entry:
  br label %claim
claim:
  %c = load atomic i64, ptr @hj_claim seq_cst, align 8
  %cg = lshr i64 %c, 32
  %mine = icmp eq i64 %cg, %g32
  br i1 %mine, label %check, label %exit
check:
  %c16 = lshr i64 %c, 16
  %count = and i64 %c16, 65535
  %k = and i64 %c, 65535
  %left = icmp ult i64 %k, %count
  br i1 %left, label %cas, label %exit
cas:
  %c1 = add i64 %c, 1
  %pair = cmpxchg ptr @hj_claim, i64 %c, i64 %c1 seq_cst seq_cst
  %won = extractvalue { i64, i1 } %pair, 1
  br i1 %won, label %chunk, label %claim
chunk:
  %fn = load ptr, ptr @hj_job_fn
  %ctx = load ptr, ptr @hj_job_ctx
  %errs = load ptr, ptr @hj_job_errs
  %off = mul i64 %k, 4
  %e = getelementptr i64, ptr %errs, i64 %off
  %st = call i32 %fn(ptr %ctx, i64 %k, ptr %e)
  %d = atomicrmw add ptr @hj_done, i64 1 seq_cst
  %d1 = add i64 %d, 1
  %last = icmp eq i64 %d1, %count
  br i1 %last, label %notify, label %claim
notify:
  %wt = load atomic i64, ptr @hj_waiting seq_cst, align 8
  %sleeps = icmp ne i64 %wt, 0
  br i1 %sleeps, label %signal, label %exit
signal:
  %l = call i32 @pthread_mutex_lock(ptr @hj_pool_mutex)
  %sg = call i32 @pthread_cond_signal(ptr @hj_pool_done)
  %u = call i32 @pthread_mutex_unlock(ptr @hj_pool_mutex)
  br label %exit
exit:
  ret void
}

; a pool thread: spins a while, then sleeps, until the generation moves; takes
; chunks of the new region; repeats
define internal ptr @hj_pool_main(ptr %start_gen) nounwind {
entry:
  %g0 = ptrtoint ptr %start_gen to i64
  br label %spin.start
spin.start:
  %seen = phi i64 [%g0, %entry], [%cur2, %run]
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
  %s0 = atomicrmw add ptr @hj_sleepers, i64 1 seq_cst
  br label %sleep.check
sleep.check:
  %cur1 = load atomic i64, ptr @hj_pool_gen seq_cst, align 8
  %same = icmp eq i64 %cur1, %seen
  br i1 %same, label %sleep.wait, label %sleep.done
sleep.wait:
  %w = call i32 @pthread_cond_wait(ptr @hj_pool_work, ptr @hj_pool_mutex)
  br label %sleep.check
sleep.done:
  %s1 = atomicrmw sub ptr @hj_sleepers, i64 1 seq_cst
  %u0 = call i32 @pthread_mutex_unlock(ptr @hj_pool_mutex)
  br label %run
run:
  %cur2 = phi i64 [%cur, %spin], [%cur1, %sleep.done]
  %g32 = and i64 %cur2, 4294967295
  call void @hj_run_chunks(i64 %g32)
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
  store i64 0, ptr @hj_sleepers
  store i64 0, ptr @hj_waiting
  store i64 0, ptr @hj_claim
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
  %huge = icmp sgt i64 %count, 65535
  %serial0 = or i1 %one, %nested
  %serial = or i1 %serial0, %huge
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
  ; the region's globals, then its claim word, then the generation pool
  ; threads watch
  store ptr %fn, ptr @hj_job_fn
  store ptr %ctx, ptr @hj_job_ctx
  store ptr %errs, ptr @hj_job_errs
  store atomic i64 0, ptr @hj_done seq_cst, align 8
  %gen1 = add i64 %gen, 1
  %g32 = and i64 %gen1, 4294967295
  %ghi = shl i64 %g32, 32
  %chi = shl i64 %count, 16
  %word = or i64 %ghi, %chi
  store atomic i64 %word, ptr @hj_claim seq_cst, align 8
  store atomic i64 %gen1, ptr @hj_pool_gen seq_cst, align 8
  %sl = load atomic i64, ptr @hj_sleepers seq_cst, align 8
  %anysl = icmp ne i64 %sl, 0
  br i1 %anysl, label %wake, label %posted
wake:
  %b0 = call i32 @pthread_cond_broadcast(ptr @hj_pool_work)
  br label %posted
posted:
  %u0 = call i32 @pthread_mutex_unlock(ptr @hj_pool_mutex)
  call void @hj_run_chunks(i64 %g32)
  br label %mspin
mspin:
  %mi = phi i64 [0, %posted], [%mi1, %mspin.next]
  %d0 = load atomic i64, ptr @hj_done seq_cst, align 8
  %fin0 = icmp eq i64 %d0, %count
  br i1 %fin0, label %scan.head, label %mspin.next
mspin.next:
  %mi1 = add i64 %mi, 1
  %mmore = icmp slt i64 %mi1, SPIN
  br i1 %mmore, label %mspin, label %wait.lock
wait.lock:
  %l1 = call i32 @pthread_mutex_lock(ptr @hj_pool_mutex)
  store atomic i64 1, ptr @hj_waiting seq_cst, align 8
  br label %wait.head
wait.head:
  %d = load atomic i64, ptr @hj_done seq_cst, align 8
  %fin = icmp eq i64 %d, %count
  br i1 %fin, label %waited, label %wait.body
wait.body:
  %cw = call i32 @pthread_cond_wait(ptr @hj_pool_done, ptr @hj_pool_mutex)
  br label %wait.head
waited:
  store atomic i64 0, ptr @hj_waiting seq_cst, align 8
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
  %a0 = atomicrmw sub ptr @hj_active, i64 1 seq_cst
  ret i32 0
fail:
  %a1 = atomicrmw sub ptr @hj_active, i64 1 seq_cst
  ret i32 1
}
""".replace("SPIN", str(SPIN))
