/* bench-tensor.c: libtensor's workloads timed from C
 *
 * Runs the workloads of bench/compare.py against the C API, with the
 * machine's memcpy bandwidth measured in the same run as the yardstick, and
 * prints a table (or, with --json, one JSON object a line for compare.py to
 * merge with PyTorch's and NumPy's figures). Each result is checked by a
 * second, independent code path before it is timed.
 *
 *   bench-tensor [--json] [--threads N] [--filter TEXT] [--min-time SECONDS]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <libtensor.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct
{
  gboolean json;
  guint threads;
  const char *filter;
  double min_time;
  gboolean failed;
} Bench;

typedef struct
{
  double median, fastest, slowest;
  guint reps;
  gint64 peak_bytes;
} Timing;

typedef void (*WorkFunc) (gpointer data);

static double
now_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The resident set's high-water mark in bytes, and a way to reset it to the
 * current resident size (Linux >= 4.0; -1 where /proc says nothing). */
static gint64
read_status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, field);
  if (line == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen (field), NULL, 10);
}

static gboolean
reset_peak_memory (void)
{
  FILE *file = fopen ("/proc/self/clear_refs", "w");
  gboolean done;

  if (file == NULL)
    return FALSE;
  done = fputs ("5", file) >= 0;
  return fclose (file) == 0 && done;
}

/* Times @func: two warm-up calls, then at least 5 calls and @min_time
 * seconds. The peak is the resident memory the calls added above what was
 * resident before them. */
static Timing
time_work (Bench   *bench,
           WorkFunc func,
           gpointer data)
{
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean have_peak = reset_peak_memory ();
  gint64 rss_before = read_status_kib ("VmRSS:");
  double started;
  Timing timing = { 0 };

  func (data);
  timing.peak_bytes = have_peak ? (read_status_kib ("VmHWM:") - rss_before) * 1024 : -1;
  func (data);

  started = now_seconds ();
  while (times->len < 5 || (now_seconds () - started < bench->min_time && times->len < 1000))
    {
      double t0 = now_seconds (), elapsed;

      func (data);
      elapsed = now_seconds () - t0;
      g_array_append_val (times, elapsed);
    }

  qsort (times->data, times->len, sizeof (double), compare_doubles);
  timing.reps = times->len;
  timing.fastest = g_array_index (times, double, 0);
  timing.slowest = g_array_index (times, double, times->len - 1);
  timing.median = g_array_index (times, double, times->len / 2);
  return timing;
}

static void
report (Bench       *bench,
        const char  *name,
        const Timing *timing,
        double       bytes,
        double       flops,
        double       per_call)
{
  if (bench->json)
    {
      printf ("{\"name\": \"%s\", \"median_s\": %.9g, \"fastest_s\": %.9g, \"slowest_s\": %.9g, "
              "\"reps\": %u, \"bytes\": %.0f, \"flops\": %.0f, \"calls\": %.0f, "
              "\"peak_bytes\": %" G_GINT64_FORMAT "}\n",
              name, timing->median, timing->fastest, timing->slowest, timing->reps, bytes, flops,
              per_call, timing->peak_bytes);
    }
  else
    {
      double scale = per_call > 1 ? 1e9 / per_call : 1e3;
      const char *unit = per_call > 1 ? "ns/call" : "ms";
      g_autofree char *rate = NULL;

      if (flops > 0)
        rate = g_strdup_printf ("%8.1f GFLOP/s", flops / timing->median * 1e-9);
      else if (bytes > 0)
        rate = g_strdup_printf ("%8.2f GB/s", bytes / timing->median * 1e-9);
      else
        rate = g_strdup ("");
      g_autofree char *peak = timing->peak_bytes < 0
                                ? g_strdup ("")
                                : g_strdup_printf ("  peak +%.1f MiB", timing->peak_bytes / 1048576.0);

      printf ("%-38s %10.3f %-7s (%.3f..%.3f, %4u reps) %s%s\n", name, timing->median * scale,
              unit, timing->fastest * scale, timing->slowest * scale, timing->reps, rate, peak);
    }
  fflush (stdout);
}

