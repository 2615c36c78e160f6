/* lt-backend.c: finding the backend for a device
 *
 * The CPU backend is built in. The others are modules
 * (libtensor-1-cuda.so, libtensor-1-opencl.so) looked for in
 * $LT_BACKEND_PATH (a search path, for uninstalled builds and tests) when
 * it is set, else in the directory they are installed to. A module is loaded once, on the
 * first question about its device type, and stays loaded; when it cannot
 * be loaded, the reason is kept and given for every device of that type.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <gmodule.h>
#include <string.h>

#include "lt-backend.h"
#include "lt-backend-module.h"
#include "lt-dtype-private.h"
#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-layout.h"
#include "lt-pointwise.h"
#include "backends/lt-kernel-ops.h"
#include "lt-random-private.h"
#include "lt-tsan-private.h"

/* The device kernels know the ops by these numbers. */
#define LT_CHECK_UNARY(name) G_STATIC_ASSERT (LT_K_##name == (int) LT_UNARY_OP_##name)
#define LT_CHECK_BINARY(name) G_STATIC_ASSERT (LT_K_##name == (int) LT_BINARY_OP_##name)
LT_CHECK_UNARY (NEG);
LT_CHECK_UNARY (ABS);
LT_CHECK_UNARY (SIGN);
LT_CHECK_UNARY (SQRT);
LT_CHECK_UNARY (RSQRT);
LT_CHECK_UNARY (EXP);
LT_CHECK_UNARY (LOG);
LT_CHECK_UNARY (LOG1P);
LT_CHECK_UNARY (EXPM1);
LT_CHECK_UNARY (SIN);
LT_CHECK_UNARY (COS);
LT_CHECK_UNARY (TAN);
LT_CHECK_UNARY (TANH);
LT_CHECK_UNARY (SIGMOID);
LT_CHECK_UNARY (RELU);
LT_CHECK_UNARY (FLOOR);
LT_CHECK_UNARY (CEIL);
LT_CHECK_UNARY (ROUND);
LT_CHECK_UNARY (TRUNC);
LT_CHECK_UNARY (LOGICAL_NOT);
LT_CHECK_UNARY (BITWISE_NOT);
LT_CHECK_UNARY (ISNAN);
LT_CHECK_UNARY (ISINF);
LT_CHECK_UNARY (ISFINITE);
LT_CHECK_UNARY (ERF);
LT_CHECK_BINARY (ADD);
LT_CHECK_BINARY (SUB);
LT_CHECK_BINARY (MUL);
LT_CHECK_BINARY (DIV);
LT_CHECK_BINARY (FLOOR_DIVIDE);
LT_CHECK_BINARY (TRUNC_DIVIDE);
LT_CHECK_BINARY (REMAINDER);
LT_CHECK_BINARY (POW);
LT_CHECK_BINARY (MAXIMUM);
LT_CHECK_BINARY (MINIMUM);
LT_CHECK_BINARY (EQ);
LT_CHECK_BINARY (NE);
LT_CHECK_BINARY (LT);
LT_CHECK_BINARY (LE);
LT_CHECK_BINARY (GT);
LT_CHECK_BINARY (GE);
LT_CHECK_BINARY (LOGICAL_AND);
LT_CHECK_BINARY (LOGICAL_OR);
LT_CHECK_BINARY (LOGICAL_XOR);
LT_CHECK_BINARY (BITWISE_AND);
LT_CHECK_BINARY (BITWISE_OR);
LT_CHECK_BINARY (BITWISE_XOR);
G_STATIC_ASSERT (LT_KRAND_UNIFORM == (int) LT_RANDOM_UNIFORM);
G_STATIC_ASSERT (LT_KRAND_NORMAL == (int) LT_RANDOM_NORMAL);
G_STATIC_ASSERT (LT_KRAND_INTEGER == (int) LT_RANDOM_INTEGER);
G_STATIC_ASSERT (LT_KRAND_BERNOULLI == (int) LT_RANDOM_BERNOULLI);

