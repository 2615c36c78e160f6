/* lt-cpu-reduce.c: the CPU backend's reduce, scan, softmax and compare kernels
 *
 * A reduction sees its output with stride 0 on the reduced dims. The dims
 * are simplified together (lt-layout.h) with the input's strides first, so
 * the innermost dim is the one the input walks fastest; then one of two
 * loop orders keeps the input's memory access sequential:
 *
 *  - inner: the input's fastest dim is reduced. Each output element gets
 *    one accumulator that walks its reduced rows;
 *  - outer: the input's fastest dim is kept (a reduction over dim 0 of a
 *    row-major matrix). A block of output elements along that dim gets a
 *    row of accumulators, and each reduced position adds one input row into
 *    them, instead of striding down columns one output at a time.
 *
 * Accumulators are wide: int64 for integers (wrapping as PyTorch's do), and
 * double for every floating dtype, except contiguous float32 runs of a sum,
 * which go through float lanes in leaves of 512 elements cascaded into
 * double (sum_contiguous_f32 ()): twice the elements a vector, with an
 * error bounded by about 18 float roundings of the magnitudes whatever the
 * length. Float64 rows are summed pairwise so their error grows with log n
 * instead of n. Results never depend on the thread
 * count: work is split into blocks chosen from the sizes alone, and block
 * partials are combined in a fixed order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-cpu-lanes.h"
#include "lt-cpu-loop.h"
#include "lt-cpu-private.h"
#include "lt-threads-private.h"

/* Work below this many elements is not worth a thread. */
#define GRAIN 32768
/* Output elements per block in the outer loop order. */
#define CHUNK 256
/* The same for float sums, whose runs only need a double each: wider runs
 * read longer stretches of each input row (bench/NOTES.md). */
#define SUM_CHUNK 2048

/* The accumulators and their rules, shared with the device backends. */
#include "backends/lt-kernel-host.h"

G_STATIC_ASSERT (LT_KR_SUM == (int) LT_REDUCE_SUM && LT_KR_MIN_INDEX == (int) LT_REDUCE_MIN_INDEX);
G_STATIC_ASSERT (LT_KR_NORM == (int) LT_REDUCE_NORM && LT_KR_LOGSUMEXP == (int) LT_REDUCE_LOGSUMEXP);

typedef LtReduceElem Elem;
typedef LtReduceAcc Acc;

static inline gboolean
dtype_is_integral (LtDType dtype)
{
  return dtype == LT_DTYPE_BOOL || lt_dtype_is_integer (dtype);
}

static inline void
load (LtDType     dtype,
      const char *p,
      Elem       *e)
{
  e->i = 0;
  switch (dtype)
    {
    case LT_DTYPE_BOOL:
      e->i = *(const guint8 *) p != 0;
      break;
    case LT_DTYPE_UINT8:
      e->i = *(const guint8 *) p;
      break;
    case LT_DTYPE_INT8:
      e->i = *(const gint8 *) p;
      break;
    case LT_DTYPE_INT16:
      e->i = *(const gint16 *) p;
      break;
    case LT_DTYPE_INT32:
      e->i = *(const gint32 *) p;
      break;
    case LT_DTYPE_INT64:
      e->i = *(const gint64 *) p;
      break;
    case LT_DTYPE_FLOAT16:
      e->re = lt_float16_to_float (*(const guint16 *) p);
      e->im = 0;
      return;
    case LT_DTYPE_BFLOAT16:
      e->re = lt_bfloat16_to_float (*(const guint16 *) p);
      e->im = 0;
      return;
    case LT_DTYPE_FLOAT32:
      e->re = *(const float *) p;
      e->im = 0;
      return;
    case LT_DTYPE_FLOAT64:
      e->re = *(const double *) p;
      e->im = 0;
      return;
    case LT_DTYPE_COMPLEX64:
      e->re = ((const float *) p)[0];
      e->im = ((const float *) p)[1];
      return;
    case LT_DTYPE_COMPLEX128:
      e->re = ((const double *) p)[0];
      e->im = ((const double *) p)[1];
      return;
    default:
      g_assert_not_reached ();
    }
  e->re = (double) e->i;
  e->im = 0;
}

static inline void
acc_init (const LtReduceParams *params,
          gboolean              integral,
          Acc                  *acc)
{
  lt_reduce_init (params->op, params->p, acc);
}

static inline void
acc_add (const LtReduceParams *params,
         gboolean              integral,
         gboolean              complex,
         Acc                  *acc,
         const Elem           *e,
         gint64                index)
{
  lt_reduce_add (params->op, params->p, integral, complex, acc, e, index);
}

static inline void
acc_combine (const LtReduceParams *params,
             gboolean              integral,
             gboolean              complex,
             Acc                  *acc,
             const Acc            *other)
{
  lt_reduce_combine (params->op, params->p, integral, complex, acc, other);
}

static void
acc_store (const LtReduceParams *params,
           gboolean              integral,
           gboolean              complex,
           const Acc            *acc,
           gint64                count,
           const LtOperand      *dst,
           const LtOperand      *indices,
           gint64                offset)
{
  LtValue value;
  gint64 i;
  double re, im;
  int kind = lt_reduce_result (params->op, params->correction, params->p, integral, complex, acc,
                               count, &i, &re, &im);

  /* A floating result into a real float output, the common case, written
   * directly (a complex one keeps its real part, as below): the LtValue
   * round trip was a third of a short row's time. */
  if ((kind == LT_KR_RESULT_REAL || kind == LT_KR_RESULT_COMPLEX) && indices == NULL
      && dst != NULL && dst->data != NULL)
    {
      if (dst->dtype == LT_DTYPE_FLOAT32)
        {
          ((float *) dst->data)[offset] = (float) re;
          return;
        }
      if (dst->dtype == LT_DTYPE_FLOAT64)
        {
          ((double *) dst->data)[offset] = re;
          return;
        }
    }

  switch (kind)
    {
    case LT_KR_RESULT_INT:
      value = lt_value_from_int64 (i);
      break;
    case LT_KR_RESULT_REAL:
      value = lt_value_from_double (re);
      break;
    default:
      value = lt_value_from_complex (re, im);
      break;
    }

  /* A complex value written to a real dtype keeps its real part, which is
   * what every real input's accumulator holds. */
  if (value.kind == LT_VALUE_COMPLEX && !lt_dtype_is_complex (dst != NULL ? dst->dtype
                                                                         : LT_DTYPE_FLOAT64))
    value = lt_value_from_double (value.re);

  if (dst != NULL && dst->data != NULL)
    lt_value_write (dst->dtype,
                    (char *) dst->data + offset * (gint64) lt_dtype_get_element_size (dst->dtype),
                    value);
  if (indices != NULL && indices->data != NULL)
    ((gint64 *) indices->data)[offset] = acc->n;
}

/* Leaves of the pairwise float64 sums below: four independent sums
 * (scalar, strided) or sixteen (four vectors, contiguous). */
#define F64_LEAF 128
#define F64_LEAF_LANES 256

/* Pairwise sum of @n contiguous float64s in sixteen lanes per leaf: four
 * vector additions in flight, where the strided loop below keeps four
 * scalar ones and waits on each (bench/NOTES.md, section 23). */
LT_CPU_MULTIVERSION static double
sum_contiguous_f64 (const double *v,
                    gint64        n)
{
  LtF64x4 s0 = { 0 }, s1 = { 0 }, s2 = { 0 }, s3 = { 0 };
  double lanes[4], result;
  gint64 k = 0;

  if (n > F64_LEAF_LANES)
    {
      gint64 half = n / 2;

      return sum_contiguous_f64 (v, half) + sum_contiguous_f64 (v + half, n - half);
    }
  for (; k + 16 <= n; k += 16)
    {
      s0 += *(const LtF64x4Unaligned *) (v + k);
      s1 += *(const LtF64x4Unaligned *) (v + k + 4);
      s2 += *(const LtF64x4Unaligned *) (v + k + 8);
      s3 += *(const LtF64x4Unaligned *) (v + k + 12);
    }
  for (; k + 4 <= n; k += 4)
    s0 += *(const LtF64x4Unaligned *) (v + k);
  s0 = (s0 + s1) + (s2 + s3);
  memcpy (lanes, &s0, sizeof lanes);
  result = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
  for (; k < n; k++)
    result += v[k];
  return result;
}

/* Pairwise sum of a float64 row, so rounding grows with log n. */
static double
sum_row_f64 (const char *p,
             gint64      stride,
             gint64      n)
{
  if (stride == (gint64) sizeof (double))
    return sum_contiguous_f64 ((const double *) p, n);
  if (n <= F64_LEAF)
    {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      gint64 k = 0;

      for (; k + 4 <= n; k += 4)
        {
          s0 += *(const double *) (p + k * stride);
          s1 += *(const double *) (p + (k + 1) * stride);
          s2 += *(const double *) (p + (k + 2) * stride);
          s3 += *(const double *) (p + (k + 3) * stride);
        }
      for (; k < n; k++)
        s0 += *(const double *) (p + k * stride);
      return (s0 + s1) + (s2 + s3);
    }
  else
    {
      gint64 half = n / 2;
      return sum_row_f64 (p, stride, half) + sum_row_f64 (p + half * stride, stride, n - half);
    }
}

/* Contiguous float32 rows are summed in float lanes, as PyTorch and NumPy
 * do, since a float lane holds twice the elements of a double one: each
 * leaf of F32_LEAF elements goes into 32 independent float sums (sixteen
 * additions each at most), which are folded in two steps to eight and then
 * added into eight double sums; those are folded pairwise at the end. A
 * leaf's error is then at most about 18 float roundings of the sum of its
 * magnitudes, and the doubles add none worth counting: as bounded as
 * PyTorch's cascade, without its depth. Every clone does the same
 * operations lane by lane (the compiler may not reorder float additions),
 * so results do not depend on the CPU. */
#define F32_LEAF 512

/* The vector of a leaf's tail at @at into the lane sum @s, as if the row
 * were padded with +0 to the leaf's 32 elements: a whole vector as it is,
 * the last part of one through a zeroed copy, nothing past the end. A
 * lane sum starts at +0 and so is never -0 (+0 + -0 is +0), and adding
 * +0 to it would change nothing. */
#define SUM_TAIL_VECTOR_F32(v, at, end, s, TERM)                                \
  G_STMT_START                                                                  \
  {                                                                             \
    gint64 left_ = (end) - (at);                                                \
                                                                                \
    if (left_ >= 8)                                                             \
      (s) += TERM (*(const LtF32x8 *) ((v) + (at)));                            \
    else if (left_ > 0)                                                         \
      {                                                                         \
        float part_[8] = { 0 };                                                 \
                                                                                \
        for (gint64 i_ = 0; i_ < left_; i_++)                                   \
          part_[i_] = (v)[(at) + i_];                                           \
        (s) += TERM (*(const LtF32x8 *) part_);                                 \
      }                                                                         \
  }                                                                             \
  G_STMT_END

/* The terms a float32 row's lanes add: its elements (a sum) or their
 * squares (a 2-norm), in float lanes or in double. */
#define ELEMENT(x) (x)
#define SQUARE(x) ((x) * (x))

/* Whether a leaf's folded float lanes @s must be added again in double:
 * never for a sum, where only a partial that is not finite is; for
 * squares, also where every lane is below 2^-100, 0 included: squares
 * there may have fallen into float's subnormals or below them and lost
 * their bits, which the doubles keep (PyTorch's float32 norm of ten
 * 1e-25 is 0). Where a lane is at or above it, what the leaf's 512
 * squares can lose that way is 2^-41 of the leaf's sum at most. */