static gboolean
wanted (Bench      *bench,
        const char *name)
{
  return bench->filter == NULL || strstr (name, bench->filter) != NULL;
}

static void
fail (Bench      *bench,
      const char *name,
      const char *why)
{
  g_printerr ("%s: wrong result: %s\n", name, why);
  bench->failed = TRUE;
}

/* Workloads ---------------------------------------------------------------- */

typedef struct
{
  guint8 *src, *dst;
  gsize nbytes;
  guint threads;
} MemcpyWork;

typedef struct
{
  MemcpyWork *work;
  gsize begin, end;
} MemcpyPart;

static gpointer
memcpy_part (gpointer data)
{
  MemcpyPart *part = data;

  memcpy (part->work->dst + part->begin, part->work->src + part->begin, part->end - part->begin);
  return NULL;
}

/* memcpy split into as many parts as the other workloads get threads. */
static void
run_memcpy (gpointer data)
{
  MemcpyWork *work = data;
  GThread *threads[64];
  MemcpyPart parts[64];
  guint n = MIN (work->threads, 64);

  for (guint p = 0; p < n; p++)
    {
      parts[p].work = work;
      parts[p].begin = work->nbytes * p / n;
      parts[p].end = work->nbytes * (p + 1) / n;
    }
  for (guint p = 1; p < n; p++)
    threads[p] = g_thread_new ("memcpy", memcpy_part, &parts[p]);
  memcpy_part (&parts[0]);
  for (guint p = 1; p < n; p++)
    g_thread_join (threads[p]);
}

static void
bench_memcpy (Bench *bench)
{
  MemcpyWork work = { .nbytes = (gsize) 64 << 20, .threads = bench->threads };
  Timing timing;

  if (!wanted (bench, "memcpy 64 MiB"))
    return;
  work.src = g_malloc (work.nbytes);
  work.dst = g_malloc (work.nbytes);
  memset (work.src, 1, work.nbytes);
  memset (work.dst, 2, work.nbytes);
  timing = time_work (bench, run_memcpy, &work);
  if (memcmp (work.src, work.dst, work.nbytes) != 0)
    fail (bench, "memcpy", "the copy differs");
  report (bench, "memcpy 64 MiB", &timing, 2.0 * work.nbytes, 0, 1);
  g_free (work.src);
  g_free (work.dst);
}

/* A tensor and a function of it giving a new one. */
typedef struct
{
  LtTensor *input, *other;
  LtTensor *(*op) (LtTensor *input, LtTensor *other, GError **error);
} OpWork;

static void
run_op (gpointer data)
{
  OpWork *work = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) result = work->op (work->input, work->other, &error);

  g_assert_no_error (error);
}

static LtTensor *
op_contiguous (LtTensor *input,
               LtTensor *other,
               GError  **error)
{
  return lt_tensor_contiguous (input, error);
}

static LtTensor *
op_add (LtTensor *input,
        LtTensor *other,
        GError  **error)
{
  return lt_tensor_add (input, other, 1.0, error);
}

static LtTensor *
op_matmul (LtTensor *input,
           LtTensor *other,
           GError  **error)
{
  return lt_tensor_matmul (input, other, error);
}

static LtTensor *
rand_tensor (LtDType       dtype,
             const gint64 *sizes,
             guint         n_sizes)
{
  g_autoptr (LtGenerator) generator = lt_generator_new (2026);
  g_autoptr (GError) error = NULL;
  LtTensor *tensor = lt_tensor_new_rand (generator, dtype, sizes, n_sizes, &error);

  g_assert_no_error (error);
  return tensor;
}

static LtTensor *
checked (LtTensor *tensor,
         GError   *error)
{
  g_assert_no_error (error);
  return tensor;
}