static gint64
simplify_operands (guint                   ndim,
                   const gint64           *sizes,
                   const LtOperand *const *operands,
                   guint                   n_operands,
                   LtLoopShape            *loop)
{
  gint64 strides[LT_LOOP_MAX_OPERANDS][LT_MAX_DIMS];
  const gint64 *stride_ptrs[LT_LOOP_MAX_OPERANDS];
  gint64 numel;

  g_assert (n_operands <= LT_LOOP_MAX_OPERANDS);
  /* A dim of size 0 or 1 never moves: its stride may be anything. */
  for (guint op = 0; op < n_operands; op++)
    {
      for (guint d = 0; d < ndim; d++)
        strides[op][d] = sizes[d] <= 1 ? 0 : operands[op]->strides[d];
      stride_ptrs[op] = strides[op];
    }
  lt_loop_shape_init (loop, ndim, sizes, n_operands, stride_ptrs);
  numel = lt_loop_shape_numel (loop);
  if (numel > 0)
    lt_loop_shape_simplify (loop);
  return numel;
}

static gboolean
plan_elementwise (guint                   ndim,
                  const gint64           *sizes,
                  const LtOperand *const *operands,
                  guint                   n_operands,
                  LtLaunchPlan           *plan,
                  GError                **error)
{
  gint64 highest = 0;
  LtLoopShape loop;

  memset (plan, 0, sizeof *plan);
  plan->n_operands = n_operands;
  for (guint op = 0; op < n_operands; op++)
    {
      plan->offsets[op] = operands[op]->offset;
      highest = MAX (highest, operands[op]->offset);
    }
  plan->numel = simplify_operands (ndim, sizes, operands, n_operands, &loop);
  if (plan->numel == 0)
    return TRUE;
  if (loop.ndim > LT_LAUNCH_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   _("device kernels handle %d dims that cannot be merged, and this one has %u; "
                     "work on it in parts"), LT_LAUNCH_MAX_DIMS, loop.ndim);
      return FALSE;
    }
  plan->ndim = loop.ndim;
  for (guint d = 0; d < loop.ndim; d++)
    {
      gint64 reach = 0;

      plan->sizes[d] = loop.sizes[d];
      for (guint op = 0; op < n_operands; op++)
        {
          plan->strides[op][d] = loop.strides[op][d];
          reach = MAX (reach, ABS (loop.strides[op][d]));
        }
      /* Partial sums of the index arithmetic stay within the offsets plus
       * every stride's full reach. */
      highest += (loop.sizes[d] - 1) * reach;
    }
  plan->narrow = plan->numel < (G_GINT64_CONSTANT (1) << 30)
                 && highest < (G_GINT64_CONSTANT (1) << 30);
  return TRUE;
}

