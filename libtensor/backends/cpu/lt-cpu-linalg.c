/* lt-cpu-linalg.c: the CPU backend's linalg kernels
 *
 * Matrix products of float32, float64, complex64 and complex128 go to CBLAS
 * when the library was built with it and the product is large enough for the
 * call to pay off; everything else runs the strided loops below, split across
 * threads by output row.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <complex.h>
#include <string.h>

#ifdef HAVE_CBLAS
#include <cblas.h>
#endif

#include "lt-cpu-loop.h"
#include "lt-cpu-private.h"
#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-memory-private.h"
#include "lt-threads-private.h"

gint lt_cpu_linalg_n_packed = 0;

/* Below this many multiply-adds per product the loops beat a BLAS call. */
#define BLAS_MIN_WORK 512

/* Each thread's share of the loops: about this many multiply-adds. */
#define LOOP_GRAIN_WORK 32768

#define MAX_BATCH_DIMS (LT_MAX_DIMS + 2)

/* Batched products of at most this many multiply-adds each run one batch
 * per thread, each on one BLAS thread: BLAS's own threads pay too little
 * on them (64 products of 128^3 ran 1.39 times faster on two threads than
 * on one, against PyTorch's 1.73). Larger ones keep BLAS's threads. */
#define BATCHES_PARALLEL_MAX_WORK (1 << 24)

typedef struct
{
  guint batch_ndim;
  const gint64 *batch_sizes;
  gint64 m, n, k;
  gsize element_size;
  LtDType dtype;
  char *data[3];
  /* Byte strides of out, a and b: batch dims, then rows, then columns. */
  gint64 strides[3][MAX_BATCH_DIMS];
} Product;

/* Byte strides in which a dim of size 0 or 1 has stride 0, so that a stride
 * that never moves a pointer (which may be any value) is never multiplied and
 * never stops BLAS from taking a matrix. */
static void
product_init (Product         *p,
              guint            batch_ndim,
              const gint64    *batch_sizes,
              gint64           m,
              gint64           n,
              gint64           k,
              const LtOperand *out,
              const LtOperand *a,
              const LtOperand *b)
{
  const LtOperand *operands[3] = { out, a, b };
  gint64 rows[3] = { m, m, k };
  gint64 cols[3] = { n, k, n };

  p->batch_ndim = batch_ndim;
  p->batch_sizes = batch_sizes;
  p->m = m;
  p->n = n;
  p->k = k;
  p->dtype = out->dtype;
  p->element_size = lt_dtype_get_element_size (out->dtype);
  for (guint op = 0; op < 3; op++)
    {
      gint64 sizes[MAX_BATCH_DIMS];

      if (batch_ndim > 0)
        memcpy (sizes, batch_sizes, batch_ndim * sizeof (gint64));
      sizes[batch_ndim] = rows[op];
      sizes[batch_ndim + 1] = cols[op];
      p->data[op] = operands[op]->data;
      lt_cpu_byte_strides (batch_ndim + 2, sizes, operands[op]->strides, p->element_size,
                           p->strides[op]);
    }
}

/* Where batch @index (row-major over the batch dims) starts in each operand. */
static void
product_seek_batch (const Product *p,
                    gint64         index,
                    char         **ptrs)
{
  for (guint op = 0; op < 3; op++)
    ptrs[op] = p->data[op];
  for (guint d = p->batch_ndim; d-- > 0;)
    {
      gint64 i = index % p->batch_sizes[d];

      index /= p->batch_sizes[d];
      for (guint op = 0; op < 3; op++)
        ptrs[op] += i * p->strides[op][d];
    }
}

static gint64
product_n_batches (const Product *p)
{
  gint64 n = 1;

  for (guint d = 0; d < p->batch_ndim; d++)
    n *= p->batch_sizes[d];
  return n;
}

/* One row of out: out[j] = sum over l of a[l] * b[l, j], a block of
 * columns at a time so that b is read along its rows. The accumulator type
 * is wide enough that only the final store rounds or wraps, and each
 * element's sum runs over l in order whatever the blocking. */
