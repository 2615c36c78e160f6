/* lt-cuda-pointwise-dtypes.h: the twelve dtypes' element-wise rules, for CUDA
 *
 * Makes OpsBool, OpsUInt8, ... OpsComplex128 (lt-cuda-pointwise-dtype.h):
 * each dtype's storage and computation types and rules, with functions
 * declared as LT_CUDA_OPS_FUNCTION (device functions by default; the
 * standalone kernel test makes host ones to compare with). Expects what
 * lt-kernel-convert.h and lt-kernel-ops.h expect, included before.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#ifndef LT_CUDA_OPS_FUNCTION
#define LT_CUDA_OPS_FUNCTION static __device__ inline
#endif

/* Complex elements as stored: two parts aligned only as one part is.
 * float2 and double2 would be loaded with one 8- or 16-byte access, which
 * faults on the addresses DLPack imports and their complex views may have
 * (a complex64 view of float32 memory is 4-byte aligned). Computation
 * still uses float2 and double2. */
struct LtCudaComplex64
{
  float re, im;
};

struct LtCudaComplex128
{
  double re, im;
};

/* In LtDType's order. */

#define LT_PW_KIND LT_PW_KIND_INT
#define LT_PW_IS_BOOL 1
#define LT_PW_T uint8_t
#define LT_PW_C int
#define LT_PW_R int
#define LT_PW_LOAD(v) ((int) (v))
#define LT_PW_STORE(v) ((uint8_t) ((v) != 0))
#define LT_PW_FN(name) name##_bool
#define LT_CUDA_OPS OpsBool
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_INT
#define LT_PW_IS_BOOL 0
#define LT_PW_T uint8_t
#define LT_PW_C uint8_t
#define LT_PW_R uint8_t
#define LT_PW_LOAD(v) (v)
#define LT_PW_STORE(v) ((uint8_t) (v))
#define LT_PW_FN(name) name##_u8
#define LT_CUDA_OPS OpsUInt8
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_INT
#define LT_PW_IS_BOOL 0
#define LT_PW_T int8_t
#define LT_PW_C int8_t
#define LT_PW_R int8_t
#define LT_PW_LOAD(v) (v)
#define LT_PW_STORE(v) ((int8_t) (v))
#define LT_PW_FN(name) name##_i8
#define LT_CUDA_OPS OpsInt8
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_INT
#define LT_PW_IS_BOOL 0
#define LT_PW_T int16_t
#define LT_PW_C int16_t
#define LT_PW_R int16_t
#define LT_PW_LOAD(v) (v)
#define LT_PW_STORE(v) ((int16_t) (v))
#define LT_PW_FN(name) name##_i16
#define LT_CUDA_OPS OpsInt16
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_INT
#define LT_PW_IS_BOOL 0
#define LT_PW_T int32_t
#define LT_PW_C int32_t
#define LT_PW_R int32_t
#define LT_PW_LOAD(v) (v)
#define LT_PW_STORE(v) ((int32_t) (v))
#define LT_PW_FN(name) name##_i32
#define LT_CUDA_OPS OpsInt32
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_INT
#define LT_PW_IS_BOOL 0
#define LT_PW_T int64_t
#define LT_PW_C int64_t
#define LT_PW_R int64_t
#define LT_PW_LOAD(v) (v)
#define LT_PW_STORE(v) ((int64_t) (v))
#define LT_PW_FN(name) name##_i64
#define LT_CUDA_OPS OpsInt64
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_FLOAT
#define LT_PW_IS_BOOL 0
#define LT_PW_T uint16_t
#define LT_PW_C float
#define LT_PW_R float
#define LT_PW_LOAD(v) lt_half_to_float (v)
#define LT_PW_STORE(v) lt_float16_from_float (v)
#define LT_PW_FN(name) name##_f16
#define LT_CUDA_OPS OpsFloat16
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_FLOAT
#define LT_PW_IS_BOOL 0
#define LT_PW_T uint16_t
#define LT_PW_C float
#define LT_PW_R float
#define LT_PW_LOAD(v) LT_AS_FLOAT ((lt_u32) (v) << 16)
#define LT_PW_STORE(v) lt_bfloat16_from_float (v)
#define LT_PW_FN(name) name##_bf16
#define LT_CUDA_OPS OpsBFloat16
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_FLOAT
#define LT_PW_IS_BOOL 0
#define LT_PW_T float
#define LT_PW_C float
#define LT_PW_R float
#define LT_PW_LOAD(v) (v)
#define LT_PW_STORE(v) (v)
#define LT_PW_FN(name) name##_f32
#define LT_CUDA_OPS OpsFloat32
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_FLOAT
#define LT_PW_IS_BOOL 0
#define LT_PW_T double
#define LT_PW_C double
#define LT_PW_R double
#define LT_PW_LOAD(v) (v)
#define LT_PW_STORE(v) (v)
#define LT_PW_FN(name) name##_f64
#define LT_CUDA_OPS OpsFloat64
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_COMPLEX
#define LT_PW_IS_BOOL 0
#define LT_PW_T LtCudaComplex64
#define LT_PW_C float2
#define LT_PW_R float
#define LT_PW_LOAD(v) make_float2 ((v).re, (v).im)
#define LT_PW_STORE(v) (LtCudaComplex64 { (v).x, (v).y })
#define LT_PW_MAKE(r, i) make_float2 ((r), (i))
#define LT_PW_FN(name) name##_c64
#define LT_CUDA_OPS OpsComplex64
#include "lt-cuda-pointwise-dtype.h"

#define LT_PW_KIND LT_PW_KIND_COMPLEX
#define LT_PW_IS_BOOL 0
#define LT_PW_T LtCudaComplex128
#define LT_PW_C double2
#define LT_PW_R double
#define LT_PW_LOAD(v) make_double2 ((v).re, (v).im)
#define LT_PW_STORE(v) (LtCudaComplex128 { (v).x, (v).y })
#define LT_PW_MAKE(r, i) make_double2 ((r), (i))
#define LT_PW_FN(name) name##_c128
#define LT_CUDA_OPS OpsComplex128
#include "lt-cuda-pointwise-dtype.h"