static gboolean
plan_reduce (const LtReduceParams *params,
             guint                 ndim,
             const gint64         *sizes,
             const LtOperand      *dst,
             const LtOperand      *indices,
             const LtOperand      *src,
             LtReduceArgs         *args,
             LtReduceShape        *shape,
             GError              **error)
{
  const LtOperand *out = dst != NULL ? dst : indices;

  g_assert (out != NULL);
  memset (args, 0, sizeof *args);
  memset (shape, 0, sizeof *shape);
  args->n_out = 1;
  args->n_reduced = 1;
  for (guint d = 0; d < ndim; d++)
    {
      if (sizes[d] == 1)
        continue;
      if (sizes[d] == 0)
        {
          /* No output, or outputs of an empty reduction. */
          if (out->strides[d] != 0)
            args->n_out = 0;
          else
            args->n_reduced = 0;
          continue;
        }
      if (out->strides[d] != 0)
        {
          if (shape->n_kept == LT_KR_MAX_DIMS)
            goto too_many;
          shape->kept_sizes[shape->n_kept] = sizes[d];
          shape->kept_src_strides[shape->n_kept] = src->strides[d];
          shape->kept_dst_strides[shape->n_kept] = out->strides[d];
          shape->n_kept++;
          args->n_out *= sizes[d];
        }
      else
        {
          int last = shape->n_reduced - 1;

          /* A dim that continues the previous reduced one in memory
           * merges with it: the row-major order of the reduced elements,
           * and so every index, stays the same, and a kernel walks one dim
           * where it would divide to walk two. */
          if (last >= 0 && shape->reduced_src_strides[last] == sizes[d] * src->strides[d])
            {
              shape->reduced_sizes[last] *= sizes[d];
              shape->reduced_src_strides[last] = src->strides[d];
              args->n_reduced *= sizes[d];
              continue;
            }
          if (shape->n_reduced == LT_KR_MAX_DIMS)
            goto too_many;
          shape->reduced_sizes[shape->n_reduced] = sizes[d];
          shape->reduced_src_strides[shape->n_reduced] = src->strides[d];
          shape->n_reduced++;
          args->n_reduced *= sizes[d];
        }
    }
  if (args->n_reduced == 0)
    shape->n_reduced = 0;

  args->dst_offset = dst != NULL ? dst->offset : 0;
  args->indices_offset = indices != NULL ? indices->offset : 0;
  args->src_offset = src->offset;
  args->correction = params->correction;
  args->p = params->p;
  args->op = params->op;
  args->dst_dtype = dst != NULL ? dst->dtype : LT_DTYPE_INT64;
  args->dst_size = (int) lt_dtype_get_element_size (args->dst_dtype);
  args->src_dtype = src->dtype;
  args->src_size = (int) lt_dtype_get_element_size (src->dtype);
  args->integral = src->dtype == LT_DTYPE_BOOL || lt_dtype_is_integer (src->dtype);
  args->is_complex = lt_dtype_is_complex (src->dtype);
  args->has_dst = dst != NULL;
  args->has_indices = indices != NULL;
  return TRUE;

too_many:
  g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
               _("device reductions handle %d kept and %d reduced dims of size above 1; reshape "
                 "the tensor first"), LT_KR_MAX_DIMS, LT_KR_MAX_DIMS);
  return FALSE;
}

/* Fills the kept dims of @shape from the merged dims of @loop (operand 0
 * the destination, 1 the source). */
static gboolean
kept_from_loop (const LtLoopShape *loop,
                LtReduceArgs      *args,
                LtReduceShape     *shape,
                GError           **error)
{
  if (loop->ndim > LT_KR_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   _("device kernels handle %d dims that cannot be merged, and this one has %u; "
                     "reshape the tensor first"), LT_KR_MAX_DIMS, loop->ndim);
      return FALSE;
    }
  args->n_out = 1;
  for (guint d = 0; d < loop->ndim; d++)
    {
      shape->kept_sizes[d] = loop->sizes[d];
      shape->kept_dst_strides[d] = loop->strides[0][d];
      shape->kept_src_strides[d] = loop->strides[1][d];
      args->n_out *= loop->sizes[d];
    }
  shape->n_kept = (int) loop->ndim;
  return TRUE;
}

static void
set_dtypes (LtReduceArgs    *args,
            const LtOperand *dst,
            const LtOperand *src)
{
  args->dst_offset = dst->offset;
  args->src_offset = src->offset;
  args->dst_dtype = dst->dtype;
  args->dst_size = (int) lt_dtype_get_element_size (dst->dtype);
  args->src_dtype = src->dtype;
  args->src_size = (int) lt_dtype_get_element_size (src->dtype);
  args->integral = src->dtype == LT_DTYPE_BOOL || lt_dtype_is_integer (src->dtype);
  args->is_complex = lt_dtype_is_complex (src->dtype);
  args->has_dst = TRUE;
}

static gboolean
plan_lines (int                   op,
            guint                 ndim,
            const gint64         *sizes,
            guint                 dim,
            const LtOperand      *dst,
            const LtOperand      *src,
            LtReduceArgs         *args,
            LtReduceShape        *shape,
            GError              **error)
{
  gint64 other_sizes[LT_MAX_DIMS], dst_strides[LT_MAX_DIMS], src_strides[LT_MAX_DIMS];
  LtOperand other_dst = *dst, other_src = *src;
  const LtOperand *operands[2] = { &other_dst, &other_src };
  LtLoopShape loop;
  guint n = 0;

  memset (args, 0, sizeof *args);
  memset (shape, 0, sizeof *shape);
  for (guint d = 0; d < ndim; d++)
    {
      if (d == dim)
        continue;
      other_sizes[n] = sizes[d];
      dst_strides[n] = dst->strides[d];
      src_strides[n] = src->strides[d];
      n++;
    }
  other_dst.strides = dst_strides;
  other_src.strides = src_strides;
  if (simplify_operands (n, other_sizes, operands, 2, &loop) == 0)
    return TRUE;
  if (!kept_from_loop (&loop, args, shape, error))
    return FALSE;
  args->n_reduced = ndim == 0 ? 1 : sizes[dim];
  if (args->n_reduced == 0)
    args->n_out = 0;
  shape->n_reduced = 1;
  shape->reduced_sizes[0] = args->n_reduced;
  shape->reduced_src_strides[0] = ndim == 0 ? 0 : src->strides[dim];
  shape->line_dst_stride = ndim == 0 ? 0 : dst->strides[dim];
  args->op = op;
  set_dtypes (args, dst, src);
  return TRUE;
}