#define ROW_BLOCK 256

#define DEFINE_ROW(name, T, Acc, LOAD, STORE, MAC)                                    \
  static void                                                                         \
  name (const Product *p,                                                             \
        char          *out,                                                           \
        const char    *a,                                                             \
        const char    *b)                                                             \
  {                                                                                   \
    gint64 out_cs = p->strides[0][p->batch_ndim + 1];                                 \
    gint64 a_cs = p->strides[1][p->batch_ndim + 1];                                   \
    gint64 b_rs = p->strides[2][p->batch_ndim];                                       \
    gint64 b_cs = p->strides[2][p->batch_ndim + 1];                                   \
    Acc acc[ROW_BLOCK];                                                               \
                                                                                      \
    for (gint64 j0 = 0; j0 < p->n; j0 += ROW_BLOCK)                                   \
      {                                                                               \
        gint64 width = MIN (ROW_BLOCK, p->n - j0);                                    \
                                                                                      \
        for (gint64 j = 0; j < width; j++)                                            \
          acc[j] = 0;                                                                 \
        for (gint64 l = 0; l < p->k; l++)                                             \
          {                                                                           \
            Acc x = LOAD ((const T *) (a + l * a_cs));                                \
            const char *bl = b + l * b_rs + j0 * b_cs;                                \
                                                                                      \
            for (gint64 j = 0; j < width; j++)                                        \
              MAC (acc[j], x, LOAD ((const T *) (bl + j * b_cs)));                    \
          }                                                                           \
        for (gint64 j = 0; j < width; j++)                                            \
          STORE ((T *) (out + (j0 + j) * out_cs), acc[j]);                            \
      }                                                                               \
  }

#define LOAD_PLAIN(ptr) (*(ptr))
#define LOAD_UINT(ptr) ((guint64) (gint64) *(ptr))
#define LOAD_BF16(ptr) lt_bfloat16_to_float (*(ptr))
#define LOAD_F16(ptr) lt_float16_to_float (*(ptr))
#define STORE_PLAIN(ptr, acc) (*(ptr) = (acc))
#define STORE_WRAP_I8(ptr, acc) (*(ptr) = (gint8) (guint8) (acc))
#define STORE_WRAP_U8(ptr, acc) (*(ptr) = (guint8) (acc))
#define STORE_WRAP_I16(ptr, acc) (*(ptr) = (gint16) (guint16) (acc))
#define STORE_WRAP_I32(ptr, acc) (*(ptr) = (gint32) (guint32) (acc))
#define STORE_WRAP_I64(ptr, acc) (*(ptr) = (gint64) (acc))
#define STORE_F32(ptr, acc) (*(ptr) = (float) (acc))
#define STORE_C64(ptr, acc) (*(ptr) = (float complex) (acc))
#define STORE_BF16(ptr, acc) (*(ptr) = lt_bfloat16_from_float (acc))
#define STORE_F16(ptr, acc) (*(ptr) = lt_float16_from_float (acc))
#define STORE_BOOL(ptr, acc) (*(ptr) = (acc) != 0)
#define MAC_ADD(acc, x, y) ((acc) += (x) * (y))
#define MAC_OR(acc, x, y) ((acc) = (acc) || ((x) && (y)))