#define NEVER_TINY(s) FALSE
#define TINY_SQUARES(s)                                                         \
  __extension__ ({                                                              \
    LtI32x8 tiny_ = (s) < 0x1p-100f;                                            \
    guint64 words_[4];                                                          \
                                                                                \
    memcpy (words_, &tiny_, sizeof words_);                                     \
    (words_[0] & words_[1] & words_[2] & words_[3]) == G_MAXUINT64;             \
  })

/* The four double lanes of a contiguous float32 row of @n elements, each
 * leaf's 32 float sums folded in and added (a macro: a function returning
 * an AVX vector would change its ABI by the clone it is inlined into; the
 * lane sums are four variables, not an array, which GCC zeroed with `rep
 * stosq` for every leaf, most of a short row's time). */
#define SUM_LANES_F32(v, n, d) SUM_TERMS_F32 (v, n, d, ELEMENT, NEVER_TINY)

/* The same for the @TERM of each element, a leaf added again in double
 * where @TINY (its folded lanes) says so or it is not finite. */
#define SUM_TERMS_F32(v, n, d, TERM, TINY)                                      \
  G_STMT_START                                                                  \
  {                                                                             \
    LtF64x4 d1_ = { 0 };                                                        \
    gint64 k_ = 0;                                                              \
                                                                                \
    (d) = d1_;                                                                  \
    while (k_ < (n))                                                            \
      {                                                                         \
        gint64 start_ = k_, end_ = MIN ((n), k_ + F32_LEAF);                    \
        LtF32x8 s0_ = { 0 }, s1_ = { 0 }, s2_ = { 0 }, s3_ = { 0 }, zero_;      \
        LtF32x4 low_, high_;                                                    \
        guint64 bad_[4];                                                        \
                                                                                \
        for (; k_ + 32 <= end_; k_ += 32)                                       \
          {                                                                     \
            s0_ += TERM (*(const LtF32x8 *) ((v) + k_));                        \
            s1_ += TERM (*(const LtF32x8 *) ((v) + k_ + 8));                    \
            s2_ += TERM (*(const LtF32x8 *) ((v) + k_ + 16));                   \
            s3_ += TERM (*(const LtF32x8 *) ((v) + k_ + 24));                   \
          }                                                                     \
        if (k_ < end_)                                                          \
          {                                                                     \
            SUM_TAIL_VECTOR_F32 ((v), k_, end_, s0_, TERM);                     \
            SUM_TAIL_VECTOR_F32 ((v), k_ + 8, end_, s1_, TERM);                 \
            SUM_TAIL_VECTOR_F32 ((v), k_ + 16, end_, s2_, TERM);                \
            SUM_TAIL_VECTOR_F32 ((v), k_ + 24, end_, s3_, TERM);                \
            k_ = end_;                                                          \
          }                                                                     \
        s0_ = (s0_ + s1_) + (s2_ + s3_);                                        \
        /* x - x is NaN where x is not finite. Such a leaf is added again       \
         * in double, element by element: float sums overflow where the         \
         * doubles would not, and a true infinity or NaN stays one. */          \
        zero_ = s0_ - s0_;                                                      \
        zero_ = (LtF32x8) (zero_ != zero_);                                     \
        memcpy (bad_, &zero_, sizeof bad_);                                     \
        if ((bad_[0] | bad_[1] | bad_[2] | bad_[3]) != 0 || TINY (s0_))         \
          {                                                                     \
            LtF64x4 again_ = { 0 };                                             \
                                                                                \
            for (gint64 i_ = start_; i_ < end_; i_++)                           \
              again_[0] += TERM ((double) (v)[i_]);                             \
            (d) += again_;                                                      \
            continue;                                                           \
          }                                                                     \
        memcpy (&low_, &s0_, sizeof low_);                                      \
        memcpy (&high_, (const char *) &s0_ + sizeof low_, sizeof high_);       \
        (d) += __builtin_convertvector (low_, LtF64x4);                         \
        d1_ += __builtin_convertvector (high_, LtF64x4);                        \
      }                                                                         \
    (d) += d1_;                                                                 \
  }                                                                             \
  G_STMT_END

LT_CPU_MULTIVERSION static double
sum_contiguous_f32 (const float *v,
                    gint64       n)
{
  LtF64x4 d;
  double lanes[4];

  SUM_LANES_F32 (v, n, d);
  memcpy (lanes, &d, sizeof lanes);
  return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
}

/* The sums of eight contiguous float32 rows of @n elements, @stride
 * floats apart, into @sums: each row's lanes as sum_contiguous_f32 ()
 * makes them, then their folds four rows at a time, lane k of each row
 * brought together by a transpose, so every sum is the same to the bit
 * as one row's and a short row's horizontal steps are shared. */
LT_CPU_MULTIVERSION static void
sum_8_rows_f32 (const float *v,
                gint64       stride,
                gint64       n,
                double      *sums)
{
  for (int group = 0; group < 2; group++)
    {
      LtF64x4 d[4], low01, high01, low23, high23, t0, t1, t2, t3, folded;

      for (int r = 0; r < 4; r++)
        SUM_LANES_F32 (v + (4 * group + r) * stride, n, d[r]);
      low01 = __builtin_shufflevector (d[0], d[1], 0, 4, 2, 6);
      high01 = __builtin_shufflevector (d[0], d[1], 1, 5, 3, 7);
      low23 = __builtin_shufflevector (d[2], d[3], 0, 4, 2, 6);
      high23 = __builtin_shufflevector (d[2], d[3], 1, 5, 3, 7);
      /* t_k holds lane k of the four rows. */
      t0 = __builtin_shufflevector (low01, low23, 0, 1, 4, 5);
      t2 = __builtin_shufflevector (low01, low23, 2, 3, 6, 7);
      t1 = __builtin_shufflevector (high01, high23, 0, 1, 4, 5);
      t3 = __builtin_shufflevector (high01, high23, 2, 3, 6, 7);
      folded = (t0 + t2) + (t1 + t3);
      memcpy (sums + 4 * group, &folded, sizeof folded);
    }
}

/* Largest and smallest floats in lanes, eight float32s or four float64s
 * (@Ints, the integer lanes of the same width, hold the masks): a lane
 * takes @x where it beats the lane's best, or is NaN; nothing beats a NaN,
 * so NaN sticks, as in PyTorch. A tie keeps the earlier element. */

/* A macro: a function returning an AVX vector would change its ABI by the
 * clone it is inlined into. */
#define PICK_LANES(Ints, best, x, max)                                          \
  G_STMT_START                                                                  \
  {                                                                             \
    __typeof__ (best) x_ = (x);                                                 \
    Ints take_ = ((max) ? x_ > (best) : x_ < (best)) | (x_ != x_);              \
                                                                                \
    (best) = (__typeof__ (best)) (((Ints) x_ & take_) | ((Ints) (best) & ~take_)); \
  }                                                                             \
  G_STMT_END

/* The same for one element. */
#define PICK_ONE(best, x, max)                                                  \
  (!isnan (best) && (((max) ? (x) > (best) : (x) < (best)) || isnan (x)) ? (x) : (best))

/* The same without NaN in the lanes, which a row only needs to know of
 * at its end: two operations a vector fewer. */
#define PICK_NUMBERS(Ints, best, x, max, nans)                                  \
  G_STMT_START                                                                  \
  {                                                                             \
    __typeof__ (best) x_ = (x);                                                 \
    Ints take_ = (max) ? x_ > (best) : x_ < (best);                             \
                                                                                \
    (best) = (__typeof__ (best)) (((Ints) x_ & take_) | ((Ints) (best) & ~take_)); \
    (nans) |= x_ != x_;                                                         \
  }                                                                             \
  G_STMT_END

/* The @lanes lanes (vectors @Vec, as loaded) of the largest (or smallest)
 * of @n >= @lanes contiguous floats in @best, and whether one is NaN in
 * @has_nan. The last vector may overlap the one before: a repeated
 * element changes neither. */
#define EXTREME_LANES(Vec, Ints, lanes, v, n, max, best, has_nan)               \
  G_STMT_START                                                                  \
  {                                                                             \
    __typeof__ (best) b1_ = *(const Vec *) (v), b2_ = b1_, b3_ = b1_;           \
    Ints nans_ = b1_ != b1_;                                                    \
    gint64 k_ = (lanes);                                                        \
    guint64 words_[4];                                                          \
                                                                                \
    G_STATIC_ASSERT (sizeof nans_ == sizeof words_);                            \
    (best) = b1_;                                                               \
    for (; k_ + 4 * (lanes) <= (n); k_ += 4 * (lanes))                          \
      {                                                                         \
        PICK_NUMBERS (Ints, (best), *(const Vec *) ((v) + k_), (max), nans_);   \
        PICK_NUMBERS (Ints, b1_, *(const Vec *) ((v) + k_ + (lanes)), (max), nans_); \
        PICK_NUMBERS (Ints, b2_, *(const Vec *) ((v) + k_ + 2 * (lanes)), (max), nans_); \
        PICK_NUMBERS (Ints, b3_, *(const Vec *) ((v) + k_ + 3 * (lanes)), (max), nans_); \
      }                                                                         \
    for (; k_ + (lanes) <= (n); k_ += (lanes))                                  \
      PICK_NUMBERS (Ints, (best), *(const Vec *) ((v) + k_), (max), nans_);     \
    if (k_ < (n))                                                               \
      PICK_NUMBERS (Ints, (best), *(const Vec *) ((v) + (n) - (lanes)), (max), nans_); \
    PICK_NUMBERS (Ints, (best), b1_, (max), nans_);                             \
    PICK_NUMBERS (Ints, b2_, b3_, (max), nans_);                                \
    PICK_NUMBERS (Ints, (best), b2_, (max), nans_);                             \
    memcpy (words_, &nans_, sizeof words_);                                     \
    (has_nan) = (words_[0] | words_[1] | words_[2] | words_[3]) != 0;           \
  }                                                                             \
  G_STMT_END

/* The largest (or smallest) of @n >= 8 contiguous float32s, or NaN if one
 * is; a zero result may be either zero (callers that care look for the
 * first). */
LT_CPU_MULTIVERSION static float
extreme_contiguous_f32 (const float *v,
                        gint64       n,
                        gboolean     max)
{
  LtF32x8 b0;
  LtI32x8 nans = { 0 };
  gboolean has_nan;
  float lanes[8];

  EXTREME_LANES (LtF32x8, LtI32x8, 8, v, n, max, b0, has_nan);
  if (has_nan)
    return NAN;
  /* Across the lanes by halves, in the vectors (a scalar loop here was
   * most of a short row's time). */
  PICK_NUMBERS (LtI32x8, b0, __builtin_shufflevector (b0, b0, 4, 5, 6, 7, 0, 1, 2, 3), max, nans);
  PICK_NUMBERS (LtI32x8, b0, __builtin_shufflevector (b0, b0, 2, 3, 0, 1, 6, 7, 4, 5), max, nans);
  PICK_NUMBERS (LtI32x8, b0, __builtin_shufflevector (b0, b0, 1, 0, 3, 2, 5, 4, 7, 6), max, nans);
  memcpy (lanes, &b0, sizeof lanes);
  return lanes[0];
}

