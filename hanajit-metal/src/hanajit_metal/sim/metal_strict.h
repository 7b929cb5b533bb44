// Declarations of the part of the Metal Shading Language hanajit prints, for a
// syntax check by clang (-fsyntax-only -DHJ_STRICT_ADDRESS_SPACES): Metal's address
// spaces become clang address spaces, so a pointer into one never converts to
// another implicitly -- as in Metal -- and the atomics exist per address space, as
// in <metal_atomic>.  Nothing here runs (metal_sim.h does); it includes no C++
// library, so a check takes a fraction of a second.
#pragma once

#define device __attribute__((address_space(1)))
#define constant __attribute__((address_space(2)))
#define threadgroup __attribute__((address_space(3)))
#define thread
#define kernel

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
    __builtin_memcpy(&to, &from, sizeof to);
    return to;
}

#define NAN __builtin_nanf("")
#define INFINITY __builtin_inff()

enum memory_order { memory_order_relaxed };
struct atomic_int { int value; };
struct atomic_uint { uint value; };
struct atomic_float { float value; };
#define HJ_ATOMICS(AS, A, T)                                                            \
    T atomic_fetch_add_explicit(AS A *, T, memory_order);                             \
    T atomic_fetch_min_explicit(AS A *, T, memory_order);                             \
    T atomic_fetch_max_explicit(AS A *, T, memory_order);                             \
    bool atomic_compare_exchange_weak_explicit(AS A *, thread T *, T, memory_order,   \
                                               memory_order);
HJ_ATOMICS(device, atomic_int, int)
HJ_ATOMICS(device, atomic_uint, uint)
HJ_ATOMICS(threadgroup, atomic_int, int)
HJ_ATOMICS(threadgroup, atomic_uint, uint)
float atomic_fetch_add_explicit(device atomic_float *, float, memory_order);
float atomic_fetch_add_explicit(threadgroup atomic_float *, float, memory_order);

namespace mem_flags {
constexpr int mem_none = 0, mem_device = 1, mem_threadgroup = 2, mem_texture = 4;
}
void threadgroup_barrier(int);

// metal:: math on float only (Metal has no double; half is not printed)
namespace metal {
#define HJ_F1(name) float name(float);
#define HJ_F2(name) float name(float, float);
HJ_F1(sqrt) HJ_F1(exp) HJ_F1(exp2) HJ_F1(log) HJ_F1(log2) HJ_F1(log10) HJ_F1(sin)
HJ_F1(cos) HJ_F1(tan) HJ_F1(asin) HJ_F1(acos) HJ_F1(atan) HJ_F1(sinh) HJ_F1(cosh)
HJ_F1(tanh) HJ_F1(asinh) HJ_F1(acosh) HJ_F1(atanh) HJ_F1(fabs) HJ_F1(floor)
HJ_F1(ceil) HJ_F1(trunc) HJ_F1(rint)
HJ_F2(atan2) HJ_F2(pow) HJ_F2(fmod) HJ_F2(copysign)
float fma(float, float, float);
#undef HJ_F1
#undef HJ_F2
}
