#include <metal_stdlib>

static inline ulong hj_ctpop(ulong x) {
    ulong n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

struct hj_tuple0 { float f0; int f1; };

static inline int v_hj_hyp(thread long *hj_err, thread hj_tuple0 *hj_ret, float v_x, float v_y, int v_n);

static inline int v_hj_hyp(thread long *hj_err, thread hj_tuple0 *hj_ret, float v_x, float v_y, int v_n) {
    float v__24_t3 = {};
    int v__24_t4 = {};
    int v__24_t5 = {};
    int v__24_t6 = {};
    if ((v_x < v_y)) {
        v__24_t3 = ((v_x * v_x) + (v_y * v_y));
        if ((((((long)3L) < ((long)-2147483648L))) | ((((long)3L) > ((long)2147483647L))))) {
            hj_err[0] = 1;  /* OverflowError: Python integer {} out of bounds for int32 */
            hj_err[1] = (long)((long)3L);
            return 1;
        }
        v__24_t4 = ((int)((long)3L));
        v__24_t5 = ((((v__24_t4 == ((int)0L))) | ((((v_n == ((int)(-2147483647L - 1)))) & ((v__24_t4 == ((int)-1L)))))) ? ((int)1L) : v__24_t4);
        v__24_t6 = ((int)(v_n % v__24_t5));
        *hj_ret = hj_tuple0{(metal::sqrt(v__24_t3) - v_x), ((v__24_t4 == ((int)0L)) ? ((int)0L) : ((((v__24_t6 != ((int)0L))) & ((((int)(v__24_t6 ^ v__24_t4)) < ((int)0L)))) ? ((int)((uint)((int)(v_n / v__24_t5)) - (uint)((int)1L))) : ((int)(v_n / v__24_t5))))};
        return 0;
    }
    *hj_ret = hj_tuple0{metal::fmod(v_x, v_y), ((int)(0u - (uint)v_n))};
    return 0;
}