/* The same for @n >= 4 contiguous float64s, in four lanes. */
LT_CPU_MULTIVERSION static double
extreme_contiguous_f64 (const double *v,
                        gint64        n,
                        gboolean      max)
{
  LtF64x4 b0;
  LtI64x4 nans = { 0 };
  gboolean has_nan;
  double lanes[4];

  EXTREME_LANES (LtF64x4Unaligned, LtI64x4, 4, v, n, max, b0, has_nan);
  if (has_nan)
    return NAN;
  PICK_NUMBERS (LtI64x4, b0, __builtin_shufflevector (b0, b0, 2, 3, 0, 1), max, nans);
  PICK_NUMBERS (LtI64x4, b0, __builtin_shufflevector (b0, b0, 1, 0, 3, 2), max, nans);
  memcpy (lanes, &b0, sizeof lanes);
  return lanes[0];
}

/* The largest (or smallest) of each of eight rows of @n >= 8 contiguous
 * float32s, @stride floats apart, into @best, as extreme_contiguous_f32 ()
 * finds one row's: the rows' lanes folded together, lane r of the result
 * from row r, by a transposing tree of three steps (seven picks for the
 * eight rows, where one row's fold takes three). */
LT_CPU_MULTIVERSION static void
extremes_8_rows_f32 (const float *v,
                     gint64       stride,
                     gint64       n,
                     gboolean     max,
                     float       *best)
{
  LtF32x8 b[8], c[4], d[2], e;
  LtI32x8 nans = { 0 };
  gboolean has_nan[8];

  for (int r = 0; r < 8; r++)
    EXTREME_LANES (LtF32x8, LtI32x8, 8, v + r * stride, n, max, b[r], has_nan[r]);
  /* c[i] holds rows 2i and 2i + 1, lanes paired; d[i] rows 4i to 4i + 3. */
  for (int i = 0; i < 4; i++)
    {
      c[i] = __builtin_shufflevector (b[2 * i], b[2 * i + 1], 0, 8, 2, 10, 4, 12, 6, 14);
      PICK_NUMBERS (LtI32x8, c[i], __builtin_shufflevector (b[2 * i], b[2 * i + 1],
                                                            1, 9, 3, 11, 5, 13, 7, 15), max, nans);
    }
  for (int i = 0; i < 2; i++)
    {
      d[i] = __builtin_shufflevector (c[2 * i], c[2 * i + 1], 0, 1, 8, 9, 4, 5, 12, 13);
      PICK_NUMBERS (LtI32x8, d[i], __builtin_shufflevector (c[2 * i], c[2 * i + 1],
                                                            2, 3, 10, 11, 6, 7, 14, 15), max, nans);
    }
  e = __builtin_shufflevector (d[0], d[1], 0, 1, 2, 3, 8, 9, 10, 11);
  PICK_NUMBERS (LtI32x8, e, __builtin_shufflevector (d[0], d[1], 4, 5, 6, 7, 12, 13, 14, 15),
                max, nans);
  memcpy (best, &e, 8 * sizeof (float));
  for (int r = 0; r < 8; r++)
    if (has_nan[r])
      best[r] = NAN;
}

/* find_contiguous_SUFFIX (v, n, x): the first of @n contiguous floats of
 * @type (@lanes at a time, vectors @Vec) that equals @x (or is NaN, for a
 * NaN @x); @x must be there. */
#define FIND_CONTIGUOUS_FUNCTION(SUFFIX, type, Vec, Ints, lanes)                \
  LT_CPU_MULTIVERSION static gint64                                             \
  find_contiguous_##SUFFIX (const type *v,                                      \
                            gint64      n,                                      \
                            type        x)                                      \
  {                                                                             \
    gboolean nan = isnan (x);                                                   \
    gint64 k = 0;                                                               \
                                                                                \
    for (; k + (lanes) <= n; k += (lanes))                                      \
      {                                                                         \
        Vec values = *(const Vec *) (v + k);                                    \
        Ints hit = nan ? values != values : values == x;                        \
        guint64 words[4];                                                       \
                                                                                \
        G_STATIC_ASSERT (sizeof hit == sizeof words);                           \
        memcpy (words, &hit, sizeof words);                                     \
        if ((words[0] | words[1] | words[2] | words[3]) != 0)                   \
          break;                                                                \
      }                                                                         \
    for (; k < n; k++)                                                          \
      if (nan ? isnan (v[k]) : v[k] == x)                                       \
        return k;                                                               \
    g_assert_not_reached ();                                                    \
  }

FIND_CONTIGUOUS_FUNCTION (f32, float, LtF32x8, LtI32x8, 8)
FIND_CONTIGUOUS_FUNCTION (f64, double, LtF64x4Unaligned, LtI64x4, 4)

/* pick_row_SUFFIX (best, row, n, max): best[k] = the larger (or smaller)
 * of best[k] and row[k], NaN sticking.
 *
 * pick_row_groups_SUFFIX (best, first, stride, n_rows, n, max): best[k] =
 * the largest (or smallest) of best[k] and the rows' k-th elements, NaN
 * sticking, for @n_rows rows @stride bytes apart from @first, eight at a
 * time in registers: best[] read and written once per eight rows, and one
 * call per block of rows. The rows are taken in order, so a tie keeps the
 * earlier element as one row at a time would.
 *
 * For floats of @type, @lanes at a time in vectors @Vec. */
#define PICK_ROW_FUNCTIONS(SUFFIX, type, Vec, Ints, lanes)                      \
  LT_CPU_MULTIVERSION static void                                               \
  pick_row_##SUFFIX (type *restrict best,                                       \
                     const type    *row,                                        \
                     gint64         n,                                          \
                     gboolean       max)                                        \
  {                                                                             \
    gint64 k = 0;                                                               \
                                                                                \
    for (; k + (lanes) <= n; k += (lanes))                                      \
      PICK_LANES (Ints, *(Vec *) (best + k), *(const Vec *) (row + k), max);    \
    for (; k < n; k++)                                                          \
      best[k] = PICK_ONE (best[k], row[k], max);                                \
  }                                                                             \
                                                                                \
  LT_CPU_MULTIVERSION static void                                               \
  pick_row_groups_##SUFFIX (type *restrict best,                                \
                            const char    *first,                               \
                            gint64         stride,                              \
                            gint64         n_rows,                              \
                            gint64         n,                                   \
                            gboolean       max)                                 \
  {                                                                             \
    gint64 row = 0;                                                             \
                                                                                \
    for (; row + 8 <= n_rows; row += 8)                                         \
      {                                                                         \
        const char *rows = first + row * stride;                                \
        gint64 k = 0;                                                           \
                                                                                \
        for (; k + (lanes) <= n; k += (lanes))                                  \
          {                                                                     \
            const char *at = rows + k * (gint64) sizeof (type);                 \
            Vec b = *(const Vec *) (best + k);                                  \
            Vec x0 = *(const Vec *) at, x1 = *(const Vec *) (at + stride);      \
            Vec x2 = *(const Vec *) (at + 2 * stride);                          \
            Vec x3 = *(const Vec *) (at + 3 * stride);                          \
            Vec x4 = *(const Vec *) (at + 4 * stride);                          \
            Vec x5 = *(const Vec *) (at + 5 * stride);                          \
            Vec x6 = *(const Vec *) (at + 6 * stride);                          \
            Vec x7 = *(const Vec *) (at + 7 * stride);                          \
                                                                                \
            /* A tree, each pick's earlier rows on the left, so that a tie */   \
            /* still keeps the earliest: four picks deep, not eight.       */   \
            PICK_LANES (Ints, x0, x1, max);                                     \
            PICK_LANES (Ints, x2, x3, max);                                     \
            PICK_LANES (Ints, x4, x5, max);                                     \
            PICK_LANES (Ints, x6, x7, max);                                     \
            PICK_LANES (Ints, x0, x2, max);                                     \
            PICK_LANES (Ints, x4, x6, max);                                     \
            PICK_LANES (Ints, x0, x4, max);                                     \
            PICK_LANES (Ints, b, x0, max);                                      \
            *(Vec *) (best + k) = b;                                            \
          }                                                                     \
        for (; k < n; k++)                                                      \
          for (int q = 0; q < 8; q++)                                           \
            best[k] = PICK_ONE (best[k], ((const type *) (rows + q * stride))[k], max); \
      }                                                                         \
    for (; row < n_rows; row++)                                                 \
      pick_row_##SUFFIX (best, (const type *) (first + row * stride), n, max);  \
  }

PICK_ROW_FUNCTIONS (f32, float, LtF32x8, LtI32x8, 8)
PICK_ROW_FUNCTIONS (f64, double, LtF64x4Unaligned, LtI64x4, 4)

/* The sum of the squares of @n floats (the 2-norm of a row), as
 * sum_contiguous_f32 () sums a row: squares in float lanes, each leaf's
 * folded into double (eight floats a step where squaring in double took
 * 32 conversions, products and sums for 32 floats). A leaf's error is
 * then at most about 18 float roundings of its sum, whose terms are all
 * positive: 9 of the norm's, against PyTorch's float32 norm, whose
 * running float sum drifts by hundreds of ulps down long rows
 * (bench/NOTES.md, section 23). Leaves whose squares overflow float or
 * fall into its subnormals are squared again in double. */
LT_CPU_MULTIVERSION static double
squares_f32 (const float *v,
             gint64       n)
{
  LtF64x4 d;
  double lanes[4];

  SUM_TERMS_F32 (v, n, d, SQUARE, TINY_SQUARES);
  memcpy (lanes, &d, sizeof lanes);
  return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
}

/* One reduced position of the index ops down columns: element k of @row
 * (@step bytes apart) takes best[k] and where[k] by the accumulators' own
 * rule (NaN first, then ties to the lower index), without a load or a
 * dispatch per element. */
LT_CPU_MULTIVERSION static void
pick_index_row (double *restrict best,
                gint64 *restrict where,
                const char      *row,
                gint64           step,
                gboolean         f32,
                gint64           n,
                gboolean         max,
                gint64           index)
{
  for (gint64 k = 0; k < n; k++)
    {
      double x = f32 ? *(const float *) (row + k * step) : *(const double *) (row + k * step);

      if (lt_reduce_float_wins (max, x, index, best[k], where[k]))
        {
          best[k] = x;
          where[k] = index;
        }
    }
}

/* Variance in two passes: the mean m from the sum, then the deviations
 * d = x - m of each element, in double. The run's sum of squares is
 * sum (d^2) - (sum d)^2 / n, whose second term takes out what the error
 * of m would add (the corrected two-pass algorithm of Chan, Golub and
 * LeVeque), so a float32 sum's rounding costs the variance nothing. */
typedef struct
{
  double sum, squares;
} Deviations;

LT_CPU_MULTIVERSION static Deviations
deviations_f32 (const float *v,
                gint64       n,
                double       mean)
{
  LtF64x4 m = { mean, mean, mean, mean }, s0 = { 0 }, s1 = { 0 }, q0 = { 0 }, q1 = { 0 };
  Deviations result = { 0, 0 };
  double lanes[4], squares[4];
  gint64 k = 0;

  for (; k + 8 <= n; k += 8)
    {
      LtF32x4 low, high;
      LtF64x4 d0, d1;

      memcpy (&low, v + k, sizeof low);
      memcpy (&high, v + k + 4, sizeof high);
      d0 = __builtin_convertvector (low, LtF64x4) - m;
      d1 = __builtin_convertvector (high, LtF64x4) - m;
      s0 += d0;
      s1 += d1;
      q0 += d0 * d0;
      q1 += d1 * d1;
    }
  s0 += s1;
  q0 += q1;
  memcpy (lanes, &s0, sizeof lanes);
  memcpy (squares, &q0, sizeof squares);
  result.sum = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
  result.squares = (squares[0] + squares[2]) + (squares[1] + squares[3]);
  for (; k < n; k++)
    {
      double d = v[k] - mean;

      result.sum += d;
      result.squares += d * d;
    }
  return result;
}