DEFINE_ROW (row_bool, guint8, int, LOAD_PLAIN, STORE_BOOL, MAC_OR)
DEFINE_ROW (row_uint8, guint8, guint64, LOAD_UINT, STORE_WRAP_U8, MAC_ADD)
DEFINE_ROW (row_int8, gint8, guint64, LOAD_UINT, STORE_WRAP_I8, MAC_ADD)
DEFINE_ROW (row_int16, gint16, guint64, LOAD_UINT, STORE_WRAP_I16, MAC_ADD)
DEFINE_ROW (row_int32, gint32, guint64, LOAD_UINT, STORE_WRAP_I32, MAC_ADD)
DEFINE_ROW (row_int64, gint64, guint64, LOAD_UINT, STORE_WRAP_I64, MAC_ADD)
DEFINE_ROW (row_float16, guint16, float, LOAD_F16, STORE_F16, MAC_ADD)
DEFINE_ROW (row_bfloat16, guint16, float, LOAD_BF16, STORE_BF16, MAC_ADD)
DEFINE_ROW (row_float32, float, double, LOAD_PLAIN, STORE_F32, MAC_ADD)
DEFINE_ROW (row_float64, double, double, LOAD_PLAIN, STORE_PLAIN, MAC_ADD)
DEFINE_ROW (row_complex64, float complex, double complex, LOAD_PLAIN, STORE_C64, MAC_ADD)
DEFINE_ROW (row_complex128, double complex, double complex, LOAD_PLAIN, STORE_PLAIN, MAC_ADD)

typedef void (*RowFunc) (const Product *p,
                         char          *out,
                         const char    *a,
                         const char    *b);

static RowFunc
row_func_for (LtDType dtype)
{
  switch (dtype)
    {
    case LT_DTYPE_BOOL: return row_bool;
    case LT_DTYPE_UINT8: return row_uint8;
    case LT_DTYPE_INT8: return row_int8;
    case LT_DTYPE_INT16: return row_int16;
    case LT_DTYPE_INT32: return row_int32;
    case LT_DTYPE_INT64: return row_int64;
    case LT_DTYPE_FLOAT16: return row_float16;
    case LT_DTYPE_BFLOAT16: return row_bfloat16;
    case LT_DTYPE_FLOAT32: return row_float32;
    case LT_DTYPE_FLOAT64: return row_float64;
    case LT_DTYPE_COMPLEX64: return row_complex64;
    case LT_DTYPE_COMPLEX128: return row_complex128;
    default: g_assert_not_reached ();
    }
}

/* Rows [begin, end) of all the batches' outputs stacked on each other. Each
 * output element is computed by one thread in one order, so the values do not
 * depend on the number of threads. */
static void
loop_rows (gint64   begin,
           gint64   end,
           gpointer data)
{
  const Product *p = data;
  RowFunc row = row_func_for (p->dtype);
  guint rd = p->batch_ndim;

  for (gint64 r = begin; r < end; r++)
    {
      char *ptrs[3];
      gint64 i = r % p->m;

      product_seek_batch (p, r / p->m, ptrs);
      row (p, ptrs[0] + i * p->strides[0][rd], ptrs[1] + i * p->strides[1][rd], ptrs[2]);
    }
}

static void
loop_product (Product *p)
{
  gint64 per_row = MAX (1, p->n * MAX (1, p->k));

  lt_parallel_for (product_n_batches (p) * p->m, MAX (1, LOOP_GRAIN_WORK / per_row), loop_rows, p);
}

#ifdef HAVE_CBLAS

/* How BLAS can read a rows x cols matrix with byte strides rs and cs (0 when
 * the dim has size 1): as it is, transposed, or not at all (a stride of 0,
 * a negative one, or a leading dimension too small or too large for an int). */
static gboolean
blas_layout (gint64           rows,
             gint64           cols,
             gint64           rs,
             gint64           cs,
             gsize            element_size,
             CBLAS_TRANSPOSE *trans,
             gint64          *ld)
{
  gint64 row_step = rs / (gint64) element_size;
  gint64 col_step = cs / (gint64) element_size;

  if ((cols <= 1 || col_step == 1) && (rows <= 1 || row_step >= MAX (1, cols)))
    {
      *trans = CblasNoTrans;
      *ld = rows <= 1 ? MAX (1, cols) : row_step;
      return *ld <= G_MAXINT;
    }
  if ((rows <= 1 || row_step == 1) && (cols <= 1 || col_step >= MAX (1, rows)))
    {
      *trans = CblasTrans;
      *ld = cols <= 1 ? MAX (1, rows) : col_step;
      return *ld <= G_MAXINT;
    }
  return FALSE;
}

