/* lt-cpu-transpose.c: copying a block whose rows are the source's columns
 *
 * The heart of every copy that reorders dims (t().contiguous(),
 * permute().contiguous()): the destination is contiguous along one dim and
 * the source along another. Walking either one in order strides through
 * memory on the other side, so the block is cut into small squares that are
 * read as rows of the source and written as rows of the destination. With
 * AVX2 a square of 8x8 4-byte or 4x4 8-byte elements is turned around in
 * registers, two side by side at a time, so each destination row gets 64
 * bytes at once (a whole cache line, where streamed stores write one
 * past the caches); the instruction set is picked when the library runs, not when
 * it is built, so one build serves every x86-64.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-cpu-private.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_X86_DISPATCH 1
#include <immintrin.h>
#endif

/* Any element size, one element at a time: dst[r][c] = src[c][r]. */
static void
transpose_scalar (char       *dst,
                  gint64      dst_row,
                  const char *src,
                  gint64      src_row,
                  gint64      rows,
                  gint64      cols,
                  gsize       element_size)
{
  for (gint64 r = 0; r < rows; r++)
    for (gint64 c = 0; c < cols; c++)
      memcpy (dst + r * dst_row + (gint64) (c * element_size),
              src + c * src_row + (gint64) (r * element_size), element_size);
}

#define DEFINE_TRANSPOSE_SCALAR(name, type)                                            \
  static void                                                                          \
  name (char *dst, gint64 dst_row, const char *src, gint64 src_row, gint64 rows,       \
        gint64 cols)                                                                   \
  {                                                                                    \
    for (gint64 r = 0; r < rows; r++)                                                  \
      {                                                                                \
        type *out = (type *) (dst + r * dst_row);                                      \
        const char *in = src + r * (gint64) sizeof (type);                             \
        for (gint64 c = 0; c < cols; c++)                                              \
          out[c] = *(const type *) (in + c * src_row);                                 \
      }                                                                                \
  }

DEFINE_TRANSPOSE_SCALAR (transpose_scalar_1, guint8)
DEFINE_TRANSPOSE_SCALAR (transpose_scalar_2, guint16)
DEFINE_TRANSPOSE_SCALAR (transpose_scalar_4, guint32)
DEFINE_TRANSPOSE_SCALAR (transpose_scalar_8, guint64)

#ifdef HAVE_X86_DISPATCH

/* Stores 8 floats or 4 doubles at @to, past the caches where @stream
 * (@to then 32-byte aligned). */
#define STORE_PS(to, value, stream)                                              \
  ((stream) ? _mm256_stream_ps ((float *) (to), (value))                         \
            : _mm256_storeu_ps ((float *) (to), (value)))
#define STORE_PD(to, value, stream)                                              \
  ((stream) ? _mm256_stream_pd ((double *) (to), (value))                        \
            : _mm256_storeu_pd ((double *) (to), (value)))