LT_CPU_MULTIVERSION static Deviations
deviations_f64 (const double *v,
                gint64        n,
                double        mean)
{
  double s[4] = { 0 }, q[4] = { 0 };
  Deviations result = { 0, 0 };
  gint64 k = 0;

  for (; k + 4 <= n; k += 4)
    for (int j = 0; j < 4; j++)
      {
        double d = v[k + j] - mean;

        s[j] += d;
        q[j] += d * d;
      }
  result.sum = (s[0] + s[2]) + (s[1] + s[3]);
  result.squares = (q[0] + q[2]) + (q[1] + q[3]);
  for (; k < n; k++)
    {
      double d = v[k] - mean;

      result.sum += d;
      result.squares += d * d;
    }
  return result;
}

/* The Welford partial (count, mean, sum of squares) of a contiguous run. */
static LtReduceAcc
variance_run (const char *p,
              gboolean    f32,
              gint64      n)
{
  LtReduceAcc part = { 0 };
  double mean = (f32 ? sum_contiguous_f32 ((const float *) p, n)
                     : sum_row_f64 (p, sizeof (double), n)) / (double) n;
  Deviations d = f32 ? deviations_f32 ((const float *) p, n, mean)
                     : deviations_f64 ((const double *) p, n, mean);

  part.n = n;
  part.re = mean + d.sum / (double) n;
  part.m2 = d.squares - d.sum * d.sum / (double) n;
  return part;
}

/* The same down columns: sum[k] += row[k] - mean[k], squares[k] += its
 * square. */
LT_CPU_MULTIVERSION static void
add_deviations_f32 (double *restrict       sum,
                    double *restrict       squares,
                    const double *restrict mean,
                    const float           *row,
                    gint64                 n)
{
  for (gint64 k = 0; k < n; k++)
    {
      double d = row[k] - mean[k];

      sum[k] += d;
      squares[k] += d * d;
    }
}

LT_CPU_MULTIVERSION static void
add_deviations_f64 (double *restrict       sum,
                    double *restrict       squares,
                    const double *restrict mean,
                    const double          *row,
                    gint64                 n)
{
  for (gint64 k = 0; k < n; k++)
    {
      double d = row[k] - mean[k];

      sum[k] += d;
      squares[k] += d * d;
    }
}

/* squares[k] += row[k]^2, in double: the 2-norm down columns. */
LT_CPU_MULTIVERSION static void
add_squares_f32 (double *restrict squares,
                 const float     *row,
                 gint64           n)
{
  for (gint64 k = 0; k < n; k++)
    squares[k] += (double) row[k] * row[k];
}

LT_CPU_MULTIVERSION static void
add_squares_f64 (double *restrict squares,
                 const double    *row,
                 gint64           n)
{
  for (gint64 k = 0; k < n; k++)
    squares[k] += row[k] * row[k];
}

/* Strided float32 rows, which wait on their loads anyway, accumulate in
 * double: 29 more bits than the elements. */
static double
sum_row_f32 (const char *p,
             gint64      stride,
             gint64      n)
{
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  gint64 k = 0;

  if (stride == (gint64) sizeof (float))
    return sum_contiguous_f32 ((const float *) p, n);
  for (; k + 4 <= n; k += 4)
    {
      s0 += *(const float *) (p + k * stride);
      s1 += *(const float *) (p + (k + 1) * stride);
      s2 += *(const float *) (p + (k + 2) * stride);
      s3 += *(const float *) (p + (k + 3) * stride);
    }
  for (; k < n; k++)
    s0 += *(const float *) (p + k * stride);
  return (s0 + s1) + (s2 + s3);
}

/* sums[k] += row[k]: one reduced row added into a block of outputs. */
LT_CPU_MULTIVERSION static void
add_row_f32 (double *restrict sums,
             const char  *row,
             gint64       stride,
             gint64       n)
{
  if (stride == (gint64) sizeof (float))
    for (gint64 k = 0; k < n; k++)
      sums[k] += ((const float *) row)[k];
  else
    for (gint64 k = 0; k < n; k++)
      sums[k] += *(const float *) (row + k * stride);
}

/* partial[k] += ((r0[k] + r1[k]) + (r2[k] + r3[k])) + ((r4[k] + ...)), in
 * float lanes: eight reduced rows per pass over the partial sums, which
 * the caller adds into doubles every CASCADE_GROUPS passes. A column's
 * error is then at most about 3 + CASCADE_GROUPS float roundings of the
 * sum of its magnitudes, as bounded as a row's (sum_contiguous_f32 ()),
 * at a quarter of the instructions of adding in double. */
#define CASCADE_GROUPS 16

static inline void
add_8_rows_f32 (float *restrict partial,
                const char     *const rows[8],
                gint64          n)
{
  const float *restrict r0 = (const float *) rows[0], *restrict r1 = (const float *) rows[1];
  const float *restrict r2 = (const float *) rows[2], *restrict r3 = (const float *) rows[3];
  const float *restrict r4 = (const float *) rows[4], *restrict r5 = (const float *) rows[5];
  const float *restrict r6 = (const float *) rows[6], *restrict r7 = (const float *) rows[7];

  for (gint64 k = 0; k < n; k++)
    partial[k] += ((r0[k] + r1[k]) + (r2[k] + r3[k])) + ((r4[k] + r5[k]) + (r6[k] + r7[k]));
}

/* sums[k] += partial[k], and the partial sums back to +0. A partial sum
 * that is not finite is added again in double from the @n_rows rows it
 * summed: float sums can overflow where the doubles would not (3e38 +
 * 3e38 - 3e38 - 3e38 is NaN in float, 0 in double, as the GPU's column
 * sums give), and a true infinity or NaN comes out of the doubles too. */
static inline void
flush_partial_f32 (double *restrict   sums,
                   float *restrict    partial,
                   gint64             n,
                   const char *const *rows,
                   gint64             n_rows)
{
  for (gint64 k = 0; k < n; k++)
    {
      if (isfinite (partial[k]))
        sums[k] += partial[k];
      else
        {
          double again = 0;

          for (gint64 i = 0; i < n_rows; i++)
            again += ((const float *) rows[i])[k];
          sums[k] += again;
        }
      partial[k] = 0;
    }
}

/* The group of eight rows at span[*in_span] into @partial, flushed into
 * @sums when the span is full (CASCADE_GROUPS groups): one step of the
 * cascade, whichever way the rows were found. */
static inline void
add_group_f32 (double *restrict sums,
               float *restrict  partial,
               const char     **span,
               gint64          *in_span,
               gint64           n)
{
  add_8_rows_f32 (partial, span + *in_span, n);
  *in_span += 8;
  if (*in_span == 8 * CASCADE_GROUPS)
    {
      flush_partial_f32 (sums, partial, n, span, *in_span);
      *in_span = 0;
    }
}

/* @n_groups groups of eight rows @stride bytes apart from @first, each of
 * @n contiguous floats, into @sums through @partial as the caller's loop
 * would add them (flushed every CASCADE_GROUPS groups and at the end),
 * in one call: narrow rows spent more time in that loop's calls and
 * steps through the dims than in adding. */
LT_CPU_MULTIVERSION static void
add_row_groups_f32 (double *restrict sums,
                    float *restrict  partial,
                    const char      *first,
                    gint64           stride,
                    gint64           n_groups,
                    gint64           n)
{
  const char *span[8 * CASCADE_GROUPS];
  gint64 in_span = 0;

  for (gint64 g = 0; g < n_groups; g++)
    {
      for (int q = 0; q < 8; q++)
        span[in_span + q] = first + (8 * g + q) * stride;
      add_group_f32 (sums, partial, span, &in_span, n);
    }
  if (in_span > 0)
    flush_partial_f32 (sums, partial, n, span, in_span);
}

LT_CPU_MULTIVERSION static void
add_row_f64 (double *restrict sums,
             const char  *row,
             gint64       stride,
             gint64       n)
{
  if (stride == (gint64) sizeof (double))
    for (gint64 k = 0; k < n; k++)
      sums[k] += ((const double *) row)[k];
  else
    for (gint64 k = 0; k < n; k++)
      sums[k] += *(const double *) (row + k * stride);
}

/* Float64 sums down columns, pairwise, as a row's are (one row after
 * another in double drifts far more than PyTorch's cascade; bench/NOTES.md,
 * section 23): eight rows at a time summed as a tree into a group, and
 * the groups combined as a binary counter combines its bits. Level j
 * holds the sum of 2^j groups while bit j of @groups is set; a new group
 * carries up through the full levels into the first empty one. A block's
 * column is then within about 3 + log2 (groups) + 2 roundings of the sum
 * of its magnitudes; the blocks of a tall matrix (16 at most) are then
 * added in turn. */
typedef struct
{
  double *levels;  /* level j: levels + j * n */
  guint64 groups;  /* groups so far */
  gint64 n;        /* columns */
} ColumnCascade;

/* The number of levels a cascade of up to @n_rows rows needs. */
static guint
column_cascade_levels (gint64 n_rows)
{
  return g_bit_storage ((gulong) (n_rows / 8 + 1)) + 1;
}

/* out[k] = ((r0[k] + r1[k]) + (r2[k] + r3[k])) + ((r4[k] + ...)), the
 * rows' elements @step bytes apart; rows past @n_rows (< 8) count as 0.
 * Where @below is not NULL, out[k] = below[k] + that: the first carry
 * in the same pass. */
LT_CPU_MULTIVERSION static void
sum_8_rows_f64 (double *restrict       out,
                const double *restrict below,
                const char *const     *rows,
                int                    n_rows,
                gint64                 step,
                gint64                 n)
{
  if (n_rows == 8 && step == (gint64) sizeof (double))
    {
      const double *restrict r0 = (const double *) rows[0], *restrict r1 = (const double *) rows[1];
      const double *restrict r2 = (const double *) rows[2], *restrict r3 = (const double *) rows[3];
      const double *restrict r4 = (const double *) rows[4], *restrict r5 = (const double *) rows[5];
      const double *restrict r6 = (const double *) rows[6], *restrict r7 = (const double *) rows[7];

      if (below != NULL)
        for (gint64 k = 0; k < n; k++)
          out[k] = below[k] + (((r0[k] + r1[k]) + (r2[k] + r3[k]))
                               + ((r4[k] + r5[k]) + (r6[k] + r7[k])));
      else
        for (gint64 k = 0; k < n; k++)
          out[k] = ((r0[k] + r1[k]) + (r2[k] + r3[k])) + ((r4[k] + r5[k]) + (r6[k] + r7[k]));
      return;
    }
  for (gint64 k = 0; k < n; k++)
    {
      double x[8] = { 0 }, group;

      for (int q = 0; q < n_rows; q++)
        x[q] = *(const double *) (rows[q] + k * step);
      group = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
      out[k] = below != NULL ? below[k] + group : group;
    }
}

/* level[k] = below[k] + level[k], a carry. */
LT_CPU_MULTIVERSION static void
carry_level_f64 (double *restrict       level,
                 const double *restrict below,
                 gint64                 n)
{
  for (gint64 k = 0; k < n; k++)
    level[k] = below[k] + level[k];
}

