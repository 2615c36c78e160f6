/* lt-opencl-pointwise.c: element-wise operations on an OpenCL device
 *
 * The first of the device's math kernels: add, sub (with alpha), mul,
 * maximum, minimum and the comparisons, neg and abs, on int32, int64,
 * float32 and float64, computed by the CPU's rules (lt-opencl-pointwise.cl),
 * so results match the CPU's bit for bit. Any other op or dtype is refused
 * with LT_ERROR_DEVICE, naming both; where, lerp, clamp and integer
 * division have no kernels yet (the table leaves them NULL).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-enums.h"
#include "lt-error.h"
#include "lt-opencl-private.h"

/* The same layout as LtOpenCLShape3 in lt-opencl-pointwise.cl. */
#define LT_OPENCL_MAX_DIMS 16

typedef struct
{
  cl_long sizes[LT_OPENCL_MAX_DIMS];
  cl_long strides[3][LT_OPENCL_MAX_DIMS];
  cl_int ndim;
  cl_int padding;
} LtOpenCLShape3;

static const struct
{
  LtDType dtype;
  const char *type;
  gboolean is_float;
} pointwise_dtypes[LT_OPENCL_N_POINTWISE_DTYPES] = {
  { LT_DTYPE_INT32, "int", FALSE },
  { LT_DTYPE_INT64, "long", FALSE },
  { LT_DTYPE_FLOAT32, "float", TRUE },
  { LT_DTYPE_FLOAT64, "double", TRUE },
};

static int
dtype_slot (LtDType dtype)
{
  for (int i = 0; i < LT_OPENCL_N_POINTWISE_DTYPES; i++)
    if (pointwise_dtypes[i].dtype == dtype)
      return i;
  return -1;
}