static gboolean
plan_allclose (guint            ndim,
               const gint64    *sizes,
               const LtOperand *a,
               const LtOperand *b,
               double           rtol,
               double           atol,
               gboolean         equal_nan,
               LtReduceArgs    *args,
               LtReduceShape   *shape,
               GError         **error)
{
  const LtOperand *operands[2] = { b, a };
  LtLoopShape loop;

  memset (args, 0, sizeof *args);
  memset (shape, 0, sizeof *shape);
  if (simplify_operands (ndim, sizes, operands, 2, &loop) == 0)
    return TRUE;
  if (!kept_from_loop (&loop, args, shape, error))
    return FALSE;
  set_dtypes (args, b, a);
  args->rtol = rtol;
  args->atol = atol;
  args->equal_nan = equal_nan;
  return TRUE;
}

static gboolean
plan_random (guint                 ndim,
             const gint64         *sizes,
             const LtOperand      *dst,
             const LtOperand      *probabilities,
             const LtRandomParams *params,
             guint64               seed,
             guint64               counter,
             LtRandomArgs         *args,
             GError              **error)
{
  LtDType real_dtype = lt_dtype_to_real (dst->dtype);

  memset (args, 0, sizeof *args);
  args->n = 1;
  for (guint d = 0; d < ndim; d++)
    {
      args->n *= sizes[d];
      if (sizes[d] == 1)
        continue;
      if (args->ndim == LT_KRAND_MAX_DIMS)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                       _("device random fills handle %d dims of size above 1; reshape the tensor "
                         "first"), LT_KRAND_MAX_DIMS);
          return FALSE;
        }
      args->sizes[args->ndim] = sizes[d];
      args->dst_strides[args->ndim] = dst->strides[d];
      args->probability_strides[args->ndim] = probabilities != NULL ? probabilities->strides[d]
                                                                    : 0;
      args->ndim++;
    }
  args->seed = seed;
  args->counter = counter;
  args->low = params->low;
  args->high = params->high;
  args->a = params->a;
  args->b = params->b;
  args->dst_offset = dst->offset;
  args->probability_offset = probabilities != NULL ? probabilities->offset : 0;
  args->distribution = params->distribution;
  args->dst_dtype = dst->dtype;
  args->real_dtype = real_dtype;
  args->real_size = (int) lt_dtype_get_element_size (real_dtype);
  args->probability_dtype = probabilities != NULL ? probabilities->dtype : LT_DTYPE_FLOAT64;
  args->probability_size = (int) lt_dtype_get_element_size (args->probability_dtype);
  args->has_probabilities = probabilities != NULL;
  args->is_complex = lt_dtype_is_complex (dst->dtype);
  switch (params->distribution)
    {
    case LT_RANDOM_INTEGER:
      args->per_block = (int) lt_random_integer_values_per_block ((guint64) params->high
                                                                  - (guint64) params->low);
      break;
    case LT_RANDOM_BERNOULLI:
      args->per_block = LT_RANDOM_BERNOULLI_VALUES_PER_BLOCK;
      break;
    default:
      args->per_block = (int) lt_random_values_per_block (dst->dtype);
      break;
    }
  return TRUE;
}