/* A group of @n_rows <= 8 rows into @c. */
static void
column_cascade_add (ColumnCascade     *c,
                    const char *const *rows,
                    int                n_rows,
                    gint64             step)
{
  /* The first empty level takes the group, then the full ones below it,
   * lowest first, and they are empty again. */
  guint empty = (guint) __builtin_ctzll (~c->groups);
  double *target = c->levels + empty * c->n;

  sum_8_rows_f64 (target, empty > 0 ? c->levels : NULL, rows, n_rows, step, c->n);
  for (guint j = 1; j < empty; j++)
    carry_level_f64 (target, c->levels + j * c->n, c->n);
  c->groups++;
}

/* sums[k] = the sum of the full levels, lowest first, added to +0 as
 * every sum starts: a column of -0 sums to +0, as in PyTorch, whatever
 * the number of its rows. */
static void
column_cascade_finish (const ColumnCascade *c,
                       double              *sums)
{
  memset (sums, 0, (gsize) c->n * sizeof (double));
  for (guint j = 0; j < 64 && c->groups >> j != 0; j++)
    if (c->groups >> j & 1)
      carry_level_f64 (sums, c->levels + j * c->n, c->n);
}

/* The loop: dims outermost first, each with the input's byte stride, the
 * output's element stride (0 on reduced dims) and the row-major index
 * stride over the reduced dims (0 on kept dims). */
typedef struct
{
  guint n;
  gint64 sizes[LT_MAX_DIMS];
  gint64 src[LT_MAX_DIMS];
  gint64 dst[LT_MAX_DIMS];
  gint64 idx[LT_MAX_DIMS];
} Dims;

typedef struct
{
  const LtReduceParams *params;
  const LtOperand *dst;
  const LtOperand *indices;
  const char *src;
  LtDType src_dtype;
  gsize src_size;
  gboolean integral;
  gboolean complex;
  Dims kept;     /* at least one dim */
  Dims reduced;  /* at least one dim */
  gint64 n_out;  /* elements of the output */
  gint64 count;  /* elements reduced into each */
  gint64 blocks; /* pieces each output's reduction is split into */
  gint64 chunk;  /* outputs per run in the outer loop order */
  Acc *partials; /* n_out * blocks, or units * blocks * chunk, when blocks > 1 */
} Reduction;

static void
dims_add (Dims  *dims,
          gint64 size,
          gint64 src,
          gint64 dst,
          gint64 idx)
{
  dims->sizes[dims->n] = size;
  dims->src[dims->n] = src;
  dims->dst[dims->n] = dst;
  dims->idx[dims->n] = idx;
  dims->n++;
}

/* The offsets of position @pos (row-major) of @dims. */
static void
dims_seek (const Dims *dims,
           gint64      pos,
           gint64     *counters,
           gint64     *src,
           gint64     *dst,
           gint64     *idx)
{
  *src = *dst = *idx = 0;
  for (guint d = dims->n; d-- > 0;)
    {
      counters[d] = pos % dims->sizes[d];
      pos /= dims->sizes[d];
      *src += counters[d] * dims->src[d];
      *dst += counters[d] * dims->dst[d];
      *idx += counters[d] * dims->idx[d];
    }
}

/* Steps the dims [0, n) of @dims by one position; FALSE after the last. */
static inline gboolean
dims_next (const Dims *dims,
           guint       n,
           gint64     *counters,
           gint64     *src,
           gint64     *dst,
           gint64     *idx)
{
  for (guint d = n; d-- > 0;)
    {
      *src += dims->src[d];
      *dst += dims->dst[d];
      *idx += dims->idx[d];
      if (++counters[d] < dims->sizes[d])
        return TRUE;
      *src -= dims->src[d] * dims->sizes[d];
      *dst -= dims->dst[d] * dims->sizes[d];
      *idx -= dims->idx[d] * dims->sizes[d];
      counters[d] = 0;
    }
  return FALSE;
}

static void
reduce_row (const Reduction *r,
            Acc             *acc,
            const char      *p,
            gint64           stride,
            gint64           n,
            gint64           index,
            gint64           index_stride)
{
  const LtReduceParams *params = r->params;

  if ((params->op == LT_REDUCE_SUM || params->op == LT_REDUCE_MEAN)
      && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64))
    {
      acc->re += r->src_dtype == LT_DTYPE_FLOAT32 ? sum_row_f32 (p, stride, n)
                                                  : sum_row_f64 (p, stride, n);
      return;
    }

  if ((params->op == LT_REDUCE_VAR || params->op == LT_REDUCE_STD)
      && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64)
      && stride == (gint64) r->src_size && n > 0)
    {
      LtReduceAcc part = variance_run (p, r->src_dtype == LT_DTYPE_FLOAT32, n);

      lt_reduce_welford_combine (acc, &part);
      return;
    }

  if (params->op == LT_REDUCE_NORM && params->p == 2
      && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64)
      && stride == (gint64) r->src_size)
    {
      /* The 2-norm's squares in double lanes (float64: the deviations
       * from 0). */
      acc->re += r->src_dtype == LT_DTYPE_FLOAT32 ? squares_f32 ((const float *) p, n)
                                                  : deviations_f64 ((const double *) p, n, 0).squares;
      acc->n += n;
      return;
    }

  if ((params->op == LT_REDUCE_AMAX || params->op == LT_REDUCE_AMIN
       || params->op == LT_REDUCE_MAX_INDEX || params->op == LT_REDUCE_MIN_INDEX)
      && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64))
    {
      /* amax, amin and the index ops on floats: no dispatch per element. */
      gboolean max = params->op == LT_REDUCE_AMAX || params->op == LT_REDUCE_MAX_INDEX;
      gboolean f32 = r->src_dtype == LT_DTYPE_FLOAT32;

      if (stride == (gint64) r->src_size && n >= (f32 ? 8 : 4) && index_stride > 0)
        {
          /* Contiguous rows in lanes, then the first element equal to the
           * result where its index (or the sign of a zero) counts: indices
           * grow along the row, so the first is the lowest. */
          gboolean first = params->op == LT_REDUCE_MAX_INDEX
                           || params->op == LT_REDUCE_MIN_INDEX;
          double x;
          gint64 k = 0;

          if (f32)
            {
              const float *v = (const float *) p;

              x = extreme_contiguous_f32 (v, n, max);
              if (first || x == 0)
                {
                  k = find_contiguous_f32 (v, n, (float) x);
                  x = v[k];
                }
            }
          else
            {
              const double *v = (const double *) p;

              x = extreme_contiguous_f64 (v, n, max);
              if (first || x == 0)
                {
                  k = find_contiguous_f64 (v, n, x);
                  x = v[k];
                }
            }
          if (lt_reduce_float_wins (max, x, index + k * index_stride, acc->re, acc->n))
            {
              acc->re = x;
              acc->n = index + k * index_stride;
            }
          return;
        }

      for (gint64 k = 0; k < n; k++)
        {
          double x = f32 ? *(const float *) (p + k * stride) : *(const double *) (p + k * stride);
          gint64 i = index + k * index_stride;

          if (lt_reduce_float_wins (max, x, i, acc->re, acc->n))
            {
              acc->re = x;
              acc->n = i;
            }
        }
      return;
    }

  for (gint64 k = 0; k < n; k++)
    {
      Elem e;

      load (r->src_dtype, p + k * stride, &e);
      acc_add (params, r->integral, r->complex, acc, &e, index + k * index_stride);
    }
}

/* Adds the reduced positions [begin, end) at input offset @base into @acc. */
static void
reduce_range (const Reduction *r,
              Acc             *acc,
              gint64           base,
              gint64           begin,
              gint64           end)
{
  const Dims *dims = &r->reduced;
  guint inner = dims->n - 1;
  gint64 counters[LT_MAX_DIMS];
  gint64 src, dst, idx;

  dims_seek (dims, begin, counters, &src, &dst, &idx);
  while (begin < end)
    {
      gint64 n = MIN (dims->sizes[inner] - counters[inner], end - begin);

      reduce_row (r, acc, r->src + base + src, dims->src[inner], n, idx, dims->idx[inner]);
      begin += n;
      if (begin >= end)
        break;
      /* Back to the row's start, then one row on. */
      src -= counters[inner] * dims->src[inner];
      idx -= counters[inner] * dims->idx[inner];
      counters[inner] = 0;
      dims_next (dims, inner, counters, &src, &dst, &idx);
    }
}

/* Whether the outputs [j, j + 8) of @r, rows of one kept and one reduced
 * dim, can be reduced eight at a time: float32 sums, amax or amin of
 * contiguous rows into a float32 output. */
static gboolean
takes_8_rows (const Reduction *r)
{
  LtReduceOp op = r->params->op;

  return r->src_dtype == LT_DTYPE_FLOAT32 && r->reduced.src[0] == (gint64) sizeof (float)
         && r->kept.src[0] % (gint64) sizeof (float) == 0 && r->indices == NULL
         && r->dst != NULL && r->dst->data != NULL && r->dst->dtype == LT_DTYPE_FLOAT32
         && (op == LT_REDUCE_SUM
             || ((op == LT_REDUCE_AMAX || op == LT_REDUCE_AMIN) && r->count >= 8));
}

/* Outputs [j, j + 8) of @r, which takes_8_rows (): each the same to the
 * bit as reduce_row () makes it, a zero extreme's sign that of the row's
 * first zero. */
static void
reduce_8_rows (const Reduction *r,
               gint64           j)
{
  const float *v = (const float *) (r->src + j * r->kept.src[0]);
  gint64 stride = r->kept.src[0] / (gint64) sizeof (float);
  float *out = (float *) r->dst->data;
  gint64 out_stride = r->kept.dst[0];

  if (r->params->op == LT_REDUCE_SUM)
    {
      double sums[8];

      sum_8_rows_f32 (v, stride, r->count, sums);
      for (int k = 0; k < 8; k++)
        out[(j + k) * out_stride] = (float) sums[k];
    }
  else
    {
      float best[8];

      extremes_8_rows_f32 (v, stride, r->count, r->params->op == LT_REDUCE_AMAX, best);
      for (int k = 0; k < 8; k++)
        {
          const float *row = v + k * stride;

          out[(j + k) * out_stride] = best[k] == 0
                                        ? row[find_contiguous_f32 (row, r->count, best[k])]
                                        : best[k];
        }
    }
}

/* Item j of the inner loop order: block j % blocks of output j / blocks. */
static void
reduce_inner_items (gint64   begin,
                    gint64   end,
                    gpointer data)
{
  const Reduction *r = data;

  /* One kept dim and one reduced dim, each output reduced whole: rows
   * found by a multiplication, not a seek through the dims (most of the
   * cost of a short row), and eight at a time where they can be. */
  if (r->blocks == 1 && r->kept.n == 1 && r->reduced.n == 1)
    {
      if (takes_8_rows (r))
        for (; begin + 8 <= end; begin += 8)
          reduce_8_rows (r, begin);
      for (gint64 j = begin; j < end; j++)
        {
          Acc acc;

          acc_init (r->params, r->integral, &acc);
          reduce_row (r, &acc, r->src + j * r->kept.src[0], r->reduced.src[0], r->count, 0,
                      r->reduced.idx[0]);
          acc_store (r->params, r->integral, r->complex, &acc, r->count, r->dst, r->indices,
                     j * r->kept.dst[0]);
        }
      return;
    }

  for (gint64 j = begin; j < end; j++)
    {
      gint64 out = j / r->blocks, block = j % r->blocks;
      gint64 counters[LT_MAX_DIMS];
      gint64 src, dst, idx;
      Acc acc;

      dims_seek (&r->kept, out, counters, &src, &dst, &idx);
      acc_init (r->params, r->integral, &acc);
      reduce_range (r, &acc, src, r->count * block / r->blocks,
                    r->count * (block + 1) / r->blocks);
      if (r->blocks > 1)
        r->partials[j] = acc;
      else
        acc_store (r->params, r->integral, r->complex, &acc, r->count, r->dst, r->indices, dst);
    }
}