static gboolean
binary_supported (LtBinaryOp op)
{
  switch (op)
    {
    case LT_BINARY_OP_ADD:
    case LT_BINARY_OP_SUB:
    case LT_BINARY_OP_MUL:
    case LT_BINARY_OP_MAXIMUM:
    case LT_BINARY_OP_MINIMUM:
    case LT_BINARY_OP_EQ:
    case LT_BINARY_OP_NE:
    case LT_BINARY_OP_LT:
    case LT_BINARY_OP_LE:
    case LT_BINARY_OP_GT:
    case LT_BINARY_OP_GE:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
refuse (const LtBackend *self,
        GType            op_type,
        int              op,
        LtDType          dtype,
        GError         **error)
{
  g_autoptr (GEnumClass) ops = g_type_class_ref (op_type);
  GEnumValue *value = g_enum_get_value (ops, op);

  g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
               "%s(): opencl:%u has no %s kernel for %s tensors yet (only add, sub, mul, "
               "maximum, minimum, comparisons, neg and abs, on int32, int64, float32 and "
               "float64); move the tensors to the CPU with to_cpu() first",
               value != NULL ? value->value_nick : "?", self->device_index,
               value != NULL ? value->value_nick : "?", lt_dtype_get_name (dtype));
  return FALSE;
}

/* Builds the pointwise kernels for dtype slot @slot if that has not been
 * done. Called with the device's launch_lock held. */
static gboolean
ensure_kernels (LtOpenCLDevice *device,
                int             slot,
                GError        **error)
{
  g_autofree char *options = NULL;
  cl_kernel kernels[2];
  cl_program program;

  if (device->pointwise_programs[slot] != NULL)
    return TRUE;

  options = g_strdup_printf ("-DT=%s -DT_IS_FLOAT=%d -DLT_OP_ADD=%d -DLT_OP_SUB=%d "
                             "-DLT_OP_MUL=%d -DLT_OP_MAXIMUM=%d -DLT_OP_MINIMUM=%d -DLT_OP_EQ=%d "
                             "-DLT_OP_NE=%d -DLT_OP_LT=%d -DLT_OP_LE=%d -DLT_OP_GT=%d "
                             "-DLT_OP_GE=%d -DLT_OP_NEG=%d -DLT_OP_ABS=%d",
                             pointwise_dtypes[slot].type, pointwise_dtypes[slot].is_float,
                             LT_BINARY_OP_ADD, LT_BINARY_OP_SUB, LT_BINARY_OP_MUL,
                             LT_BINARY_OP_MAXIMUM, LT_BINARY_OP_MINIMUM, LT_BINARY_OP_EQ,
                             LT_BINARY_OP_NE, LT_BINARY_OP_LT, LT_BINARY_OP_LE, LT_BINARY_OP_GT,
                             LT_BINARY_OP_GE, LT_UNARY_OP_NEG, LT_UNARY_OP_ABS);
  program = lt_opencl_build_program (device,
                                     pointwise_dtypes[slot].dtype == LT_DTYPE_FLOAT64
                                       ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                       : NULL,
                                     (const char *[]) { "lt-opencl-pointwise.cl", NULL }, options,
                                     error);
  if (program == NULL
      || !lt_opencl_create_kernels (program,
                                    (const char *[]) { "unary_strided", "binary_strided", NULL },
                                    kernels, error))
    return FALSE;
  device->unary_kernels[slot] = kernels[0];
  device->binary_kernels[slot] = kernels[1];
  device->pointwise_programs[slot] = program;
  return TRUE;
}

/* The simplified dims of @n_operands operands; FALSE with @error set when
 * too many are left. */
static gboolean
shape_for (guint             ndim,
           const gint64     *sizes,
           const LtOperand **operands,
           guint             n_operands,
           LtOpenCLShape3   *shape,
           gint64           *numel,
           GError          **error)
{
  gint64 strides[3][LT_MAX_DIMS];
  const gint64 *stride_ptrs[3];
  LtLoopShape loop;

  for (guint op = 0; op < n_operands; op++)
    {
      for (guint d = 0; d < ndim; d++)
        strides[op][d] = sizes[d] <= 1 ? 0 : operands[op]->strides[d];
      stride_ptrs[op] = strides[op];
    }
  lt_opencl_services->loop_shape_init (&loop, ndim, sizes, n_operands, stride_ptrs);
  *numel = lt_opencl_services->loop_shape_numel (&loop);
  if (*numel == 0)
    return TRUE;
  lt_opencl_services->loop_shape_simplify (&loop);
  if (loop.ndim > LT_OPENCL_MAX_DIMS)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                   "OpenCL kernels handle %d dims that cannot be merged, and this one has %u",
                   LT_OPENCL_MAX_DIMS, loop.ndim);
      return FALSE;
    }
  memset (shape, 0, sizeof *shape);
  shape->ndim = (cl_int) loop.ndim;
  for (guint d = 0; d < loop.ndim; d++)
    {
      shape->sizes[d] = loop.sizes[d];
      for (guint op = 0; op < n_operands; op++)
        shape->strides[op][d] = loop.strides[op][d];
    }
  return TRUE;
}