static gboolean
plan_matmul (guint            batch_ndim,
             const gint64    *batch_sizes,
             gint64           m,
             gint64           n,
             gint64           k,
             const LtOperand *out,
             const LtOperand *a,
             const LtOperand *b,
             LtMatmulArgs    *args,
             GError         **error)
{
  memset (args, 0, sizeof *args);
  args->n_out = m * n;
  for (guint d = 0; d < batch_ndim; d++)
    {
      args->n_out *= batch_sizes[d];
      if (batch_sizes[d] == 1)
        continue;
      if (args->batch_ndim == LT_KM_MAX_BATCH_DIMS)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                       _("device matrix products handle %d batch dims of size above 1; reshape "
                         "the operands first"), LT_KM_MAX_BATCH_DIMS);
          return FALSE;
        }
      args->batch_sizes[args->batch_ndim] = batch_sizes[d];
      args->out_batch_strides[args->batch_ndim] = out->strides[d];
      args->a_batch_strides[args->batch_ndim] = a->strides[d];
      args->b_batch_strides[args->batch_ndim] = b->strides[d];
      args->batch_ndim++;
    }
  args->out_offset = out->offset;
  args->a_offset = a->offset;
  args->b_offset = b->offset;
  args->out_row = out->strides[batch_ndim];
  args->out_col = out->strides[batch_ndim + 1];
  args->a_row = a->strides[batch_ndim];
  args->a_col = a->strides[batch_ndim + 1];
  args->b_row = b->strides[batch_ndim];
  args->b_col = b->strides[batch_ndim + 1];
  args->m = m;
  args->n = n;
  args->k = k;
  args->dtype = out->dtype;
  args->size = (int) lt_dtype_get_element_size (out->dtype);
  return TRUE;
}

static const LtBackendServices services = {
  .value_write = lt_value_write,
  .loop_shape_init = lt_loop_shape_init,
  .loop_shape_simplify = lt_loop_shape_simplify,
  .loop_shape_numel = lt_loop_shape_numel,
  .plan_elementwise = plan_elementwise,
  .plan_reduce = plan_reduce,
  .plan_lines = plan_lines,
  .plan_allclose = plan_allclose,
  .plan_random = plan_random,
  .plan_matmul = plan_matmul,
};

typedef struct
{
  gboolean tried;
  const LtBackendModule *module;  /* NULL when it could not be loaded */
  char *why;                       /* then, the reason */
} ModuleSlot;

/* One slot per device type, filled once: process-wide, as loaded modules
 * are. */
static GMutex modules_lock;
static ModuleSlot modules[LT_DEVICE_TYPE_OPENCL + 1];

static const char *
module_stem (LtDeviceType device_type)
{
  switch (device_type)
    {
    case LT_DEVICE_TYPE_CUDA:
      return "cuda";
    case LT_DEVICE_TYPE_OPENCL:
      return "opencl";
    case LT_DEVICE_TYPE_CPU:
    default:
      g_return_val_if_reached (NULL);
    }
}

static const char *
type_label (LtDeviceType device_type)
{
  return device_type == LT_DEVICE_TYPE_CUDA ? "CUDA" : "OpenCL";
}

/* The directories backend modules are looked for in, in order: those of
 * $LT_BACKEND_PATH when it is set and not empty, else the directory they
 * are installed to. The variable replaces the installed directory rather
 * than coming before it, so that an uninstalled build (its tests, `meson
 * devenv`) never loads an installed module, which may be of another
 * version. */
GStrv
lt_backend_module_directories (void)
{
  g_autoptr (GStrvBuilder) directories = g_strv_builder_new ();
  const char *search_path = g_getenv ("LT_BACKEND_PATH");

  if (search_path != NULL && *search_path != '\0')
    {
      g_auto (GStrv) parts = g_strsplit (search_path, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; parts[i] != NULL; i++)
        if (*parts[i] != '\0')
          g_strv_builder_add (directories, parts[i]);
    }
  else
    {
      g_strv_builder_add (directories, LT_BACKEND_DIR);
    }
  return g_strv_builder_end (directories);
}

/* Loads the module for @device_type from the first directory that has it;
 * the reason it failed otherwise, in @why. */
