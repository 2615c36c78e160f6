/* lt-cuda-pointwise-dtype.h: one dtype's element-wise rules, for CUDA
 *
 * Included by lt-cuda-pointwise.cu once per dtype, with the LT_PW_* macros
 * that lt-kernel-pointwise.h expects defined and LT_CUDA_OPS naming the
 * struct made here: the dtype's types and rules, for the kernel templates
 * to take as a parameter. Undefines the macros again. No include guard:
 * meant to be included many times.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "backends/lt-kernel-pointwise.h"

struct LT_CUDA_OPS
{
  typedef LT_PW_T T;
  typedef LT_PW_C C;
  typedef LT_PW_R R;
  static const int kind = LT_PW_KIND;
  /* The binary op the kernel is compiled for, or -1 for any (FixedOp). */
  static const int fixed_op = -1;

  LT_CUDA_OPS_FUNCTION C load (T v) { return LT_PW_LOAD (v); }
  LT_CUDA_OPS_FUNCTION T store (C v) { return LT_PW_STORE (v); }
  LT_CUDA_OPS_FUNCTION C unary (int op, C x) { return LT_PW_FN (lt_pw_unary) (op, x); }
  LT_CUDA_OPS_FUNCTION int test (int op, C x) { return LT_PW_FN (lt_pw_test) (op, x); }
  LT_CUDA_OPS_FUNCTION int compare (int op, C x, C y)
  {
    return LT_PW_FN (lt_pw_compare) (op, x, y);
  }
  LT_CUDA_OPS_FUNCTION C binary (int op, C x, C y, int64_t alpha_i, C alpha, int use_alpha)
  {
    return LT_PW_FN (lt_pw_binary) (op, x, y, alpha_i, alpha, use_alpha);
  }
  LT_CUDA_OPS_FUNCTION int is_zero (C x) { return LT_PW_FN (lt_pw_is_zero) (x); }
#if LT_PW_KIND != LT_PW_KIND_INT
  LT_CUDA_OPS_FUNCTION C lerp (C x, C y, C w) { return LT_PW_FN (lt_pw_lerp) (x, y, w); }
#else
  /* No lerp for integers, no clamp or real |x| but for complex numbers:
   * the tensor layer never asks. */
  LT_CUDA_OPS_FUNCTION C lerp (C x, C, C) { return x; }
#endif
#if LT_PW_KIND != LT_PW_KIND_COMPLEX
  LT_CUDA_OPS_FUNCTION C clamp (C x, C lo, C hi) { return LT_PW_FN (lt_pw_clamp) (x, lo, hi); }
  LT_CUDA_OPS_FUNCTION R abs_real (C) { return (R) 0; }
#else
  LT_CUDA_OPS_FUNCTION C clamp (C x, C, C) { return x; }
  LT_CUDA_OPS_FUNCTION R abs_real (C x) { return LT_PW_FN (lt_pw_abs) (x); }
#endif
};

#undef LT_PW_KIND
#undef LT_PW_IS_BOOL
#undef LT_PW_T
#undef LT_PW_C
#undef LT_PW_R
#undef LT_PW_LOAD
#undef LT_PW_STORE
#undef LT_PW_MAKE
#undef LT_PW_FN
#undef LT_CUDA_OPS