/* @out[0..7] = src columns 0..7 of 8 rows of 8 floats. */
__attribute__ ((target ("avx2"))) static inline void
transpose_8x8_ps_values (const char *src,
                         gint64      src_row,
                         __m256      out[8])
{
  __m256 r0 = _mm256_loadu_ps ((const float *) (src + 0 * src_row));
  __m256 r1 = _mm256_loadu_ps ((const float *) (src + 1 * src_row));
  __m256 r2 = _mm256_loadu_ps ((const float *) (src + 2 * src_row));
  __m256 r3 = _mm256_loadu_ps ((const float *) (src + 3 * src_row));
  __m256 r4 = _mm256_loadu_ps ((const float *) (src + 4 * src_row));
  __m256 r5 = _mm256_loadu_ps ((const float *) (src + 5 * src_row));
  __m256 r6 = _mm256_loadu_ps ((const float *) (src + 6 * src_row));
  __m256 r7 = _mm256_loadu_ps ((const float *) (src + 7 * src_row));
  /* Pairs of rows interleaved, then pairs of pairs, then the halves. */
  __m256 t0 = _mm256_unpacklo_ps (r0, r1), t1 = _mm256_unpackhi_ps (r0, r1);
  __m256 t2 = _mm256_unpacklo_ps (r2, r3), t3 = _mm256_unpackhi_ps (r2, r3);
  __m256 t4 = _mm256_unpacklo_ps (r4, r5), t5 = _mm256_unpackhi_ps (r4, r5);
  __m256 t6 = _mm256_unpacklo_ps (r6, r7), t7 = _mm256_unpackhi_ps (r6, r7);
  __m256 s0 = _mm256_shuffle_ps (t0, t2, 0x44), s1 = _mm256_shuffle_ps (t0, t2, 0xee);
  __m256 s2 = _mm256_shuffle_ps (t1, t3, 0x44), s3 = _mm256_shuffle_ps (t1, t3, 0xee);
  __m256 s4 = _mm256_shuffle_ps (t4, t6, 0x44), s5 = _mm256_shuffle_ps (t4, t6, 0xee);
  __m256 s6 = _mm256_shuffle_ps (t5, t7, 0x44), s7 = _mm256_shuffle_ps (t5, t7, 0xee);

  out[0] = _mm256_permute2f128_ps (s0, s4, 0x20);
  out[1] = _mm256_permute2f128_ps (s1, s5, 0x20);
  out[2] = _mm256_permute2f128_ps (s2, s6, 0x20);
  out[3] = _mm256_permute2f128_ps (s3, s7, 0x20);
  out[4] = _mm256_permute2f128_ps (s0, s4, 0x31);
  out[5] = _mm256_permute2f128_ps (s1, s5, 0x31);
  out[6] = _mm256_permute2f128_ps (s2, s6, 0x31);
  out[7] = _mm256_permute2f128_ps (s3, s7, 0x31);
}

/* @out[0..3] = src columns 0..3 of 4 rows of 4 doubles. */
__attribute__ ((target ("avx2"))) static inline void
transpose_4x4_pd_values (const char *src,
                         gint64      src_row,
                         __m256d     out[4])
{
  __m256d r0 = _mm256_loadu_pd ((const double *) (src + 0 * src_row));
  __m256d r1 = _mm256_loadu_pd ((const double *) (src + 1 * src_row));
  __m256d r2 = _mm256_loadu_pd ((const double *) (src + 2 * src_row));
  __m256d r3 = _mm256_loadu_pd ((const double *) (src + 3 * src_row));
  __m256d t0 = _mm256_unpacklo_pd (r0, r1), t1 = _mm256_unpackhi_pd (r0, r1);
  __m256d t2 = _mm256_unpacklo_pd (r2, r3), t3 = _mm256_unpackhi_pd (r2, r3);

  out[0] = _mm256_permute2f128_pd (t0, t2, 0x20);
  out[1] = _mm256_permute2f128_pd (t1, t3, 0x20);
  out[2] = _mm256_permute2f128_pd (t0, t2, 0x31);
  out[3] = _mm256_permute2f128_pd (t1, t3, 0x31);
}

/* @single (): dst rows 0..n-1 = the columns of @values ()'s square of n
 * source rows. @pair (): two such squares side by side in dst (source
 * rows 0..n-1, then n..2n-1), each dst row's 64 bytes stored back to
 * back: a whole cache line where dst is 64-byte aligned, so streamed
 * stores leave no line half-written. */
#define DEFINE_SQUARES(single, pair, vector, n, values, STORE)                              \
  __attribute__ ((target ("avx2"))) static inline void                                      \
  single (char *dst, gint64 dst_row, const char *src, gint64 src_row, gboolean stream)      \
  {                                                                                         \
    vector out[n];                                                                          \
                                                                                            \
    values (src, src_row, out);                                                             \
    for (guint r = 0; r < (n); r++)                                                         \
      STORE (dst + r * dst_row, out[r], stream);                                            \
  }                                                                                         \
                                                                                            \
  __attribute__ ((target ("avx2"))) static inline void                                      \
  pair (char *dst, gint64 dst_row, const char *src, gint64 src_row, gboolean stream)        \
  {                                                                                         \
    vector left[n], right[n];                                                               \
                                                                                            \
    values (src, src_row, left);                                                            \
    values (src + (n) * src_row, src_row, right);                                           \
    for (guint r = 0; r < (n); r++)                                                         \
      {                                                                                     \
        STORE (dst + r * dst_row, left[r], stream);                                         \
        STORE (dst + r * dst_row + 32, right[r], stream);                                   \
      }                                                                                     \
  }