static const LtBackendModule *
load_module (LtDeviceType device_type,
             char       **why)
{
  g_autofree char *file_name = g_strdup_printf ("libtensor-1-%s.%s", module_stem (device_type),
                                                G_MODULE_SUFFIX);
  g_auto (GStrv) directories = lt_backend_module_directories ();
  g_autofree char *looked_in = g_strjoinv (", ", directories);

  for (guint i = 0; directories[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (directories[i], file_name, NULL);
      GModule *module;
      LtBackendModuleQueryFunc query;
      const LtBackendModule *info;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;

      module = g_module_open (path, G_MODULE_BIND_LOCAL);
      if (module == NULL)
        {
          *why = g_strdup_printf (_("%s could not be loaded: %s"), path, g_module_error ());
          return NULL;
        }
      if (!g_module_symbol (module, LT_BACKEND_MODULE_QUERY, (gpointer *) &query) || query == NULL)
        {
          *why = g_strdup_printf (_("%s is not a libtensor backend module (no %s())"), path,
                                  LT_BACKEND_MODULE_QUERY);
          g_module_close (module);
          return NULL;
        }
      info = query (&services);
      if (info == NULL || info->abi_version != LT_BACKEND_MODULE_ABI
          || info->device_type != device_type)
        {
          *why = g_strdup_printf (_("%s was built for another version of libtensor"), path);
          g_module_close (module);
          return NULL;
        }

      /* Backends hand out pointers into the module for the life of the
       * process (storages keep their backend). */
      g_module_make_resident (module);
      return info;
    }

  *why = g_strdup_printf (_("the %s backend is not installed (no %s in %s)"),
                          type_label (device_type), file_name, looked_in);
  return NULL;
}

static const LtBackendModule *
get_module (LtDeviceType device_type,
            const char **why)
{
  ModuleSlot *slot = &modules[device_type];

  lt_mutex_lock (&modules_lock);
  if (!slot->tried)
    {
      slot->module = load_module (device_type, &slot->why);
      slot->tried = TRUE;
    }
  lt_mutex_unlock (&modules_lock);

  *why = slot->why;
  return slot->module;
}

guint
lt_backend_count_devices (LtDeviceType device_type,
                          GError     **error)
{
  const LtBackendModule *module;
  const char *why;

  if (device_type == LT_DEVICE_TYPE_CPU)
    return 1;

  module = get_module (device_type, &why);
  if (module == NULL)
    {
      g_set_error_literal (error, LT_ERROR, LT_ERROR_DEVICE, why);
      return 0;
    }
  return module->count_devices (error);
}

char *
lt_backend_get_device_name (LtDeviceType device_type,
                            guint        index)
{
  const LtBackendModule *module;
  const char *why;

  g_return_val_if_fail (device_type != LT_DEVICE_TYPE_CPU, NULL);

  module = get_module (device_type, &why);
  g_return_val_if_fail (module != NULL, NULL);
  return module->get_device_name (index);
}

const LtBackend *
lt_backend_for_device (const LtDevice *device,
                       GError        **error)
{
  LtDeviceType device_type = lt_device_get_device_type (device);
  guint index = lt_device_get_index (device);
  g_autoptr (GError) local_error = NULL;
  g_autofree char *name = lt_device_to_string (device);
  const LtBackendModule *module;
  const char *why;
  guint count;

  if (device_type == LT_DEVICE_TYPE_CPU)
    {
      if (index == 0)
        return lt_cpu_backend_get ();
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   _("%s is not available: the host is the one CPU device, cpu"), name);
      return NULL;
    }

  module = get_module (device_type, &why);
  if (module == NULL)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE, _("%s is not available: %s"), name, why);
      return NULL;
    }

  count = module->count_devices (&local_error);
  if (count == 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE, _("%s is not available: %s"), name,
                   local_error != NULL ? local_error->message : _("no device found"));
      return NULL;
    }
  if (index >= count && count == 1)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   _("%s is not available: there is one %s device, %s:0"), name,
                   type_label (device_type), module_stem (device_type));
      return NULL;
    }
  if (index >= count)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   _("%s is not available: there are %u %s devices, %s:0 to %s:%u"), name, count,
                   type_label (device_type), module_stem (device_type), module_stem (device_type),
                   count - 1);
      return NULL;
    }

  return module->get_backend (index, error);
}