/* Item j of the outer loop order: block j % blocks of the reduced positions
 * for a run of up to r->chunk output elements along the innermost (kept)
 * dim, run (j / blocks) % chunks at position j / blocks / chunks of the
 * other kept dims. */
static void
reduce_outer_items (gint64   begin,
                    gint64   end,
                    gpointer data)
{
  const Reduction *r = data;
  const Dims *kept = &r->kept, *reduced = &r->reduced;
  guint inner = kept->n - 1;
  gint64 n_inner = kept->sizes[inner];
  gint64 chunks = (n_inner + r->chunk - 1) / r->chunk;
  gint64 src_step = kept->src[inner], dst_step = kept->dst[inner];
  g_autofree Acc *accs = g_new (Acc, r->chunk);
  g_autofree double *sums = g_new (double, r->chunk);
  g_autofree double *deviations = NULL; /* variances: sums and squares */
  g_autofree float *partial = NULL;      /* float32 sums: eight rows' cascade */
  g_autofree gint64 *where = NULL;       /* the index ops' indices */
  g_autofree double *levels = NULL;      /* float64 sums: the cascade's levels */

  for (gint64 j = begin; j < end; j++)
    {
      gint64 unit = j / r->blocks, block = j % r->blocks;
      gint64 first = (unit % chunks) * r->chunk;
      gint64 n = MIN (r->chunk, n_inner - first);
      gint64 pos = r->count * block / r->blocks, stop = r->count * (block + 1) / r->blocks;
      gint64 counters[LT_MAX_DIMS];
      gint64 kc[LT_MAX_DIMS];
      gint64 base, dst, idx, src, unused, index;

      dims_seek (kept, (unit / chunks) * n_inner + first, kc, &base, &dst, &idx);
      dims_seek (reduced, pos, counters, &src, &unused, &index);
      for (gint64 k = 0; k < n; k++)
        acc_init (r->params, r->integral, &accs[k]);

      if ((r->params->op == LT_REDUCE_SUM || r->params->op == LT_REDUCE_MEAN)
          && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64))
        {
          /* The common case, in loops the compiler vectorises; contiguous
           * float32 runs take eight rows a pass into float partial sums,
           * in a grouping fixed by the block's start, so results do not
           * depend on the thread count. */
          gboolean eight_rows = r->src_dtype == LT_DTYPE_FLOAT32 && src_step == sizeof (float);
          const char *span[8 * CASCADE_GROUPS];
          gint64 in_span = 0;

          memset (sums, 0, (gsize) n * sizeof (double));
          if (eight_rows && stop - pos >= 8 && partial == NULL)
            partial = g_new0 (float, r->chunk);
          if (eight_rows && stop - pos >= 8 && reduced->n == 1)
            {
              gint64 n_groups = (stop - pos) / 8;

              add_row_groups_f32 (sums, partial, r->src + base + src, reduced->src[0], n_groups,
                                  n);
              pos += 8 * n_groups;
              dims_seek (reduced, pos, counters, &src, &unused, &index);
            }
          while (eight_rows && stop - pos >= 8)
            {
              for (int q = 0; q < 8; q++)
                {
                  span[in_span + q] = r->src + base + src;
                  dims_next (reduced, reduced->n, counters, &src, &unused, &index);
                }
              add_group_f32 (sums, partial, span, &in_span, n);
              pos += 8;
            }
          if (in_span > 0)
            flush_partial_f32 (sums, partial, n, span, in_span);
          if (r->src_dtype == LT_DTYPE_FLOAT64)
            {
              /* Pairwise, eight rows a group (ColumnCascade); rows one
               * stride apart without a step through the dims each. */
              ColumnCascade cascade = { NULL, 0, n };
              const char *rows[8];

              if (levels == NULL)
                levels = g_new (double,
                                column_cascade_levels (r->count / r->blocks + 1) * r->chunk);
              cascade.levels = levels;
              while (pos < stop)
                {
                  int in_group = (int) MIN (8, stop - pos);

                  for (int q = 0; q < in_group; q++)
                    if (reduced->n == 1)
                      rows[q] = r->src + base + src + q * reduced->src[0];
                    else
                      {
                        rows[q] = r->src + base + src;
                        dims_next (reduced, reduced->n, counters, &src, &unused, &index);
                      }
                  if (reduced->n == 1)
                    src += in_group * reduced->src[0];
                  column_cascade_add (&cascade, rows, in_group, src_step);
                  pos += in_group;
                }
              column_cascade_finish (&cascade, sums);
            }
          else
            for (; pos < stop; pos++)
              {
                add_row_f32 (sums, r->src + base + src, src_step, n);
                dims_next (reduced, reduced->n, counters, &src, &unused, &index);
              }
          for (gint64 k = 0; k < n; k++)
            accs[k].re = sums[k];
        }
      else if ((r->params->op == LT_REDUCE_VAR || r->params->op == LT_REDUCE_STD)
               && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64)
               && src_step == (gint64) r->src_size && stop > pos)
        {
          /* Two passes over the block's rows, as variance_run (): the
           * means, then the deviations from them. */
          gboolean f32 = r->src_dtype == LT_DTYPE_FLOAT32;
          gint64 start = pos;
          double rows = (double) (stop - pos), *deviation_sums, *squares;

          if (deviations == NULL)
            deviations = g_new (double, 2 * r->chunk);
          deviation_sums = deviations;
          squares = deviations + r->chunk;
          memset (sums, 0, (gsize) n * sizeof (double));
          memset (deviations, 0, (gsize) (2 * r->chunk) * sizeof (double));
          for (; pos < stop; pos++)
            {
              if (f32)
                add_row_f32 (sums, r->src + base + src, src_step, n);
              else
                add_row_f64 (sums, r->src + base + src, src_step, n);
              dims_next (reduced, reduced->n, counters, &src, &unused, &index);
            }
          for (gint64 k = 0; k < n; k++)
            sums[k] /= rows;
          dims_seek (reduced, start, counters, &src, &unused, &index);
          for (pos = start; pos < stop; pos++)
            {
              if (f32)
                add_deviations_f32 (deviation_sums, squares, sums,
                                    (const float *) (r->src + base + src), n);
              else
                add_deviations_f64 (deviation_sums, squares, sums,
                                    (const double *) (r->src + base + src), n);
              dims_next (reduced, reduced->n, counters, &src, &unused, &index);
            }
          for (gint64 k = 0; k < n; k++)
            {
              accs[k].n = stop - start;
              accs[k].re = sums[k] + deviation_sums[k] / rows;
              accs[k].m2 = squares[k] - deviation_sums[k] * deviation_sums[k] / rows;
            }
        }
      else if (r->params->op == LT_REDUCE_NORM && r->params->p == 2
               && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64)
               && src_step == (gint64) r->src_size)
        {
          gint64 start = pos;

          memset (sums, 0, (gsize) n * sizeof (double));
          for (; pos < stop; pos++)
            {
              if (r->src_dtype == LT_DTYPE_FLOAT32)
                add_squares_f32 (sums, (const float *) (r->src + base + src), n);
              else
                add_squares_f64 (sums, (const double *) (r->src + base + src), n);
              dims_next (reduced, reduced->n, counters, &src, &unused, &index);
            }
          for (gint64 k = 0; k < n; k++)
            {
              accs[k].re = sums[k];
              accs[k].n = stop - start;
            }
        }
      else if ((r->params->op == LT_REDUCE_AMAX || r->params->op == LT_REDUCE_AMIN)
               && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64))
        {
          /* NaN sticks: no comparison with it is true. */
          gboolean max = r->params->op == LT_REDUCE_AMAX;
          double *best = sums;
          /* Contiguous runs in lanes: float32 in float lanes, in the same
           * room. */
          gboolean f32 = r->src_dtype == LT_DTYPE_FLOAT32;
          gboolean lanes = src_step == (gint64) r->src_size;
          float *best_f32 = (float *) sums;

          for (gint64 k = 0; k < n; k++)
            if (lanes && f32)
              best_f32[k] = (float) accs[k].re;
            else
              best[k] = accs[k].re;
          if (lanes && reduced->n == 1 && f32)
            pick_row_groups_f32 (best_f32, r->src + base + src, reduced->src[0], stop - pos, n,
                                 max);
          else if (lanes && reduced->n == 1)
            pick_row_groups_f64 (best, r->src + base + src, reduced->src[0], stop - pos, n, max);
          else
            do
              {
                const char *row = r->src + base + src;

                if (lanes && f32)
                  pick_row_f32 (best_f32, (const float *) row, n, max);
                else if (lanes)
                  pick_row_f64 (best, (const double *) row, n, max);
                else
                  for (gint64 k = 0; k < n; k++)
                    {
                      double x = r->src_dtype == LT_DTYPE_FLOAT32
                                   ? *(const float *) (row + k * src_step)
                                   : *(const double *) (row + k * src_step);

                      best[k] = PICK_ONE (best[k], x, max);
                    }
                dims_next (reduced, reduced->n, counters, &src, &unused, &index);
              }
            while (++pos < stop);
          for (gint64 k = 0; k < n; k++)
            {
              accs[k].re = lanes && f32 ? best_f32[k] : best[k];
              /* Marks the partial as holding a value, for acc_combine (). */
              accs[k].n = 0;
            }
        }
      else if ((r->params->op == LT_REDUCE_MAX_INDEX || r->params->op == LT_REDUCE_MIN_INDEX)
               && (r->src_dtype == LT_DTYPE_FLOAT32 || r->src_dtype == LT_DTYPE_FLOAT64))
        {
          gboolean max = r->params->op == LT_REDUCE_MAX_INDEX;

          if (where == NULL)
            where = g_new (gint64, r->chunk);
          for (gint64 k = 0; k < n; k++)
            {
              sums[k] = accs[k].re;
              where[k] = accs[k].n;
            }
          do
            {
              pick_index_row (sums, where, r->src + base + src, src_step,
                              r->src_dtype == LT_DTYPE_FLOAT32, n, max, index);
              dims_next (reduced, reduced->n, counters, &src, &unused, &index);
            }
          while (++pos < stop);
          /* As acc_add () leaves a float accumulator that took a value. */
          for (gint64 k = 0; k < n; k++)
            if (where[k] != accs[k].n)
              {
                accs[k].re = sums[k];
                accs[k].n = where[k];
                accs[k].i = 0;
              }
        }
      else
        {
          do
            {
              const char *row = r->src + base + src;

              for (gint64 k = 0; k < n; k++)
                {
                  Elem e;

                  load (r->src_dtype, row + k * src_step, &e);
                  acc_add (r->params, r->integral, r->complex, &accs[k], &e, index);
                }
              dims_next (reduced, reduced->n, counters, &src, &unused, &index);
            }
          while (++pos < stop);
        }

      if (r->blocks > 1)
        memcpy (&r->partials[j * r->chunk], accs, (gsize) n * sizeof (Acc));
      else
        for (gint64 k = 0; k < n; k++)
          acc_store (r->params, r->integral, r->complex, &accs[k], r->count, r->dst, r->indices,
                     dst + k * dst_step);
    }
}