static gboolean
opencl_unary (const LtBackend *self,
              LtUnaryOp        op,
              guint            ndim,
              const gint64    *sizes,
              const LtOperand *out,
              const LtOperand *in,
              GError         **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  const LtOperand *operands[] = { out, in };
  int slot = dtype_slot (in->dtype);
  cl_mem out_buffer = out->buffer, in_buffer = in->buffer;
  cl_long out_offset = out->offset, in_offset = in->offset, n;
  cl_int kernel_op = op;
  LtOpenCLShape3 shape;
  gint64 numel;
  gboolean done = FALSE;

  if (slot < 0 || (op != LT_UNARY_OP_NEG && op != LT_UNARY_OP_ABS))
    return refuse (self, LT_TYPE_UNARY_OP, op, in->dtype, error);
  if (!shape_for (ndim, sizes, operands, 2, &shape, &numel, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  n = numel;

  g_mutex_lock (&device->launch_lock);
  if (ensure_kernels (device, slot, error))
    {
      cl_kernel kernel = device->unary_kernels[slot];

      clSetKernelArg (kernel, 0, sizeof out_buffer, &out_buffer);
      clSetKernelArg (kernel, 1, sizeof in_buffer, &in_buffer);
      clSetKernelArg (kernel, 2, sizeof out_offset, &out_offset);
      clSetKernelArg (kernel, 3, sizeof in_offset, &in_offset);
      clSetKernelArg (kernel, 4, sizeof kernel_op, &kernel_op);
      clSetKernelArg (kernel, 5, sizeof shape, &shape);
      clSetKernelArg (kernel, 6, sizeof n, &n);
      done = lt_opencl_launch (device, kernel, numel, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}

static gboolean
opencl_binary (const LtBackend *self,
               LtBinaryOp       op,
               guint            ndim,
               const gint64    *sizes,
               const LtOperand *out,
               const LtOperand *a,
               const LtOperand *b,
               LtValue          alpha,
               GError         **error)
{
  LtOpenCLDevice *device = (LtOpenCLDevice *) self;
  const LtOperand *operands[] = { out, a, b };
  int slot = dtype_slot (a->dtype);
  cl_mem out_buffer = out->buffer, a_buffer = a->buffer, b_buffer = b->buffer;
  cl_long out_offset = out->offset, a_offset = a->offset, b_offset = b->offset, n;
  cl_int kernel_op = op;
  /* The caller passes an integer alpha for integer dtypes, a real one for
   * floats. */
  gboolean integral_alpha = alpha.kind == LT_VALUE_INT || alpha.kind == LT_VALUE_BOOL;
  cl_long alpha_i = integral_alpha ? alpha.i : 0;
  double alpha_f = integral_alpha ? (double) alpha.i : alpha.re;
  guint64 alpha_t = 0;
  LtOpenCLShape3 shape;
  gint64 numel;
  gboolean done = FALSE;

  if (slot < 0 || !binary_supported (op))
    return refuse (self, LT_TYPE_BINARY_OP, op, a->dtype, error);
  if (!shape_for (ndim, sizes, operands, 3, &shape, &numel, error))
    return FALSE;
  if (numel == 0)
    return TRUE;
  n = numel;

  /* Alpha in the element type, as the CPU's (T) alpha cast. */
  if (a->dtype == LT_DTYPE_FLOAT32)
    {
      float value = (float) alpha_f;
      memcpy (&alpha_t, &value, sizeof value);
    }
  else if (a->dtype == LT_DTYPE_FLOAT64)
    memcpy (&alpha_t, &alpha_f, sizeof alpha_f);
  else if (a->dtype == LT_DTYPE_INT32)
    {
      gint32 value = (gint32) alpha_i;
      memcpy (&alpha_t, &value, sizeof value);
    }
  else
    memcpy (&alpha_t, &alpha_i, sizeof alpha_i);

  g_mutex_lock (&device->launch_lock);
  if (ensure_kernels (device, slot, error))
    {
      cl_kernel kernel = device->binary_kernels[slot];

      clSetKernelArg (kernel, 0, sizeof out_buffer, &out_buffer);
      clSetKernelArg (kernel, 1, sizeof a_buffer, &a_buffer);
      clSetKernelArg (kernel, 2, sizeof b_buffer, &b_buffer);
      clSetKernelArg (kernel, 3, sizeof out_offset, &out_offset);
      clSetKernelArg (kernel, 4, sizeof a_offset, &a_offset);
      clSetKernelArg (kernel, 5, sizeof b_offset, &b_offset);
      clSetKernelArg (kernel, 6, sizeof kernel_op, &kernel_op);
      clSetKernelArg (kernel, 7, sizeof alpha_i, &alpha_i);
      clSetKernelArg (kernel, 8, lt_dtype_get_element_size (a->dtype), &alpha_t);
      clSetKernelArg (kernel, 9, sizeof shape, &shape);
      clSetKernelArg (kernel, 10, sizeof n, &n);
      done = lt_opencl_launch (device, kernel, numel, error);
    }
  g_mutex_unlock (&device->launch_lock);
  return done;
}

const LtPointwiseKernels lt_opencl_pointwise_kernels = {
  .unary = opencl_unary,
  .binary = opencl_binary,
};
