// A C++ simulation of the part of the Metal Shading Language that hanajit prints.
//
// Generated MSL is compiled as C++20 (g++ -std=c++20) with this header standing in
// for <metal_stdlib>: Metal's scalar types, uint3, as_type, the address-space
// qualifiers (device, constant, thread, threadgroup: empty here, one flat memory),
// `kernel`, attributes (ignored by g++), metal:: math (the C library's),
// relaxed atomics (std::atomic) and threadgroup_barrier.  hjsim::run executes a
// grid: threadgroup after threadgroup; within one, every thread is an OS thread
// and threadgroup_barrier is a std::barrier (kernels without barriers run their
// threads one after another).  It checks what the code computes, not that Metal
// accepts it: see docs/gpu.md, "Metal".
#pragma once
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
static_assert(sizeof(long) == 8, "Metal's long is 64 bits");

struct uint3 { uint x, y, z; };

template <class To, class From>
inline To as_type(From from) {
    static_assert(sizeof(To) == sizeof(From), "as_type needs equal sizes");
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}

// -- atomics (Metal: relaxed only) ------------------------------------------------------
typedef std::atomic<int> atomic_int;
typedef std::atomic<uint> atomic_uint;
typedef std::atomic<float> atomic_float;
using std::memory_order;
using std::memory_order_relaxed;
static_assert(sizeof(atomic_int) == 4 && sizeof(atomic_float) == 4, "lock-free atomics");

template <class A, class V>
inline auto atomic_fetch_add_explicit(A *p, V v, memory_order) {
    return p->fetch_add(v, std::memory_order_relaxed);
}
template <class A, class V>
inline auto atomic_fetch_min_explicit(A *p, V v, memory_order) {
    auto old = p->load(std::memory_order_relaxed);
    while (v < old && !p->compare_exchange_weak(old, v, std::memory_order_relaxed)) {}
    return old;
}
template <class A, class V>
inline auto atomic_fetch_max_explicit(A *p, V v, memory_order) {
    auto old = p->load(std::memory_order_relaxed);
    while (v > old && !p->compare_exchange_weak(old, v, std::memory_order_relaxed)) {}
    return old;
}
template <class A, class V>
inline bool atomic_compare_exchange_weak_explicit(A *p, V *expected, V desired,
                                                  memory_order, memory_order) {
    return p->compare_exchange_weak(*expected, desired, std::memory_order_relaxed,
                                    std::memory_order_relaxed);
}

// -- barriers ---------------------------------------------------------------------------
namespace mem_flags {
constexpr int mem_none = 0, mem_device = 1, mem_threadgroup = 2, mem_texture = 4;
}
namespace hjsim {
inline thread_local std::barrier<> *group_barrier = nullptr;
}
inline void threadgroup_barrier(int) {
    if (hjsim::group_barrier) hjsim::group_barrier->arrive_and_wait();
}

// -- math: the C library, overloaded by type as metal:: is -------------------------------
namespace metal {
using std::sqrt; using std::exp; using std::exp2; using std::log; using std::log2;
using std::log10; using std::sin; using std::cos; using std::tan; using std::asin;
using std::acos; using std::atan; using std::sinh; using std::cosh; using std::tanh;
using std::asinh; using std::acosh; using std::atanh; using std::atan2; using std::pow;
using std::fmod; using std::fabs; using std::floor; using std::ceil; using std::trunc;
using std::rint; using std::copysign; using std::fma;
}

// -- the grid ---------------------------------------------------------------------------
namespace hjsim {
// one work-item: (thread in group, group in grid, group size, grid size, threadgroup buffers)
using Body = std::function<void(uint3, uint3, uint3, uint3, void **)>;

// dispatchThreadgroups(grid, block): every threadgroup in turn, its threadgroup
// buffers filled with 0xA5 (uninitialised memory must not read as zero)
inline int run(uint3 grid, uint3 block, const size_t *tg_sizes, int n_tg,
               bool barriers, const Body &body) {
    const size_t n = (size_t)block.x * block.y * block.z;
    std::vector<std::vector<unsigned char>> tg(n_tg);
    std::vector<void *> tgp(n_tg + 1, nullptr);
    for (uint gz = 0; gz < grid.z; gz++)
    for (uint gy = 0; gy < grid.y; gy++)
    for (uint gx = 0; gx < grid.x; gx++) {
        const uint3 bid{gx, gy, gz};
        for (int i = 0; i < n_tg; i++) {
            tg[i].assign(tg_sizes[i] ? tg_sizes[i] : 1, 0xA5);
            tgp[i] = tg[i].data();
        }
        auto tid_of = [&](size_t t) {
            return uint3{(uint)(t % block.x), (uint)(t / block.x % block.y),
                         (uint)(t / block.x / block.y)};
        };
        if (!barriers) {
            for (size_t t = 0; t < n; t++) body(tid_of(t), bid, block, grid, tgp.data());
            continue;
        }
        std::barrier<> bar((std::ptrdiff_t)n);
        std::vector<std::thread> threads;
        threads.reserve(n);
        for (size_t t = 0; t < n; t++)
            threads.emplace_back([&, t] {
                group_barrier = &bar;
                body(tid_of(t), bid, block, grid, tgp.data());
                bar.arrive_and_drop();     // an exited thread no longer holds barriers
            });
        for (auto &th : threads) th.join();
    }
    return 0;
}

// a buffer argument: converts to the kernel parameter's pointer type
struct ptr {
    void *p;
    template <class T> operator T *() const { return static_cast<T *>(p); }
};
}  // namespace hjsim

// MSL's keywords and address spaces: one flat memory here
#define kernel
#define device
#define constant
#define thread
#define threadgroup