static void
lt_cpu_reduce (const LtReduceParams *params,
               guint                 ndim,
               const gint64         *sizes,
               const LtOperand      *dst,
               const LtOperand      *indices,
               const LtOperand      *src)
{
  gint64 src_strides[LT_MAX_DIMS], dst_strides[LT_MAX_DIMS], idx_strides[LT_MAX_DIMS];
  const gint64 *operands[3] = { src_strides, dst_strides, idx_strides };
  const LtOperand *out = dst != NULL ? dst : indices;
  Reduction r = {
    .params = params,
    .dst = dst,
    .indices = indices,
    .src = src->data,
    .src_dtype = src->dtype,
    .src_size = lt_dtype_get_element_size (src->dtype),
    .integral = dtype_is_integral (src->dtype),
    .complex = lt_dtype_is_complex (src->dtype),
    .n_out = 1,
    .count = 1,
    .blocks = 1,
  };
  gint64 index_stride = 1;
  LtLoopShape shape;

  lt_cpu_byte_strides (ndim, sizes, src->strides, r.src_size, src_strides);
  for (guint d = ndim; d-- > 0;)
    {
      gboolean reduced = out->strides[d] == 0;

      dst_strides[d] = sizes[d] <= 1 ? 0 : out->strides[d];
      idx_strides[d] = reduced && sizes[d] > 1 ? index_stride : 0;
      if (reduced)
        {
          r.count *= sizes[d];
          index_stride *= sizes[d];
        }
      else
        r.n_out *= sizes[d];
    }

  if (r.n_out == 0)
    return;

  if (r.count == 0)
    {
      /* Every output element reduces nothing; the output is contiguous. */
      Acc acc;

      acc_init (params, r.integral, &acc);
      for (gint64 o = 0; o < r.n_out; o++)
        acc_store (params, r.integral, r.complex, &acc, 0, dst, indices, o);
      return;
    }

  lt_loop_shape_init (&shape, ndim, sizes, 3, operands);
  lt_loop_shape_simplify (&shape);
  for (guint d = 0; d < shape.ndim; d++)
    dims_add (shape.strides[1][d] == 0 ? &r.reduced : &r.kept, shape.sizes[d],
              shape.strides[0][d], shape.strides[1][d], shape.strides[2][d]);
  if (r.kept.n == 0)
    dims_add (&r.kept, 1, 0, 0, 0);
  if (r.reduced.n == 0)
    dims_add (&r.reduced, 1, 0, 0, 0);

  if (shape.ndim == 0 || shape.strides[1][shape.ndim - 1] == 0)
    {
      /* A few outputs of many elements each: split each reduction into
       * blocks, their number fixed by the sizes alone. */
      if (r.n_out < 64 && r.count >= 2 * GRAIN)
        r.blocks = MIN (r.count / GRAIN, 256);
      if (r.blocks > 1)
        r.partials = g_new (Acc, r.n_out * r.blocks);

      lt_parallel_for (r.n_out * r.blocks, MAX (1, GRAIN / MAX (1, r.count / r.blocks)),
                       reduce_inner_items, &r);

      if (r.blocks > 1)
        {
          for (gint64 o = 0; o < r.n_out; o++)
            {
              gint64 counters[LT_MAX_DIMS];
              gint64 src_offset, dst_offset, idx;
              Acc *acc = &r.partials[o * r.blocks];

              /* Pairwise, so that a long row's sum (up to 256 blocks)
               * rounds log2 (blocks) times more at most, not blocks. */
              for (gint64 step = 1; step < r.blocks; step *= 2)
                for (gint64 b = 0; b + step < r.blocks; b += 2 * step)
                  acc_combine (params, r.integral, r.complex, &acc[b], &acc[b + step]);
              dims_seek (&r.kept, o, counters, &src_offset, &dst_offset, &idx);
              acc_store (params, r.integral, r.complex, acc, r.count, dst, indices, dst_offset);
            }
          g_free (r.partials);
        }
    }
  else
    {
      gint64 n_inner = r.kept.sizes[r.kept.n - 1];
      gint64 chunks, units, per_unit;
      gboolean float_sum = (params->op == LT_REDUCE_SUM || params->op == LT_REDUCE_MEAN)
                           && (src->dtype == LT_DTYPE_FLOAT32 || src->dtype == LT_DTYPE_FLOAT64);

      r.chunk = (params->op == LT_REDUCE_SUM || params->op == LT_REDUCE_MEAN)
                    && (src->dtype == LT_DTYPE_FLOAT32 || src->dtype == LT_DTYPE_FLOAT64)
                  ? SUM_CHUNK
                  : CHUNK;
      chunks = (n_inner + r.chunk - 1) / r.chunk;
      units = r.n_out / n_inner * chunks;
      per_unit = r.count * MIN (n_inner, r.chunk);

      /* Few runs of many rows each (a tall, narrow matrix reduced over its
       * rows): split the rows into blocks so that there are at least 16
       * pieces of work, their number fixed by the sizes alone. */
      if (units < 16 && per_unit >= 2 * GRAIN)
        r.blocks = MIN (MIN ((16 + units - 1) / units, per_unit / GRAIN), r.count);
      if (r.blocks > 1)
        r.partials = g_new (Acc, units * r.blocks * r.chunk);

      lt_parallel_for (units * r.blocks, MAX (1, GRAIN / MAX (1, per_unit / r.blocks)),
                       reduce_outer_items, &r);

      if (r.blocks > 1)
        {
          for (gint64 u = 0; u < units; u++)
            {
              gint64 first = (u % chunks) * r.chunk;
              gint64 n = MIN (r.chunk, n_inner - first);
              gint64 counters[LT_MAX_DIMS];
              gint64 src_offset, dst_offset, idx;
              Acc *accs = &r.partials[u * r.blocks * r.chunk];

              dims_seek (&r.kept, (u / chunks) * n_inner + first, counters, &src_offset,
                         &dst_offset, &idx);
              if (float_sum)
                /* Sums' partials hold their sum alone: added in place, in
                 * the order acc_combine () would add them, without its
                 * call and dispatch per output (which took longer than
                 * the threads' own work for narrow rows). */
                for (gint64 b = 1; b < r.blocks; b++)
                  {
                    const Acc *others = &r.partials[(u * r.blocks + b) * r.chunk];

                    for (gint64 k = 0; k < n; k++)
                      accs[k].re += others[k].re;
                  }
              else
                for (gint64 b = 1; b < r.blocks; b++)
                  for (gint64 k = 0; k < n; k++)
                    acc_combine (params, r.integral, r.complex, &accs[k],
                                 &r.partials[(u * r.blocks + b) * r.chunk + k]);
              for (gint64 k = 0; k < n; k++)
                acc_store (params, r.integral, r.complex, &accs[k], r.count, dst, indices,
                           dst_offset + k * r.kept.dst[r.kept.n - 1]);
            }
          g_free (r.partials);
        }
    }
}

/* Scans ----------------------------------------------------------------- */

typedef struct
{
  LtScanOp op;
  LtSoftmaxOp softmax_op;
  const LtOperand *dst;
  const LtOperand *src;
  gsize src_size, dst_size;
  gint64 length;          /* along the scanned dim */
  gint64 src_step, dst_step;
  LtLoopShape others;     /* the other dims, simplified, bytes */
  gint64 n_lines;
} Lines;

static void
scan_items (gint64   begin,
            gint64   end,
            gpointer data)
{
  const Lines *s = data;
  const LtReduceParams params = { .op = s->op == LT_SCAN_CUMSUM ? LT_REDUCE_SUM : LT_REDUCE_PROD };
  gboolean integral = dtype_is_integral (s->src->dtype);
  gboolean complex = lt_dtype_is_complex (s->src->dtype);
  const LtLoopShape *o = &s->others;
  guint inner = o->ndim - 1;
  gint64 n_inner = o->sizes[inner];
  gint64 chunks = (n_inner + CHUNK - 1) / CHUNK;
  Acc accs[CHUNK];

  /* The lines of a block of CHUNK neighbours along the others' innermost
   * dim advance together, one input row at a time. */
  for (gint64 j = begin; j < end; j++)
    {
      gint64 first = (j % chunks) * CHUNK;
      gint64 n = MIN (CHUNK, n_inner - first);
      gint64 counters[LT_MAX_DIMS];
      char *bases[2] = { s->dst->data, s->src->data };
      char *ptrs[2];

      lt_cpu_seek_row (o, inner, j / chunks, bases, counters, ptrs);
      ptrs[0] += first * o->strides[0][inner];
      ptrs[1] += first * o->strides[1][inner];
      for (gint64 k = 0; k < n; k++)
        acc_init (&params, integral, &accs[k]);

      for (gint64 t = 0; t < s->length; t++)
        for (gint64 k = 0; k < n; k++)
          {
            Elem e;

            load (s->src->dtype, ptrs[1] + t * s->src_step + k * o->strides[1][inner], &e);
            lt_reduce_scan_add (params.op, integral, complex, &accs[k], &e);
            lt_value_write (s->dst->dtype, ptrs[0] + t * s->dst_step + k * o->strides[0][inner],
                            integral ? lt_value_from_int64 (accs[k].i)
                            : complex ? lt_value_from_complex (accs[k].re, accs[k].im)
                                      : lt_value_from_double (accs[k].re));
          }
    }
}

/* The dims other than @dim of the two operands, simplified in bytes, with
 * a dim of size 1 where none is left. */
static void
lines_init (Lines           *s,
            guint            ndim,
            const gint64    *sizes,
            guint            dim,
            const LtOperand *dst,
            const LtOperand *src)
{
  gint64 other_sizes[LT_MAX_DIMS], dst_strides[LT_MAX_DIMS], src_strides[LT_MAX_DIMS];
  gint64 all_dst[LT_MAX_DIMS], all_src[LT_MAX_DIMS];
  const gint64 *operands[2] = { dst_strides, src_strides };
  guint n = 0;

  s->dst = dst;
  s->src = src;
  s->dst_size = lt_dtype_get_element_size (dst->dtype);
  s->src_size = lt_dtype_get_element_size (src->dtype);
  lt_cpu_byte_strides (ndim, sizes, dst->strides, s->dst_size, all_dst);
  lt_cpu_byte_strides (ndim, sizes, src->strides, s->src_size, all_src);
  for (guint d = 0; d < ndim; d++)
    {
      if (d == dim)
        continue;
      other_sizes[n] = sizes[d];
      dst_strides[n] = all_dst[d];
      src_strides[n] = all_src[d];
      n++;
    }
  s->length = ndim == 0 ? 1 : sizes[dim];
  s->src_step = ndim == 0 ? 0 : all_src[dim];
  s->dst_step = ndim == 0 ? 0 : all_dst[dim];

  lt_loop_shape_init (&s->others, n, other_sizes, 2, operands);
  lt_loop_shape_simplify (&s->others);
  if (s->others.ndim == 0)
    {
      s->others.ndim = 1;
      s->others.sizes[0] = 1;
      s->others.strides[0][0] = 0;
      s->others.strides[1][0] = 0;
    }
  s->n_lines = lt_loop_shape_numel (&s->others);
}