/* Checks a copy by comparing it with its source through the pointwise
 * equality kernel, a code path the copy kernels do not share. */
static void
check_copy (Bench      *bench,
            const char *name,
            LtTensor   *source)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) copy = lt_tensor_contiguous (source, &error);

  g_assert_no_error (error);
  if (!lt_tensor_is_contiguous (copy))
    fail (bench, name, "the copy is not contiguous");
  if (!lt_tensor_equal (copy, source))
    fail (bench, name, "the copy's values differ from its source's");
}

static void
bench_copies (Bench *bench)
{
  g_autoptr (GError) error = NULL;

  if (wanted (bench, "t().contiguous() 4096^2 f32"))
    {
      gint64 sizes[] = { 4096, 4096 };
      g_autoptr (LtTensor) base = rand_tensor (LT_DTYPE_FLOAT32, sizes, 2);
      g_autoptr (LtTensor) view = checked (lt_tensor_t (base, &error), error);
      OpWork work = { .input = view, .op = op_contiguous };
      Timing timing;

      check_copy (bench, "t().contiguous()", view);
      timing = time_work (bench, run_op, &work);
      report (bench, "t().contiguous() 4096^2 f32", &timing, 2.0 * 4096 * 4096 * 4, 0, 1);
    }

  if (wanted (bench, "permute(2,0,1).contiguous() 256^3"))
    {
      gint64 sizes[] = { 256, 256, 256 };
      const int order[] = { 2, 0, 1 };
      g_autoptr (LtTensor) base = rand_tensor (LT_DTYPE_FLOAT32, sizes, 3);
      g_autoptr (LtTensor) view = checked (lt_tensor_permute (base, order, 3, &error), error);
      OpWork work = { .input = view, .op = op_contiguous };
      Timing timing;

      check_copy (bench, "permute(2,0,1).contiguous()", view);
      timing = time_work (bench, run_op, &work);
      report (bench, "permute(2,0,1).contiguous() 256^3", &timing, 2.0 * 256 * 256 * 256 * 4, 0,
              1);
    }
}

/* Element [i, j] of a matrix, read one at a time. */
static double
element (LtTensor *matrix,
         gint64    i,
         gint64    j)
{
  gint64 at[2] = { i, j };
  double value = 0;

  g_assert_true (lt_tensor_get_double (matrix, at, 2, &value, NULL));
  return value;
}

/* Checks @result against @input + @other computed one element at a time
 * through get_double, on a sample of positions. */
static void
check_add (Bench      *bench,
           const char *name,
           LtTensor   *input,
           LtTensor   *other)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) result = lt_tensor_add (input, other, 1.0, &error);
  guint n_dims;
  const gint64 *sizes = lt_tensor_get_sizes (input, &n_dims);
  const gint64 *other_sizes = lt_tensor_get_sizes (other, &n_dims);

  g_assert_no_error (error);
  for (gint64 k = 0; k < 4096; k++)
    {
      gint64 i = (k * 7919) % sizes[0], j = (k * 104729) % sizes[1];
      double a = element (input, i, j);
      double b = element (other, other_sizes[0] == 1 ? 0 : i, other_sizes[1] == 1 ? 0 : j);
      double c = element (result, i, j);

      if (c != (double) (float) (a + b))
        {
          fail (bench, name, "a sum differs");
          return;
        }
    }
}

