#include <metal_stdlib>

static inline ulong hj_ctpop(ulong x) {
    ulong n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

struct hj_array_f32_1 { device float *data; long shape[1]; long strides[1]; };

static inline int v_hj_saxpy_into(thread long *hj_err, thread uchar *hj_ret, float v_a, hj_array_f32_1 v_x, hj_array_f32_1 v_y, hj_array_f32_1 v_out);

static inline int v_hj_saxpy_into(thread long *hj_err, thread uchar *hj_ret, float v_a, hj_array_f32_1 v_x, hj_array_f32_1 v_y, hj_array_f32_1 v_out) {
    long v_i = {};
    long v__24_t5 = {};
    long v__24_i6 = {};
    long v__24_t7 = {};
    long v__24_t8 = {};
    long v__24_t9 = {};
    v__24_t5 = v_out.shape[0];
    if ((((((((((((((((((long)((long)v__24_t5 > (long)((long)0L) ? v__24_t5 : ((long)0L))) >= ((long)-1099511627776L))) & ((((long)((long)v__24_t5 > (long)((long)0L) ? v__24_t5 : ((long)0L))) <= ((long)1099511627776L))))) & ((((long)((ulong)((long)0L) + (ulong)((long)0L))) >= ((long)0L))))) & ((((long)((ulong)((long)0L) + (ulong)((long)((ulong)((long)((long)v__24_t5 > (long)((long)0L) ? v__24_t5 : ((long)0L))) - (ulong)((long)1L))))) < v_x.shape[0])))) & ((((long)((ulong)((long)0L) + (ulong)((long)0L))) >= ((long)0L))))) & ((((long)((ulong)((long)0L) + (ulong)((long)((ulong)((long)((long)v__24_t5 > (long)((long)0L) ? v__24_t5 : ((long)0L))) - (ulong)((long)1L))))) < v_y.shape[0])))) & ((((long)((ulong)((long)0L) + (ulong)((long)0L))) >= ((long)0L))))) & ((((long)((ulong)((long)0L) + (ulong)((long)((ulong)((long)((long)v__24_t5 > (long)((long)0L) ? v__24_t5 : ((long)0L))) - (ulong)((long)1L))))) < v_out.shape[0])))) {
        const long hj_n9 = ((long)((long)v__24_t5 > (long)((long)0L) ? v__24_t5 : ((long)0L)));
        for (v__24_i6 = 0; v__24_i6 < hj_n9; v__24_i6++) {
            v_i = v__24_i6;
            v__24_t7 = v_i;
            v__24_t8 = v_i;
            v__24_t9 = v_i;
            v_out.data[(v__24_t9 * v_out.strides[0]) / 4] = ((v_a * v_x.data[(v__24_t7 * v_x.strides[0]) / 4]) + v_y.data[(v__24_t8 * v_y.strides[0]) / 4]);
        }
    } else {
        const long hj_n18 = ((long)((long)v__24_t5 > (long)((long)0L) ? v__24_t5 : ((long)0L)));
        for (v__24_i6 = 0; v__24_i6 < hj_n18; v__24_i6++) {
            v_i = v__24_i6;
            v__24_t7 = ((v_i < ((long)0L)) ? ((long)((ulong)v_i + (ulong)v_x.shape[0])) : v_i);
            if ((((ulong)v__24_t7) >= ((ulong)v_x.shape[0]))) {
                hj_err[0] = 1;  /* IndexError: index {} is out of bounds for axis 0 with size {} */
                hj_err[1] = (long)v_i;
                hj_err[2] = (long)v_x.shape[0];
                return 1;
            }
            v__24_t8 = ((v_i < ((long)0L)) ? ((long)((ulong)v_i + (ulong)v_y.shape[0])) : v_i);
            if ((((ulong)v__24_t8) >= ((ulong)v_y.shape[0]))) {
                hj_err[0] = 1;  /* IndexError: index {} is out of bounds for axis 0 with size {} */
                hj_err[1] = (long)v_i;
                hj_err[2] = (long)v_y.shape[0];
                return 1;
            }
            v__24_t9 = ((v_i < ((long)0L)) ? ((long)((ulong)v_i + (ulong)v_out.shape[0])) : v_i);
            if ((((ulong)v__24_t9) >= ((ulong)v_out.shape[0]))) {
                hj_err[0] = 1;  /* IndexError: index {} is out of bounds for axis 0 with size {} */
                hj_err[1] = (long)v_i;
                hj_err[2] = (long)v_out.shape[0];
                return 1;
            }
            v_out.data[(v__24_t9 * v_out.strides[0]) / 4] = ((v_a * v_x.data[(v__24_t7 * v_x.strides[0]) / 4]) + v_y.data[(v__24_t8 * v_y.strides[0]) / 4]);
        }
    }
    return 0;
}