static void
scan (LtScanOp         op,
             guint            ndim,
             const gint64    *sizes,
             guint            dim,
             const LtOperand *dst,
             const LtOperand *src)
{
  Lines s = { .op = op };
  gint64 n_inner, items;

  for (guint d = 0; d < ndim; d++)
    if (sizes[d] == 0)
      return;
  lines_init (&s, ndim, sizes, dim, dst, src);
  n_inner = s.others.sizes[s.others.ndim - 1];
  items = s.n_lines / n_inner * ((n_inner + CHUNK - 1) / CHUNK);
  lt_parallel_for (items, MAX (1, GRAIN / (s.length * MIN (n_inner, CHUNK))), scan_items, &s);
}

/* Softmax --------------------------------------------------------------- */

static inline double
load_real (LtDType     dtype,
           const char *p)
{
  switch (dtype)
    {
    case LT_DTYPE_FLOAT32:
      return *(const float *) p;
    case LT_DTYPE_FLOAT64:
      return *(const double *) p;
    default:
      {
        Elem e;

        load (dtype, p, &e);
        return e.re;
      }
    }
}

static inline void
store_real (LtDType dtype,
            char   *p,
            double  value)
{
  switch (dtype)
    {
    case LT_DTYPE_FLOAT32:
      *(float *) p = (float) value;
      break;
    case LT_DTYPE_FLOAT64:
      *(double *) p = value;
      break;
    default:
      lt_value_write (dtype, p, lt_value_from_double (value));
      break;
    }
}

static void
softmax_items (gint64   begin,
               gint64   end,
               gpointer data)
{
  const Lines *s = data;
  const LtLoopShape *o = &s->others;
  guint n_outer = o->ndim;
  LtDType in_dtype = s->src->dtype, out_dtype = s->dst->dtype;
  gint64 counters[LT_MAX_DIMS];
  char *bases[2] = { s->dst->data, s->src->data };
  char *ptrs[2];
  /* Contiguous float32 lines, in lanes (lt-cpu-exp.c). */
  gboolean lanes = in_dtype == LT_DTYPE_FLOAT32 && out_dtype == LT_DTYPE_FLOAT32
                   && s->src_step == sizeof (float) && s->dst_step == sizeof (float);

  if (begin >= end)
    return;
  lt_cpu_seek_row (o, n_outer, begin, bases, counters, ptrs);
  for (gint64 j = begin; j < end; j++)
    {
      const char *in = ptrs[1];
      char *out = ptrs[0];
      double max = -INFINITY, sum = 0;

      if (lanes)
        {
          lt_cpu_softmax_row_f32 ((float *) out, (const float *) in, s->length,
                                  s->softmax_op == LT_LOG_SOFTMAX);
          lt_cpu_next_row (o, n_outer, counters, ptrs);
          continue;
        }

      /* A NaN anywhere makes the max, and so every result, NaN. */
      for (gint64 t = 0; t < s->length; t++)
        {
          double x = load_real (in_dtype, in + t * s->src_step);

          if (isnan (x) || x > max)
            max = isnan (max) ? max : x;
        }
      if (s->softmax_op == LT_SOFTMAX && out_dtype == LT_DTYPE_FLOAT32)
        {
          /* exp () once per element: the float32 results hold them until
           * the sum is known. */
          double scale;

          for (gint64 t = 0; t < s->length; t++)
            {
              double e = exp (load_real (in_dtype, in + t * s->src_step) - max);

              *(float *) (out + t * s->dst_step) = (float) e;
              sum += e;
            }
          scale = 1 / sum;
          for (gint64 t = 0; t < s->length; t++)
            *(float *) (out + t * s->dst_step) *= (float) scale;
          lt_cpu_next_row (o, n_outer, counters, ptrs);
          continue;
        }

      for (gint64 t = 0; t < s->length; t++)
        sum += exp (load_real (in_dtype, in + t * s->src_step) - max);

      if (s->softmax_op == LT_SOFTMAX)
        {
          double scale = 1 / sum;

          for (gint64 t = 0; t < s->length; t++)
            store_real (out_dtype, out + t * s->dst_step,
                        exp (load_real (in_dtype, in + t * s->src_step) - max) * scale);
        }
      else
        {
          double shift = max + log (sum);

          for (gint64 t = 0; t < s->length; t++)
            store_real (out_dtype, out + t * s->dst_step,
                        load_real (in_dtype, in + t * s->src_step) - shift);
        }
      lt_cpu_next_row (o, n_outer, counters, ptrs);
    }
}

/* Float32 lines down columns whose neighbours along the others' innermost
 * dim are contiguous, in blocks of 16 neighbours. */
#define SOFTMAX_COLUMNS 16

static gboolean
softmax_by_columns (const Lines *s)
{
  guint inner = s->others.ndim - 1;

  return s->src->dtype == LT_DTYPE_FLOAT32 && s->dst->dtype == LT_DTYPE_FLOAT32
         && s->others.strides[0][inner] == sizeof (float)
         && s->others.strides[1][inner] == sizeof (float)
         && s->others.sizes[inner] >= 8
         && s->src_step % sizeof (float) == 0 && s->dst_step % sizeof (float) == 0;
}

static void
softmax_column_items (gint64   begin,
                      gint64   end,
                      gpointer data)
{
  const Lines *s = data;
  const LtLoopShape *o = &s->others;
  guint inner = o->ndim - 1;
  gint64 n_inner = o->sizes[inner];
  gint64 blocks = (n_inner + SOFTMAX_COLUMNS - 1) / SOFTMAX_COLUMNS;

  for (gint64 j = begin; j < end; j++)
    {
      gint64 first = (j % blocks) * SOFTMAX_COLUMNS;
      gint64 counters[LT_MAX_DIMS];
      char *bases[2] = { s->dst->data, s->src->data };
      char *ptrs[2];

      lt_cpu_seek_row (o, inner, j / blocks, bases, counters, ptrs);
      lt_cpu_softmax_columns_f32 ((float *) ptrs[0] + first,
                                  s->dst_step / (gint64) sizeof (float),
                                  (const float *) ptrs[1] + first,
                                  s->src_step / (gint64) sizeof (float), s->length,
                                  MIN (SOFTMAX_COLUMNS, n_inner - first),
                                  s->softmax_op == LT_LOG_SOFTMAX);
    }
}

static void
softmax (LtSoftmaxOp      op,
                guint            ndim,
                const gint64    *sizes,
                guint            dim,
                const LtOperand *dst,
                const LtOperand *src)
{
  Lines s = { .softmax_op = op };

  for (guint d = 0; d < ndim; d++)
    if (sizes[d] == 0)
      return;
  lines_init (&s, ndim, sizes, dim, dst, src);
  if (softmax_by_columns (&s))
    {
      gint64 n_inner = s.others.sizes[s.others.ndim - 1];
      gint64 items = s.n_lines / n_inner * ((n_inner + SOFTMAX_COLUMNS - 1) / SOFTMAX_COLUMNS);

      lt_parallel_for (items, MAX (1, GRAIN / (s.length * SOFTMAX_COLUMNS)),
                       softmax_column_items, &s);
      return;
    }
  lt_parallel_for (s.n_lines, MAX (1, GRAIN / s.length), softmax_items, &s);
}

/* Comparison ------------------------------------------------------------ */

static gboolean
allclose (guint            ndim,
                 const gint64    *sizes,
                 const LtOperand *a,
                 const LtOperand *b,
                 double           rtol,
                 double           atol,
                 gboolean         equal_nan)
{
  gint64 a_strides[LT_MAX_DIMS], b_strides[LT_MAX_DIMS];
  const gint64 *operands[2] = { a_strides, b_strides };
  gboolean integral = dtype_is_integral (a->dtype) && dtype_is_integral (b->dtype);
  gint64 counters[LT_MAX_DIMS] = { 0 };
  char *ptrs[2] = { a->data, b->data };
  LtLoopShape shape;
  guint inner;

  lt_cpu_byte_strides (ndim, sizes, a->strides, lt_dtype_get_element_size (a->dtype), a_strides);
  lt_cpu_byte_strides (ndim, sizes, b->strides, lt_dtype_get_element_size (b->dtype), b_strides);
  lt_loop_shape_init (&shape, ndim, sizes, 2, operands);
  if (lt_loop_shape_numel (&shape) == 0)
    return TRUE;
  lt_loop_shape_simplify (&shape);
  if (shape.ndim == 0)
    {
      shape.ndim = 1;
      shape.sizes[0] = 1;
      shape.strides[0][0] = shape.strides[1][0] = 0;
    }

  inner = shape.ndim - 1;
  do
    for (gint64 k = 0; k < shape.sizes[inner]; k++)
      {
        Elem x, y;

        load (a->dtype, ptrs[0] + k * shape.strides[0][inner], &x);
        load (b->dtype, ptrs[1] + k * shape.strides[1][inner], &y);
        if (integral)
          {
            double diff;

            if (x.i == y.i)
              continue;
            /* At least 1: doubles may round two large int64 together. */
            diff = MAX (fabs ((double) x.i - (double) y.i), 1.0);
            if (!(diff <= atol + rtol * fabs ((double) y.i)))
              return FALSE;
          }
        else if (x.re == y.re && x.im == y.im)
          continue;
        else if ((isnan (x.re) || isnan (x.im)) && (isnan (y.re) || isnan (y.im)))
          {
            if (!equal_nan)
              return FALSE;
          }
        else
          {
            double error = lt_reduce_magnitude (x.re - y.re, x.im - y.im);

            /* An infinite difference is never close, even against an
             * infinite tolerance. */
            if (!isfinite (error) || !(error <= atol + rtol * lt_reduce_magnitude (y.re, y.im)))
              return FALSE;
          }
      }
  while (lt_cpu_next_row (&shape, inner, counters, ptrs));

  return TRUE;
}

static gboolean
cpu_reduce (const LtBackend      *self,
            const LtReduceParams *params,
            guint                 ndim,
            const gint64         *sizes,
            const LtOperand      *dst,
            const LtOperand      *indices,
            const LtOperand      *src,
            GError              **error)
{
  lt_cpu_reduce (params, ndim, sizes, dst, indices, src);
  return TRUE;
}

static gboolean
cpu_scan (const LtBackend *self,
          LtScanOp         op,
          guint            ndim,
          const gint64    *sizes,
          guint            dim,
          const LtOperand *dst,
          const LtOperand *src,
          GError         **error)
{
  scan (op, ndim, sizes, dim, dst, src);
  return TRUE;
}

static gboolean
cpu_softmax (const LtBackend *self,
             LtSoftmaxOp      op,
             guint            ndim,
             const gint64    *sizes,
             guint            dim,
             const LtOperand *dst,
             const LtOperand *src,
             GError         **error)
{
  softmax (op, ndim, sizes, dim, dst, src);
  return TRUE;
}

static gboolean
cpu_allclose (const LtBackend *self,
              guint            ndim,
              const gint64    *sizes,
              const LtOperand *a,
              const LtOperand *b,
              double           rtol,
              double           atol,
              gboolean         equal_nan,
              gboolean        *close,
              GError         **error)
{
  *close = allclose (ndim, sizes, a, b, rtol, atol, equal_nan);
  return TRUE;
}

const LtReduceKernels lt_cpu_reduce_kernels = {
  .reduce = cpu_reduce,
  .scan = cpu_scan,
  .softmax = cpu_softmax,
  .allclose = cpu_allclose,
};