static void
bench_add (Bench *bench)
{
  g_autoptr (GError) error = NULL;
  gint64 sizes[] = { 4096, 4096 };
  gint64 column_sizes[] = { 4096, 1 };
  g_autoptr (LtTensor) a = NULL;

  if (!wanted (bench, "add (4096,4096)+(4096,1) f32") && !wanted (bench, "add a.t() + a 4096^2 f32"))
    return;

  a = rand_tensor (LT_DTYPE_FLOAT32, sizes, 2);

  if (wanted (bench, "add (4096,4096)+(4096,1) f32"))
  {
    g_autoptr (LtTensor) column = rand_tensor (LT_DTYPE_FLOAT32, column_sizes, 2);
    OpWork work = { .input = a, .other = column, .op = op_add };
    Timing timing;

    check_add (bench, "add broadcast", a, column);
    timing = time_work (bench, run_op, &work);
    report (bench, "add (4096,4096)+(4096,1) f32", &timing, 2.0 * 4096 * 4096 * 4, 0, 1);
  }

  if (wanted (bench, "add a.t() + a 4096^2 f32"))
  {
    g_autoptr (LtTensor) at = checked (lt_tensor_t (a, &error), error);
    OpWork work = { .input = at, .other = a, .op = op_add };
    Timing timing;

    check_add (bench, "add transposed", at, a);
    timing = time_work (bench, run_op, &work);
    report (bench, "add a.t() + a 4096^2 f32", &timing, 3.0 * 4096 * 4096 * 4, 0, 1);
  }
}

typedef struct
{
  LtTensor *input;
  const int *dims;
  guint n_dims;
} SumWork;

static void
run_sum (gpointer data)
{
  SumWork *work = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) result = lt_tensor_sum (work->input, work->dims, work->n_dims, FALSE,
                                                &error);

  g_assert_no_error (error);
}

/* Checks a float32 sum against float64 sums of the same elements (the
 * float64 kernels are separate instances, and a float64 sum of 4096 float32
 * values is exact to well within the tolerance). */
static void
check_sum (Bench      *bench,
           const char *name,
           SumWork    *work)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) wide = checked (lt_tensor_to_dtype (work->input, LT_DTYPE_FLOAT64, &error),
                                       error);
  g_autoptr (LtTensor) result = checked (lt_tensor_sum (work->input, work->dims, work->n_dims,
                                                        FALSE, &error),
                                         error);
  g_autoptr (LtTensor) expected = checked (lt_tensor_sum (wide, work->dims, work->n_dims, FALSE,
                                                          &error),
                                           error);
  g_autoptr (LtTensor) narrowed = checked (lt_tensor_to_dtype (expected, LT_DTYPE_FLOAT32, &error),
                                           error);

  gboolean close = FALSE;

  if (!lt_tensor_allclose (result, narrowed, 1e-5, 1e-3, FALSE, &close, &error))
    fail (bench, name, error->message);
  else if (!close)
    fail (bench, name, "the sums differ from float64 sums");
}

static void
bench_sums (Bench *bench)
{
  static const int dim0[] = { 0 }, dim1[] = { 1 };
  static const struct
  {
    const char *label;
    const int *dims;
    guint n_dims;
  } cases[] = {
    { "dim 0", dim0, 1 },
    { "dim 1", dim1, 1 },
    { "all", NULL, 0 },
  };
  g_autoptr (GError) error = NULL;
  gint64 sizes[] = { 4096, 4096 };
  g_autoptr (LtTensor) a = NULL;
  g_autoptr (LtTensor) at = NULL;

  a = rand_tensor (LT_DTYPE_FLOAT32, sizes, 2);
  at = checked (lt_tensor_t (a, &error), error);

  for (guint transposed = 0; transposed < 2; transposed++)
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        SumWork work = { transposed ? at : a, cases[c].dims, cases[c].n_dims };
        g_autofree char *name = g_strdup_printf ("sum %s of %s", cases[c].label,
                                                 transposed ? "a.t() 4096^2" : "a 4096^2");
        Timing timing;

        if (!wanted (bench, name))
          continue;
        check_sum (bench, name, &work);
        timing = time_work (bench, run_sum, &work);
        report (bench, name, &timing, 4096.0 * 4096 * 4, 0, 1);
      }
}

/* Checks a product on a sample of entries against dot products done in
 * double one element at a time. */