/* Copies a strided rows x cols matrix into @dst, row-major. */
static void
pack (char       *dst,
      const char *src,
      gint64      rows,
      gint64      cols,
      gint64      rs,
      gint64      cs,
      gsize       element_size)
{
  for (gint64 i = 0; i < rows; i++)
    for (gint64 j = 0; j < cols; j++)
      memcpy (dst + (i * cols + j) * element_size, src + i * rs + j * cs, element_size);
  g_atomic_int_inc (&lt_cpu_linalg_n_packed);
}

static void
blas_gemm (LtDType         dtype,
           CBLAS_TRANSPOSE ta,
           CBLAS_TRANSPOSE tb,
           gint64          m,
           gint64          n,
           gint64          k,
           const char     *a,
           gint64          lda,
           const char     *b,
           gint64          ldb,
           char           *c,
           gint64          ldc)
{
  static const float complex c_one = 1, c_zero = 0;
  static const double complex z_one = 1, z_zero = 0;

  switch (dtype)
    {
    case LT_DTYPE_FLOAT32:
      cblas_sgemm (CblasRowMajor, ta, tb, m, n, k, 1.0f, (const float *) a, lda,
                   (const float *) b, ldb, 0.0f, (float *) c, ldc);
      break;
    case LT_DTYPE_FLOAT64:
      cblas_dgemm (CblasRowMajor, ta, tb, m, n, k, 1.0, (const double *) a, lda,
                   (const double *) b, ldb, 0.0, (double *) c, ldc);
      break;
    case LT_DTYPE_COMPLEX64:
      cblas_cgemm (CblasRowMajor, ta, tb, m, n, k, &c_one, a, lda, b, ldb, &c_zero, c, ldc);
      break;
    case LT_DTYPE_COMPLEX128:
      cblas_zgemm (CblasRowMajor, ta, tb, m, n, k, &z_one, a, lda, b, ldb, &z_zero, c, ldc);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* y = op(A) x, for products with one output column. */
static void
blas_gemv (LtDType         dtype,
           CBLAS_TRANSPOSE ta,
           gint64          rows,
           gint64          cols,
           const char     *a,
           gint64          lda,
           const char     *x,
           gint64          incx,
           char           *y,
           gint64          incy)
{
  static const float complex c_one = 1, c_zero = 0;
  static const double complex z_one = 1, z_zero = 0;

  switch (dtype)
    {
    case LT_DTYPE_FLOAT32:
      cblas_sgemv (CblasRowMajor, ta, rows, cols, 1.0f, (const float *) a, lda,
                   (const float *) x, incx, 0.0f, (float *) y, incy);
      break;
    case LT_DTYPE_FLOAT64:
      cblas_dgemv (CblasRowMajor, ta, rows, cols, 1.0, (const double *) a, lda,
                   (const double *) x, incx, 0.0, (double *) y, incy);
      break;
    case LT_DTYPE_COMPLEX64:
      cblas_cgemv (CblasRowMajor, ta, rows, cols, &c_one, a, lda, x, incx, &c_zero, y, incy);
      break;
    case LT_DTYPE_COMPLEX128:
      cblas_zgemv (CblasRowMajor, ta, rows, cols, &z_one, a, lda, x, incx, &z_zero, y, incy);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
blas_dot (LtDType     dtype,
          gint64      k,
          const char *x,
          gint64      incx,
          const char *y,
          gint64      incy,
          char       *out)
{
  switch (dtype)
    {
    case LT_DTYPE_FLOAT32:
      *(float *) out = cblas_sdot (k, (const float *) x, incx, (const float *) y, incy);
      break;
    case LT_DTYPE_FLOAT64:
      *(double *) out = cblas_ddot (k, (const double *) x, incx, (const double *) y, incy);
      break;
    case LT_DTYPE_COMPLEX64:
      cblas_cdotu_sub (k, x, incx, y, incy, out);
      break;
    case LT_DTYPE_COMPLEX128:
      cblas_zdotu_sub (k, x, incx, y, incy, out);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* A vector BLAS can walk: a positive step in elements (any step when it has
 * one element). */
static gboolean
blas_vector (gint64  len,
             gint64  stride,
             gsize   element_size,
             gint64 *inc)
{
  *inc = len <= 1 ? 1 : stride / (gint64) element_size;
  return *inc >= 1 && *inc <= G_MAXINT;
}

/* The matrices BLAS needs copied into a layout it takes: allocated the first
 * time a product needs one, then reused by every batch. */
typedef struct
{
  char *a, *b, *c;
} Scratch;

static void
scratch_clear (Scratch *scratch)
{
  g_free (scratch->a);
  g_free (scratch->b);
  g_free (scratch->c);
}

/* *@buffer, allocating @rows x @cols elements for it on first use; NULL with
 * @error set when there is no memory for them. The sizes may be those of an
 * expanded view, far larger than any storage behind it. */
static char *
scratch_get (char       **buffer,
             gint64       rows,
             gint64       cols,
             gsize        element_size,
             GError     **error)
{
  gint64 nbytes;

  if (*buffer != NULL)
    return *buffer;
  if (__builtin_mul_overflow (MAX (1, rows), MAX (1, cols), &nbytes)
      || __builtin_mul_overflow (nbytes, (gint64) element_size, &nbytes))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY,
                   _("a %" PRId64 " x %" PRId64 " scratch matrix for a matrix "
                     "product would need more than 2^63 bytes"), rows, cols);
      return NULL;
    }
  *buffer = lt_memory_alloc ((gsize) nbytes, N_("a scratch matrix of a matrix product"),
                             error);
  return *buffer;
}

static gboolean
blas_one (const Product *p,
          char         **ptrs,
          Scratch       *scratch,
          GError       **error)
{
  guint rd = p->batch_ndim, cd = p->batch_ndim + 1;
  gsize es = p->element_size;
  const gint64 *os = p->strides[0], *as = p->strides[1], *bs = p->strides[2];
  gint64 m = p->m, n = p->n, k = p->k;
  CBLAS_TRANSPOSE ta, tb, tc;
  gint64 lda, ldb, ldc, incx, incy;
  const char *a = ptrs[1], *b = ptrs[2];

  if (m == 1 && n == 1 && blas_vector (k, as[cd], es, &incx) && blas_vector (k, bs[rd], es, &incy))
    {
      blas_dot (p->dtype, k, a, incx, b, incy, ptrs[0]);
      return TRUE;
    }
  if (n == 1 && blas_layout (m, k, as[rd], as[cd], es, &ta, &lda)
      && blas_vector (k, bs[rd], es, &incx) && blas_vector (m, os[rd], es, &incy))
    {
      /* Row-major op(A) is m x k; stored as k x m when transposed. */
      blas_gemv (p->dtype, ta, ta == CblasNoTrans ? m : k, ta == CblasNoTrans ? k : m, a, lda, b,
                 incx, ptrs[0], incy);
      return TRUE;
    }

  if (!blas_layout (m, k, as[rd], as[cd], es, &ta, &lda))
    {
      char *packed = scratch_get (&scratch->a, m, k, es, error);

      if (packed == NULL)
        return FALSE;
      pack (packed, a, m, k, as[rd], as[cd], es);
      a = packed;
      ta = CblasNoTrans;
      lda = MAX (1, k);
    }
  if (!blas_layout (k, n, bs[rd], bs[cd], es, &tb, &ldb))
    {
      char *packed = scratch_get (&scratch->b, k, n, es, error);

      if (packed == NULL)
        return FALSE;
      pack (packed, b, k, n, bs[rd], bs[cd], es);
      b = packed;
      tb = CblasNoTrans;
      ldb = MAX (1, n);
    }
  if (blas_layout (m, n, os[rd], os[cd], es, &tc, &ldc) && tc == CblasNoTrans)
    blas_gemm (p->dtype, ta, tb, m, n, k, a, lda, b, ldb, ptrs[0], ldc);
  else
    {
      char *product = scratch_get (&scratch->c, m, n, es, error);

      if (product == NULL)
        return FALSE;
      blas_gemm (p->dtype, ta, tb, m, n, k, a, lda, b, ldb, product, MAX (1, n));
      for (gint64 i = 0; i < m; i++)
        for (gint64 j = 0; j < n; j++)
          memcpy (ptrs[0] + i * os[rd] + j * os[cd], product + (i * n + j) * es, es);
    }
  return TRUE;
}

/* Batches spread across the pool: each piece its own scratch, the first
 * error kept. */
typedef struct
{
  const Product *p;
  GMutex lock;
  GError *error;
} Batches;

static void
blas_batch_items (gint64   begin,
                  gint64   end,
                  gpointer data)
{
  Batches *batches = data;
  Scratch scratch = { NULL, NULL, NULL };

  for (gint64 i = begin; i < end; i++)
    {
      char *ptrs[3];
      GError *error = NULL;

      product_seek_batch (batches->p, i, ptrs);
      if (!blas_one (batches->p, ptrs, &scratch, &error))
        {
          g_mutex_lock (&batches->lock);
          if (batches->error == NULL)
            batches->error = error;
          else
            g_error_free (error);
          g_mutex_unlock (&batches->lock);
          break;
        }
    }
  scratch_clear (&scratch);
}

/* The batches one after the other, each a BLAS call that may use every
 * thread OpenBLAS has; or, for many small products, spread across the
 * pool's threads, BLAS on one thread in each. */
static gboolean
blas_product (const Product *p,
              GError       **error)
{
  Scratch scratch = { NULL, NULL, NULL };
  gint64 n_batches = product_n_batches (p);
  gboolean done = TRUE;

  if (n_batches > 1 && (double) p->m * p->n * p->k <= BATCHES_PARALLEL_MAX_WORK
      && lt_parallel_n_pieces (n_batches, 1) > 1)
    {
      Batches batches = { .p = p, .error = NULL };

      g_mutex_init (&batches.lock);
      lt_blas_one_thread_begin ();
      lt_parallel_for (n_batches, 1, blas_batch_items, &batches);
      lt_blas_one_thread_end ();
      g_mutex_clear (&batches.lock);
      if (batches.error != NULL)
        {
          g_propagate_error (error, batches.error);
          return FALSE;
        }
      return TRUE;
    }

  for (gint64 i = 0; i < n_batches && done; i++)
    {
      char *ptrs[3];

      product_seek_batch (p, i, ptrs);
      done = blas_one (p, ptrs, &scratch, error);
    }
  scratch_clear (&scratch);
  return done;
}

static gboolean
blas_takes (LtDType dtype)
{
  return dtype == LT_DTYPE_FLOAT32 || dtype == LT_DTYPE_FLOAT64 || dtype == LT_DTYPE_COMPLEX64
         || dtype == LT_DTYPE_COMPLEX128;
}

#endif

static gboolean
cpu_matmul (const LtBackend *self,
            guint            batch_ndim,
            const gint64    *batch_sizes,
            gint64           m,
            gint64           n,
            gint64           k,
            const LtOperand *out,
            const LtOperand *a,
            const LtOperand *b,
            GError         **error)
{
  Product p;

  g_return_val_if_fail (batch_ndim + 2 <= MAX_BATCH_DIMS, FALSE);

  product_init (&p, batch_ndim, batch_sizes, m, n, k, out, a, b);
  if (product_n_batches (&p) == 0 || m == 0 || n == 0)
    return TRUE;

#ifdef HAVE_CBLAS
  if (blas_takes (p.dtype) && k > 0 && (double) m * n * k >= BLAS_MIN_WORK
      && MAX (MAX (m, n), k) <= G_MAXINT)
    return blas_product (&p, error);
#endif
  loop_product (&p);
  return TRUE;
}

const LtLinalgKernels lt_cpu_linalg_kernels = {
  .matmul = cpu_matmul,
};