DEFINE_SQUARES (transpose_8x8_ps, transpose_8x16_ps, __m256, 8, transpose_8x8_ps_values,
                STORE_PS)
DEFINE_SQUARES (transpose_4x4_pd, transpose_4x8_pd, __m256d, 4, transpose_4x4_pd_values,
                STORE_PD)

/* Squares of @n elements of @element_size bytes where they fit, in pairs
 * side by side (@pair) where two fit, the ragged right and bottom edges
 * one element at a time; the squares' rows past the caches where
 * @stream, then fenced (such stores are not ordered with the others). */
#define DEFINE_TRANSPOSE_AVX2(name, square, pair, n, element_size)                          \
  __attribute__ ((target ("avx2"))) static void                                             \
  name (char *dst, gint64 dst_row, const char *src, gint64 src_row, gint64 rows,            \
        gint64 cols, gboolean stream)                                                       \
  {                                                                                         \
    gint64 full_rows = rows - rows % (n), full_cols = cols - cols % (n);                    \
                                                                                            \
    for (gint64 r = 0; r < full_rows; r += (n))                                             \
      {                                                                                     \
        gint64 c = 0;                                                                       \
                                                                                            \
        for (; c + 2 * (n) <= full_cols; c += 2 * (n))                                      \
          pair (dst + r * dst_row + c * (element_size), dst_row,                            \
                src + c * src_row + r * (element_size), src_row, stream);                   \
        if (c < full_cols)                                                                  \
          square (dst + r * dst_row + c * (element_size), dst_row,                          \
                  src + c * src_row + r * (element_size), src_row, stream);                 \
      }                                                                                     \
    if (stream)                                                                             \
      _mm_sfence ();                                                                        \
    if (full_cols < cols)                                                                   \
      transpose_scalar (dst + full_cols * (element_size), dst_row,                          \
                        src + full_cols * src_row, src_row, full_rows, cols - full_cols,    \
                        (element_size));                                                    \
    if (full_rows < rows)                                                                   \
      transpose_scalar (dst + full_rows * dst_row, dst_row,                                 \
                        src + full_rows * (element_size), src_row, rows - full_rows, cols,  \
                        (element_size));                                                    \
  }

DEFINE_TRANSPOSE_AVX2 (transpose_avx2_4, transpose_8x8_ps, transpose_8x16_ps, 8, 4)
DEFINE_TRANSPOSE_AVX2 (transpose_avx2_8, transpose_4x4_pd, transpose_4x8_pd, 4, 8)

#endif

/* dst[r][c] = src[c][r] for every r < @rows and c < @cols, where both
 * sides' rows are contiguous. The caller keeps blocks small enough that
 * @cols source rows stay in cache while their columns are read. With
 * @stream (a copy too large for the caches), the rows are written past the
 * caches where the destination's rows are 32-byte aligned: nothing is read
 * in to be overwritten, a third of the memory traffic.
 */
void
lt_cpu_transpose_block (char       *dst,
                        gint64      dst_row,
                        const char *src,
                        gint64      src_row,
                        gint64      rows,
                        gint64      cols,
                        gsize       element_size,
                        gboolean    stream)
{
#ifdef HAVE_X86_DISPATCH
  if (__builtin_cpu_supports ("avx2"))
    {
      stream = stream && ((guintptr) dst | (guint64) dst_row) % 32 == 0;
      if (element_size == 4)
        {
          transpose_avx2_4 (dst, dst_row, src, src_row, rows, cols, stream);
          return;
        }
      if (element_size == 8)
        {
          transpose_avx2_8 (dst, dst_row, src, src_row, rows, cols, stream);
          return;
        }
    }
#else
  (void) stream;
#endif

  switch (element_size)
    {
    case 1:
      transpose_scalar_1 (dst, dst_row, src, src_row, rows, cols);
      break;
    case 2:
      transpose_scalar_2 (dst, dst_row, src, src_row, rows, cols);
      break;
    case 4:
      transpose_scalar_4 (dst, dst_row, src, src_row, rows, cols);
      break;
    case 8:
      transpose_scalar_8 (dst, dst_row, src, src_row, rows, cols);
      break;
    default:
      transpose_scalar (dst, dst_row, src, src_row, rows, cols, element_size);
      break;
    }
}