static void
check_matmul (Bench      *bench,
              const char *name,
              LtTensor   *a,
              LtTensor   *b,
              double      tolerance)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) c = checked (lt_tensor_matmul (a, b, &error), error);
  guint n_dims;
  gint64 n = lt_tensor_get_sizes (a, &n_dims)[1];

  for (guint s = 0; s < 16; s++)
    {
      gint64 i = (s * 7919) % n, j = (s * 104729) % n;
      double expected = 0;

      for (gint64 k = 0; k < n; k++)
        expected += element (a, i, k) * element (b, k, j);
      if (!G_APPROX_VALUE (element (c, i, j), expected, tolerance * (1 + ABS (expected))))
        {
          fail (bench, name, "a product entry differs from its dot product");
          return;
        }
    }
}

static void
bench_matmul (Bench *bench)
{
  static const LtDType dtypes[] = { LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64 };
  gint64 sizes[] = { 1024, 1024 };
  g_autoptr (GError) error = NULL;

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    for (guint transposed = 0; transposed < 2; transposed++)
      {
        g_autofree char *name = g_strdup_printf ("matmul %s1024^3 %s", transposed ? "a.t() " : "",
                                                 lt_dtype_get_name (dtypes[d]));
        g_autoptr (LtTensor) a = NULL;
        g_autoptr (LtTensor) b = NULL;
        g_autoptr (LtTensor) left = NULL;
        OpWork work = { 0 };
        Timing timing;

        if (!wanted (bench, name))
          continue;
        a = rand_tensor (dtypes[d], sizes, 2);
        b = rand_tensor (dtypes[d], sizes, 2);
        left = transposed ? checked (lt_tensor_t (a, &error), error) : g_object_ref (a);
        work = (OpWork) { .input = left, .other = b, .op = op_matmul };

        check_matmul (bench, name, left, b, dtypes[d] == LT_DTYPE_FLOAT32 ? 1e-4 : 1e-10);
        timing = time_work (bench, run_op, &work);
        report (bench, name, &timing, 0, 2.0 * 1024 * 1024 * 1024, 1);
      }
}

#define VIEW_CALLS 10000

typedef struct
{
  LtTensor *input;
  gboolean slice;
} ViewWork;

static void
run_views (gpointer data)
{
  ViewWork *work = data;

  for (guint k = 0; k < VIEW_CALLS; k++)
    {
      LtTensor *view = work->slice ? lt_tensor_slice (work->input, 0, 1, 3, 1, NULL)
                                   : lt_tensor_transpose (work->input, 0, 1, NULL);

      g_object_unref (view);
    }
}

/* A bare GObject made and freed: the floor under every view's cost, which
 * is GLib's (bench/NOTES.md, section 23). */
static void
run_bare_objects (gpointer data)
{
  for (guint k = 0; k < VIEW_CALLS; k++)
    g_object_unref (g_object_new (G_TYPE_OBJECT, NULL));
}

static void
bench_views (Bench *bench)
{
  gint64 sizes[] = { 4, 5 };
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) t = NULL;

  if (wanted (bench, "GObject new + unref (a view's floor)"))
    {
      Timing timing = time_work (bench, run_bare_objects, NULL);

      report (bench, "GObject new + unref (a view's floor)", &timing, 0, 0, VIEW_CALLS);
    }
  if (!wanted (bench, "view t.transpose(0,1) (create + free)")
      && !wanted (bench, "view t[1:3] (create + free)"))
    return;

  t = checked (lt_tensor_new_zeros (LT_DTYPE_FLOAT32, sizes, 2, &error), error);
  for (guint slice = 0; slice < 2; slice++)
    {
      const char *name = slice ? "view t[1:3] (create + free)"
                               : "view t.transpose(0,1) (create + free)";
      ViewWork work = { t, slice };
      g_autoptr (LtTensor) view = slice ? lt_tensor_slice (t, 0, 1, 3, 1, &error)
                                        : lt_tensor_transpose (t, 0, 1, &error);
      const gint64 *strides;
      guint n_dims;
      Timing timing;

      g_assert_no_error (error);
      if (!wanted (bench, name))
        continue;
      strides = lt_tensor_get_strides (view, &n_dims);
      if (slice ? (lt_tensor_get_storage_offset (view) != 5 || strides[0] != 5)
                : (strides[0] != 1 || strides[1] != 5))
        fail (bench, "view", "the view's strides or offset are wrong");
      timing = time_work (bench, run_views, &work);
      report (bench, name, &timing, 0, 0, VIEW_CALLS);
    }
}

