"""The thread runtime behind ``ParallelFor`` on POSIX hosts (pthreads).

``i32 hj_parallel_for(ptr fn, ptr ctx, i64 count, ptr err)`` calls
``i32 fn(ctx, k, err_k)`` for every ``k`` in ``0..count-1``: worker threads (at
most ``hj_num_threads - 1`` of them, plus the calling thread) take chunk numbers
from an atomic counter, each chunk with its own zeroed error record.  After every
thread has joined, the lowest ``k`` whose record holds an error is copied to
``err`` and 1 is returned.

Threads are created for each region and joined at its end: no thread outlives a
call, so nothing needs repairing after ``fork``, and the pool can never be left
half-used by an exception.  A region that starts while another is running (a
nested ``prange``, or a second Python thread calling with the GIL released) runs
serially in its caller's thread, which keeps the machine from being
oversubscribed.  ``hj_num_threads`` is a global the host sets (see
``hanajit.threads_config``).
"""
from __future__ import annotations

PARALLEL_FOR = "hj_parallel_for"
NUM_THREADS = "hj_num_threads"
SYMBOLS = (PARALLEL_FOR, NUM_THREADS)

RUNTIME_IR = r"""
%job = type { ptr, ptr, i64, i64, ptr }

@hj_num_threads = global i64 1
@hj_active = internal global i64 0

declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_join(i64, ptr)
declare ptr @calloc(i64, i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

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

define i32 @hj_parallel_for(ptr %fn, ptr %ctx, i64 %count, ptr %err) nounwind {
entry:
  %prev = atomicrmw add ptr @hj_active, i64 1 seq_cst
  %nested = icmp ne i64 %prev, 0
  %nt0 = load i64, ptr @hj_num_threads
  %lt = icmp slt i64 %count, %nt0
  %nt = select i1 %lt, i64 %count, i64 %nt0
  %one = icmp sle i64 %nt, 1
  %serial = or i1 %one, %nested
  br i1 %serial, label %sloop.head, label %par
sloop.head:
  %sk = phi i64 [0, %entry], [0, %par], [%sk1, %sloop.next]
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
  %tids = alloca i64, i64 %nthr
  br label %spawn.head
spawn.head:
  %t = phi i64 [0, %par2], [%t1, %spawn.next]
  %alldone = icmp sge i64 %t, %nthr
  br i1 %alldone, label %work, label %spawn.body
spawn.body:
  %tidp = getelementptr i64, ptr %tids, i64 %t
  %rc = call i32 @pthread_create(ptr %tidp, ptr null, ptr @hj_worker, ptr %job)
  %rcok = icmp eq i32 %rc, 0
  br i1 %rcok, label %spawn.next, label %work
spawn.next:
  %t1 = add i64 %t, 1
  br label %spawn.head
work:
  %created = phi i64 [%t, %spawn.head], [%t, %spawn.body]
  %w = call ptr @hj_worker(ptr %job)
  br label %join.head
join.head:
  %j = phi i64 [0, %work], [%j1, %join.body]
  %jdone = icmp sge i64 %j, %created
  br i1 %jdone, label %scan.head, label %join.body
join.body:
  %tidq = getelementptr i64, ptr %tids, i64 %j
  %tid = load i64, ptr %tidq
  %jr = call i32 @pthread_join(i64 %tid, ptr null)
  %j1 = add i64 %j, 1
  br label %join.head
scan.head:
  %q = phi i64 [0, %join.head], [%q1, %scan.next]
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
"""