static void
run_storage_indices (gpointer data)
{
  gsize n;
  g_autofree gint64 *indices = lt_tensor_get_storage_indices (data, &n, NULL);
}

static void
run_to_string (gpointer data)
{
  g_autofree char *text = lt_tensor_to_string (data);
}

static void
bench_inspection (Bench *bench)
{
  gint64 sizes[] = { 1000, 1000 };
  g_autoptr (GError) error = NULL;

  if (wanted (bench, "storage_indices 1e6 strided"))
    {
      /* Every other column of a transposed 1000x2000: 1,000,000 elements
       * spread over a 2,000,000-element storage. */
      gint64 wide_sizes[] = { 1000, 2000 };
      g_autoptr (LtTensor) wide = rand_tensor (LT_DTYPE_FLOAT32, wide_sizes, 2);
      g_autoptr (LtTensor) wide_t = checked (lt_tensor_t (wide, &error), error);
      g_autoptr (LtTensor) view = checked (lt_tensor_slice (wide_t, 0, 0, 2000, 2, &error), error);
      gsize n;
      g_autofree gint64 *indices = lt_tensor_get_storage_indices (view, &n, NULL);
      Timing timing;

      /* Element [i, j] of the view is wide[j, 2i]. */
      if (n != 1000000 || indices[0] != 0 || indices[1] != 2000 || indices[1000] != 2
          || indices[n - 1] != 999 * 2000 + 1998)
        fail (bench, "storage_indices", "the indices are wrong");
      timing = time_work (bench, run_storage_indices, view);
      report (bench, "storage_indices 1e6 strided", &timing, 0, 0, 1);
    }

  if (wanted (bench, "to_string 1000x1000"))
    {
      g_autoptr (LtTensor) t = rand_tensor (LT_DTYPE_FLOAT32, sizes, 2);
      g_autofree char *text = lt_tensor_to_string (t);
      Timing timing;

      if (strstr (text, "...") == NULL || strlen (text) > 4096)
        fail (bench, "to_string", "the text is not summarised");
      timing = time_work (bench, run_to_string, t);
      report (bench, "to_string 1000x1000", &timing, 0, 0, 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  Bench bench = { .threads = 2, .min_time = 1.0 };
  gint threads = 2;
  g_autofree char *filter = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &bench.json, "One JSON object a line", NULL },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Threads for every workload (2)", "N" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &filter, "Only workloads whose name holds TEXT",
      "TEXT" },
    { "min-time", 0, 0, G_OPTION_ARG_DOUBLE, &bench.min_time,
      "Repeat each workload for at least this long (1)", "SECONDS" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- time libtensor's workloads");
  g_autoptr (GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (threads < 1)
    {
      g_printerr ("--threads must be at least 1\n");
      return 2;
    }
  bench.threads = (guint) threads;
  bench.filter = filter;
  lt_set_num_threads (bench.threads);

  if (!bench.json)
    printf ("libtensor %d.%d.%d, %u threads; median (fastest..slowest)\n", LT_MAJOR_VERSION,
            LT_MINOR_VERSION, LT_MICRO_VERSION, bench.threads);

  bench_memcpy (&bench);
  bench_copies (&bench);
  bench_add (&bench);
  bench_sums (&bench);
  bench_matmul (&bench);
  bench_views (&bench);
  bench_inspection (&bench);

  return bench.failed ? 1 : 0;
}
