/* lt-tensor-pointwise.c: pointwise operations, out of place and in place
 *
 * Every operation follows the same steps: work out the result dtype
 * (lt-promote.c) and the dtype the kernel computes in, refuse the dtypes
 * PyTorch refuses, broadcast the shapes, convert each input that needs it
 * (once, unexpanded) and expand it, then run the backend's kernel into a new
 * contiguous tensor or into self. In place, inputs that share memory with
 * self in another layout are copied first, so the result is the one computed
 * from the old values; a result of another dtype than self goes through a
 * temporary and is cast on the way in.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lt-error.h"
#include "lt-i18n-private.h"
#include "lt-names-private.h"
#include "lt-layout.h"
#include "lt-tensor-private.h"

#define MAX_INPUTS 3

static const char *const unary_names[] = {
  "neg", "abs", "sign", "sqrt", "rsqrt", "exp", "log", "log1p", "expm1", "sin", "cos", "tan",
  "tanh", "sigmoid", "relu", "floor", "ceil", "round", "trunc", "logical_not", "bitwise_not",
  "isnan", "isinf", "isfinite", "erf",
};

static const char *const binary_names[] = {
  "add", "sub", "mul", "div", "floor_divide", "trunc_divide", "remainder", "pow", "maximum",
  "minimum", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
  "bitwise_and", "bitwise_or", "bitwise_xor",
};

G_STATIC_ASSERT (G_N_ELEMENTS (unary_names) == LT_UNARY_OP_ERF + 1);
G_STATIC_ASSERT (G_N_ELEMENTS (binary_names) == LT_BINARY_OP_BITWISE_XOR + 1);

typedef enum
{
  KERNEL_UNARY,
  KERNEL_BINARY,
  KERNEL_WHERE,
  KERNEL_LERP,
  KERNEL_CLAMP,
} KernelKind;

typedef struct
{
  KernelKind kind;
  int op;
  LtValue alpha;
} Kernel;

static gboolean
same_layout (LtTensor *a,
             LtTensor *b)
{
  return a->storage == b->storage && a->storage_offset == b->storage_offset
         && a->ndim == b->ndim
         && memcmp (a->sizes, b->sizes, a->ndim * sizeof (gint64)) == 0
         && memcmp (a->strides, b->strides, a->ndim * sizeof (gint64)) == 0;
}

static gboolean
is_integral (LtDType dtype)
{
  return dtype == LT_DTYPE_BOOL || lt_dtype_is_integer (dtype);
}

static const char *
dtype_name (LtDType dtype)
{
  return lt_dtype_get_name (dtype);
}

/* The broadcast sizes of @tensors, or an error naming the clashing shapes;
 * and the names of the result, matched from the right (all NULL without
 * names), or an error naming the clashing names. */
static gboolean
broadcast (const char      *op,
           LtTensor *const *tensors,
           guint            n_tensors,
           guint           *out_ndim,
           gint64          *out_sizes,
           const char     **out_names,
           GError         **error)
{
  gboolean named = FALSE;
  guint ndim = 0;

  for (guint i = 0; i < n_tensors; i++)
    {
      gint64 sizes[LT_MAX_DIMS];
      guint bad_dim;

      if (!lt_layout_broadcast_shapes (ndim, out_sizes, tensors[i]->ndim, tensors[i]->sizes,
                                       &ndim, sizes, &bad_dim))
        {
          g_autofree char *a = lt_layout_shape_to_string (ndim, out_sizes);
          g_autofree char *b = lt_layout_shape_to_string (tensors[i]->ndim, tensors[i]->sizes);
          g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                       _("%s: the shapes %s and %s do not broadcast: dim %u of the result would "
                         "need sizes that differ and are not 1; make them equal or 1 there"),
                       op, a, b, bad_dim);
          return FALSE;
        }
      memcpy (out_sizes, sizes, ndim * sizeof (gint64));
    }
  *out_ndim = ndim;

  memset (out_names, 0, ndim * sizeof (char *));
  for (guint i = 0; i < n_tensors; i++)
    {
      const char *names[LT_MAX_DIMS];

      if (tensors[i]->names == NULL)
        continue;
      if (!lt_names_unify_lists (op, ndim, named ? out_names : NULL, tensors[i]->ndim,
                                 tensors[i]->names, ndim, names, error))
        return FALSE;
      memcpy (out_names, names, ndim * sizeof (char *));
      named = TRUE;
    }
  return TRUE;
}

/* @t in @dtype, expanded to @sizes: @t itself (a new reference) where it
 * is both already, as the operands of most calls are; a view made and
 * freed for each would cost more than a small op's kernel. */
static LtTensor *
prepare_input (LtTensor     *t,
               LtDType       dtype,
               guint         ndim,
               const gint64 *sizes,
               GError      **error)
{
  g_autoptr (LtTensor) converted = lt_tensor_to_dtype (t, dtype, error);

  if (converted == NULL)
    return NULL;
  if (converted->ndim == ndim && memcmp (converted->sizes, sizes, ndim * sizeof (gint64)) == 0)
    return g_steal_pointer (&converted);
  return lt_tensor_expand (converted, sizes, ndim, error);
}

/* Runs @kernel on @inputs into @out, on @out's device; FALSE with @error
 * set when the inputs are elsewhere or the device has no kernel for it. */
static gboolean
launch (const char      *op,
        const Kernel    *kernel,
        LtTensor        *out,
        LtTensor *const *inputs,
        GError         **error)
{
  const LtBackend *backend = lt_storage_get_backend (out->storage);
  const LtPointwiseKernels *k = backend->pointwise;
  LtTensor *all[MAX_INPUTS + 1] = { out };
  LtOperand o = lt_tensor_operand (out);
  LtOperand in[MAX_INPUTS];
  guint n = 0;
  gboolean supported;

  for (; n < MAX_INPUTS && inputs[n] != NULL; n++)
    {
      in[n] = lt_tensor_operand (inputs[n]);
      all[n + 1] = inputs[n];
    }
  if (!lt_tensor_check_same_device (op, all, n + 1, error))
    return FALSE;

  switch (kernel->kind)
    {
    case KERNEL_UNARY:
      supported = k != NULL && k->unary != NULL;
      break;
    case KERNEL_BINARY:
      supported = k != NULL && k->binary != NULL;
      break;
    case KERNEL_WHERE:
      supported = k != NULL && k->where != NULL;
      break;
    case KERNEL_LERP:
      supported = k != NULL && k->lerp != NULL;
      break;
    case KERNEL_CLAMP:
    default:
      supported = k != NULL && k->clamp != NULL;
      break;
    }
  if (!supported)
    return lt_tensor_check_host (op, &out, 1, error);

  switch (kernel->kind)
    {
    case KERNEL_UNARY:
      return k->unary (backend, kernel->op, out->ndim, out->sizes, &o, &in[0], error);
    case KERNEL_BINARY:
      return k->binary (backend, kernel->op, out->ndim, out->sizes, &o, &in[0], &in[1],
                        kernel->alpha, error);
    case KERNEL_WHERE:
      return k->where (backend, out->ndim, out->sizes, &o, &in[0], &in[1], &in[2], error);
    case KERNEL_LERP:
      return k->lerp (backend, out->ndim, out->sizes, &o, &in[0], &in[1], &in[2], error);
    case KERNEL_CLAMP:
      return k->clamp (backend, out->ndim, out->sizes, &o, &in[0], &in[1], &in[2], error);
    default:
      g_assert_not_reached ();
    }
}

/* Checks that a result of @result_dtype and @sizes may be written into
 * @self. */
static gboolean
check_in_place (const char   *op,
                LtTensor     *self,
                LtDType       result_dtype,
                guint         ndim,
                const gint64 *sizes,
                GError      **error)
{
  LtDType dtype = lt_tensor_get_dtype (self);

  if (!lt_dtype_can_cast (result_dtype, dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: the result has dtype %s, which cannot be written into a tensor of "
                     "dtype %s in place; use the out-of-place operation, or convert the tensor "
                     "with to_dtype() first"),
                   op, dtype_name (result_dtype), dtype_name (dtype));
      return FALSE;
    }
  if (ndim != self->ndim || memcmp (sizes, self->sizes, ndim * sizeof (gint64)) != 0)
    {
      g_autofree char *want = lt_layout_shape_to_string (ndim, sizes);
      g_autofree char *have = lt_layout_shape_to_string (self->ndim, self->sizes);
      g_set_error (error, LT_ERROR, LT_ERROR_SHAPE_MISMATCH,
                   _("%s: the operands broadcast to sizes %s, but the tensor written in place "
                     "has sizes %s and cannot grow; use the out-of-place operation"),
                   op, want, have);
      return FALSE;
    }
  return lt_tensor_check_writable (op, self, error);
}

/* Runs @kernel on @inputs (in the computation dtype, expanded to @sizes)
 * into a new tensor of @out_dtype and @names when @self is NULL, or else
 * into @self (already checked with check_in_place()). */
static gboolean
execute (const char        *op,
         const Kernel      *kernel,
         LtTensor          *self,
         LtDType            out_dtype,
         guint              ndim,
         const gint64      *sizes,
         const char *const *names,
         LtTensor         **inputs,
         LtTensor         **out_result,
         GError           **error)
{
  g_autoptr (LtTensor) out = NULL;

  if (self == NULL || lt_tensor_get_dtype (self) != out_dtype)
    {
      /* On the inputs' device. */
      out = lt_tensor_new_contiguous_on (lt_storage_get_backend (inputs[0]->storage), op,
                                         out_dtype, ndim, sizes, error);
      if (out == NULL || !launch (op, kernel, out, inputs, error))
        return FALSE;
      if (self == NULL)
        {
          /* In place, the tensor keeps its own names: metadata never
           * changes once a tensor exists. */
          lt_tensor_set_names_internal (out, names);
          *out_result = g_steal_pointer (&out);
          return TRUE;
        }
      /* Cast the finished result into self: everything was read already. */
      {
        const LtBackend *backend = lt_storage_get_backend (self->storage);
        LtOperand dst = lt_tensor_operand (self);
        LtOperand src = lt_tensor_operand (out);

        return backend->copy (backend, self->ndim, self->sizes, &dst, &src, error);
      }
    }

  for (guint i = 0; i < MAX_INPUTS && inputs[i] != NULL; i++)
    if (!same_layout (inputs[i], self) && lt_tensor_shares_storage (inputs[i], self))
      {
        /* Read the old values before any is overwritten. */
        LtTensor *detached = lt_tensor_clone (inputs[i], error);

        if (detached == NULL)
          return FALSE;
        g_object_unref (inputs[i]);
        inputs[i] = detached;
      }
  return launch (op, kernel, self, inputs, error);
}

/* A CPU scalar (0-dim tensor) meets a device tensor on the device, as in
 * PyTorch: replaces each such operand of @operands with a copy on the
 * device of the first operand that is not one, converted on the CPU to the
 * dtype the op computes it in (@dtypes, one per operand: a device need
 * not convert from float64, which some cannot), keeping the copies in
 * @moved for the caller to drop. The first operand stays when @keep_first
 * (the tensor written in place). Other operands must already share a
 * device (launch() checks). */
typedef struct
{
  LtTensor *tensors[MAX_INPUTS];
} MovedScalars;

static void
moved_scalars_clear (MovedScalars *moved)
{
  for (guint i = 0; i < MAX_INPUTS; i++)
    g_clear_object (&moved->tensors[i]);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MovedScalars, moved_scalars_clear)

static gboolean
move_cpu_scalars (LtTensor     **operands,
                  guint          n,
                  gboolean       keep_first,
                  const LtDType *dtypes,
                  MovedScalars  *moved,
                  GError       **error)
{
  LtTensor *target = NULL;
  g_autoptr (LtDevice) device = NULL;

  g_assert (n <= MAX_INPUTS);
  for (guint i = 0; i < n && target == NULL; i++)
    if (operands[i] != NULL
        && (operands[i]->ndim != 0
            || lt_storage_get_device_type (operands[i]->storage) != LT_DEVICE_TYPE_CPU))
      target = operands[i];
  if (target == NULL || lt_storage_get_device_type (target->storage) == LT_DEVICE_TYPE_CPU)
    return TRUE;

  device = lt_tensor_get_device (target);
  for (guint i = keep_first ? 1 : 0; i < n; i++)
    if (operands[i] != NULL && operands[i]->ndim == 0
        && lt_storage_get_device_type (operands[i]->storage) == LT_DEVICE_TYPE_CPU)
      {
        g_autoptr (LtTensor) converted = lt_tensor_to_dtype (operands[i], dtypes[i], error);
        LtTensor *copy = converted != NULL ? lt_tensor_to_device (converted, device, error) : NULL;

        if (copy == NULL)
          return FALSE;
        copy->is_wrapped_number = operands[i]->is_wrapped_number;
        moved->tensors[i] = copy;
        operands[i] = copy;
      }
  return TRUE;
}

static void
clear_inputs (LtTensor **inputs)
{
  for (guint i = 0; i < MAX_INPUTS; i++)
    g_clear_object (&inputs[i]);
}

/* Unary operations */

static gboolean
is_float_function (LtUnaryOp op)
{
  return (op >= LT_UNARY_OP_SQRT && op <= LT_UNARY_OP_SIGMOID) || op == LT_UNARY_OP_ERF;
}

static gboolean
unary_supports (LtUnaryOp op,
                LtDType   dtype)
{
  gboolean is_bool = dtype == LT_DTYPE_BOOL;
  gboolean is_complex = lt_dtype_is_complex (dtype);

  switch (op)
    {
    case LT_UNARY_OP_NEG:
      return !is_bool;
    case LT_UNARY_OP_ABS:
    case LT_UNARY_OP_RELU:
    case LT_UNARY_OP_FLOOR:
    case LT_UNARY_OP_CEIL:
    case LT_UNARY_OP_ROUND:
    case LT_UNARY_OP_TRUNC:
      return !is_bool && (!is_complex || op == LT_UNARY_OP_ABS);
    case LT_UNARY_OP_SIGN:
    case LT_UNARY_OP_LOG1P:
    case LT_UNARY_OP_EXPM1:
    case LT_UNARY_OP_ERF:
      return !is_complex;
    case LT_UNARY_OP_BITWISE_NOT:
      return is_integral (dtype);
    default:
      return TRUE;
    }
}

/* Room for the longest op name, "bitwise_xor_()", and its nul. */
#define OP_NAME_SIZE 16

/* @given, or else the name of the op @base (its in-place form where
 * @in_place), put together in @buffer: by hand, not by printf, which took
 * a tenth of a small op's time for a name only errors read. */
static const char *
op_name (const char *given,
         const char *base,
         gboolean    in_place,
         char        buffer[OP_NAME_SIZE])
{
  gsize length;

  if (given != NULL)
    return given;
  length = strlen (base);
  g_assert (length + sizeof "_()" <= OP_NAME_SIZE);
  memcpy (buffer, base, length);
  if (in_place)
    buffer[length++] = '_';
  memcpy (buffer + length, "()", sizeof "()");
  return buffer;
}

/* @name: the op's name in errors, or NULL for @op's own. */
static gboolean
unary (LtTensor   *self,
       LtUnaryOp   op,
       gboolean    in_place,
       const char *name,
       LtTensor  **out_result,
       GError    **error)
{
  char buffer[OP_NAME_SIZE];
  const char *opname = op_name (name, unary_names[op], in_place, buffer);
  LtDType dtype = lt_tensor_get_dtype (self);
  LtDType compute = dtype, out_dtype;
  LtTensor *inputs[MAX_INPUTS] = { NULL };
  Kernel kernel = { KERNEL_UNARY, op };
  gboolean ok;

  if (is_float_function (op) && is_integral (dtype))
    compute = LT_DTYPE_DEFAULT;
  if (!unary_supports (op, compute))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   op == LT_UNARY_OP_NEG
                     ? _("%s: not supported for %s tensors; to invert a bool mask use "
                         "logical_not()")
                     : _("%s: not supported for %s tensors"),
                   opname, dtype_name (dtype));
      return FALSE;
    }

  if (op == LT_UNARY_OP_LOGICAL_NOT || op == LT_UNARY_OP_ISNAN || op == LT_UNARY_OP_ISINF
      || op == LT_UNARY_OP_ISFINITE)
    out_dtype = LT_DTYPE_BOOL;
  else if (op == LT_UNARY_OP_ABS)
    out_dtype = lt_dtype_to_real (compute);
  else
    out_dtype = compute;

  if (in_place)
    {
      if (op == LT_UNARY_OP_ABS && lt_dtype_is_complex (dtype))
        {
          g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                       _("%s: the absolute value of a %s tensor is real and cannot be written "
                         "in place; use abs()"), opname, dtype_name (dtype));
          return FALSE;
        }
      if (!check_in_place (opname, self, out_dtype, self->ndim, self->sizes, error))
        return FALSE;
    }

  inputs[0] = lt_tensor_to_dtype (self, compute, error);
  if (inputs[0] == NULL)
    return FALSE;
  ok = execute (opname, &kernel, in_place ? self : NULL, out_dtype, self->ndim, self->sizes,
                self->names, inputs, out_result, error);
  clear_inputs (inputs);
  return ok;
}

/**
 * lt_tensor_unary:
 * @self: an #LtTensor
 * @op: the operation
 * @error: return location for a #GError
 *
 * Applies @op to every element of @self, which may be any strided view. The
 * result is a new contiguous tensor: bool for the predicates, float32 for the
 * floating point functions of bool and integer tensors, the real dtype for
 * the absolute value of a complex tensor, and @self's dtype otherwise.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *   (%LT_ERROR_DTYPE when @op does not support @self's dtype, as neg() of a
 *   bool tensor or floor() of a complex one)
 */
LtTensor *
lt_tensor_unary (LtTensor  *self,
                 LtUnaryOp  op,
                 GError   **error)
{
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (op >= 0 && op <= LT_UNARY_OP_ERF, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!unary (self, op, FALSE, NULL, &result, error))
    return NULL;
  return result;
}

/**
 * lt_tensor_unary_:
 * @self: the #LtTensor to write into
 * @op: the operation
 * @error: return location for a #GError
 *
 * Applies @op to every element of @self in place, writing through the view
 * into its storage.
 *
 * Returns: %TRUE on success; %FALSE with @error set when the result's dtype
 *   cannot be cast to @self's (sqrt_() of an integer tensor), @self's
 *   elements share memory, or @op does not support the dtype; then nothing
 *   was written
 */
gboolean
lt_tensor_unary_ (LtTensor  *self,
                  LtUnaryOp  op,
                  GError   **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (op >= 0 && op <= LT_UNARY_OP_ERF, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return unary (self, op, TRUE, NULL, NULL, error);
}

/* Binary operations */

static gboolean
is_predicate (LtBinaryOp op)
{
  return op >= LT_BINARY_OP_EQ && op <= LT_BINARY_OP_LOGICAL_XOR;
}

static gboolean
binary_supports (LtBinaryOp op,
                 LtDType    dtype)
{
  if (dtype == LT_DTYPE_BOOL)
    return op == LT_BINARY_OP_ADD || op == LT_BINARY_OP_MUL || op == LT_BINARY_OP_MAXIMUM
           || op == LT_BINARY_OP_MINIMUM || op >= LT_BINARY_OP_EQ;
  if (lt_dtype_is_integer (dtype))
    return op != LT_BINARY_OP_DIV;
  if (lt_dtype_is_complex (dtype))
    return op <= LT_BINARY_OP_DIV || op == LT_BINARY_OP_POW || op == LT_BINARY_OP_EQ
           || op == LT_BINARY_OP_NE
           || (op >= LT_BINARY_OP_LOGICAL_AND && op <= LT_BINARY_OP_LOGICAL_XOR);
  return op < LT_BINARY_OP_BITWISE_AND;
}

typedef enum
{
  POWER_AS_POW,
  POWER_AS_SQRT,
  POWER_AS_RSQRT,
  POWER_AS_SQUARE,
} PowerShortcut;

/* How PyTorch 1.13's CPU kernels take @self to the power @exponent where
 * that is a Python number (a wrapped number) of 0.5, -0.5 or 2 and the
 * result's dtype @result is float32, float64 or bfloat16 (float16 keeps
 * pow): as sqrt or rsqrt, of @self converted to @result (so integer and
 * bool tensors too), or as x · x where @self is of @result already. One
 * rounding (two for rsqrt) where pow's are its own, at a fraction of its
 * cost; and PyTorch's values where they differ from pow's: (-0) ** 0.5 is
 * -0 and (-inf) ** 0.5 NaN, as sqrt gives them. */
static PowerShortcut
power_shortcut (LtTensor *self,
                LtTensor *exponent,
                LtDType   result)
{
  LtDType dtype = lt_tensor_get_dtype (self);
  /* sqrt () of an integer tensor is float32's: the result dtype here. */
  gboolean same = dtype == result, rooted = same || result == LT_DTYPE_DEFAULT;
  double value;

  if (!exponent->is_wrapped_number || !lt_dtype_is_floating_point (result)
      || result == LT_DTYPE_FLOAT16 || (!same && !is_integral (dtype)))
    return POWER_AS_POW;
  value = lt_value_to_double (lt_value_read (lt_tensor_get_dtype (exponent),
                                             lt_tensor_operand (exponent).data));
  if (value == 0.5 && rooted)
    return POWER_AS_SQRT;
  if (value == -0.5 && rooted)
    return POWER_AS_RSQRT;
  if (value == 2 && same)
    return POWER_AS_SQUARE;
  return POWER_AS_POW;
}

/* @name: the op's name in errors, or NULL for @op's own. */
static gboolean
binary (LtTensor   *self,
        LtBinaryOp  op,
        LtTensor   *other,
        double      alpha,
        gboolean    in_place,
        const char *name,
        LtTensor  **out_result,
        GError    **error)
{
  char buffer[OP_NAME_SIZE];
  const char *opname = op_name (name, binary_names[op], in_place, buffer);
  LtTensor *operands[2] = { self, other };
  LtTensor *inputs[MAX_INPUTS] = { NULL };
  LtDType result = lt_tensor_result_type_of (operands, 2);
  LtDType compute = result, out_dtype;
  Kernel kernel = { KERNEL_BINARY, op };
  gint64 sizes[LT_MAX_DIMS];
  const char *names[LT_MAX_DIMS];
  guint ndim;
  gboolean ok;
  g_auto (MovedScalars) moved = { { NULL } };

  if (op == LT_BINARY_OP_DIV && is_integral (result))
    compute = LT_DTYPE_DEFAULT;
  out_dtype = is_predicate (op) ? LT_DTYPE_BOOL : compute;

  if (op == LT_BINARY_OP_POW)
    switch (power_shortcut (self, other, compute))
      {
      case POWER_AS_SQRT:
        return unary (self, LT_UNARY_OP_SQRT, in_place, opname, out_result, error);
      case POWER_AS_RSQRT:
        return unary (self, LT_UNARY_OP_RSQRT, in_place, opname, out_result, error);
      case POWER_AS_SQUARE:
        return binary (self, LT_BINARY_OP_MUL, self, 1.0, in_place, opname, out_result, error);
      case POWER_AS_POW:
        break;
      }

  if (op == LT_BINARY_OP_SUB
      && (lt_tensor_get_dtype (self) == LT_DTYPE_BOOL
          || lt_tensor_get_dtype (other) == LT_DTYPE_BOOL))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: subtraction with a bool operand is not supported; use logical_xor() "
                     "for two bool tensors, or logical_not() to invert a mask"), opname);
      return FALSE;
    }
  if (!binary_supports (op, compute))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: not supported for operands of dtypes %s and %s (computed as %s)"),
                   opname, dtype_name (lt_tensor_get_dtype (self)),
                   dtype_name (lt_tensor_get_dtype (other)), dtype_name (compute));
      return FALSE;
    }
  if (alpha != 1.0 && is_integral (compute)
      && (alpha != trunc (alpha) || fabs (alpha) >= 0x1p63))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: alpha %g is not a 64-bit integer, which a %s result needs"), opname,
                   alpha, dtype_name (compute));
      return FALSE;
    }
  if (op == LT_BINARY_OP_POW && lt_dtype_is_integer (compute) && other->is_wrapped_number
      && is_integral (lt_tensor_get_dtype (other))
      && lt_value_to_int64 (lt_value_read (lt_tensor_get_dtype (other),
                                           lt_tensor_operand (other).data)) < 0)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: integers to negative integer powers are not allowed; convert the "
                     "base to a floating point dtype first"), opname);
      return FALSE;
    }

  if (!move_cpu_scalars (operands, 2, in_place, (const LtDType[]) { compute, compute }, &moved,
                         error))
    return FALSE;
  self = operands[0];
  other = operands[1];

  if (!broadcast (opname, operands, 2, &ndim, sizes, names, error))
    return FALSE;
  if (in_place && !check_in_place (opname, self, out_dtype, ndim, sizes, error))
    return FALSE;

  inputs[0] = prepare_input (self, compute, ndim, sizes, error);
  if (inputs[0] != NULL)
    inputs[1] = prepare_input (other, compute, ndim, sizes, error);
  if (inputs[1] == NULL)
    {
      clear_inputs (inputs);
      return FALSE;
    }

  if ((op == LT_BINARY_OP_FLOOR_DIVIDE || op == LT_BINARY_OP_TRUNC_DIVIDE
       || op == LT_BINARY_OP_REMAINDER)
      && lt_dtype_is_integer (compute))
    {
      const LtBackend *backend = lt_storage_get_backend (inputs[1]->storage);
      LtOperand divisor = lt_tensor_operand (inputs[1]);
      gboolean found = FALSE;

      if (backend->pointwise == NULL || backend->pointwise->any_zero == NULL)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_DEVICE,
                       _("%s: integer division is not supported on this device yet; move the "
                         "tensors to the CPU with to_cpu() first"), opname);
          clear_inputs (inputs);
          return FALSE;
        }
      if (!backend->pointwise->any_zero (backend, ndim, sizes, &divisor, &found, error))
        {
          clear_inputs (inputs);
          return FALSE;
        }
      if (found)
        {
          g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                       _("%s: integer division by zero; the divisor has a zero element"),
                       opname);
          clear_inputs (inputs);
          return FALSE;
        }
    }

  kernel.alpha = is_integral (compute) ? lt_value_from_int64 ((gint64) alpha)
                                       : lt_value_from_double (alpha);
  ok = execute (opname, &kernel, in_place ? self : NULL, out_dtype, ndim, sizes, names,
                inputs, out_result, error);
  clear_inputs (inputs);
  return ok;
}

/**
 * lt_tensor_binary:
 * @self: an #LtTensor
 * @op: the operation
 * @other: the second operand; lt_tensor_new_scalar_int() and friends make
 *   scalars that promote as Python numbers
 * @error: return location for a #GError
 *
 * Applies @op to the elements of @self and @other, broadcast against each
 * other, after converting both to their common dtype
 * (lt_tensor_result_type()). Comparisons and logical operations give bool;
 * true division of integers gives float32. Integer floor division, trunc
 * division and remainder by zero are errors, as in PyTorch. As PyTorch
 * does, a real floating tensor to the power of a Python number (@other
 * from lt_tensor_new_scalar_double() or lt_tensor_new_scalar_int()) of 0.5,
 * -0.5 or 2 is its square root, its reciprocal square root or its square:
 * (-0) ** 0.5 is -0 and (-inf) ** 0.5 NaN, where pow () gives +0 and +inf.
 *
 * Returns: (transfer full): the result, a new contiguous tensor, or %NULL
 *   with @error set (%LT_ERROR_SHAPE_MISMATCH when the shapes do not
 *   broadcast, %LT_ERROR_DTYPE when @op does not support the dtype,
 *   %LT_ERROR_INVALID_ARGUMENT for a division by zero or a negative integer
 *   power)
 */
LtTensor *
lt_tensor_binary (LtTensor   *self,
                  LtBinaryOp  op,
                  LtTensor   *other,
                  GError    **error)
{
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (op >= 0 && op <= LT_BINARY_OP_BITWISE_XOR, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!binary (self, op, other, 1.0, FALSE, NULL, &result, error))
    return NULL;
  return result;
}

/**
 * lt_tensor_binary_:
 * @self: the #LtTensor to write into
 * @op: the operation
 * @other: the second operand, broadcast to the sizes of @self
 * @error: return location for a #GError
 *
 * Applies @op to the elements of @self and @other and writes the result
 * into @self, through the view into its storage. @other may overlap @self:
 * the result is the one computed from the old values.
 *
 * Returns: %TRUE on success; %FALSE with @error set when the result dtype
 *   cannot be cast to @self's (%LT_ERROR_DTYPE), the broadcast shape is not
 *   @self's, or @self's elements share memory (%LT_ERROR_INTERNAL_OVERLAP);
 *   then nothing was written
 */
gboolean
lt_tensor_binary_ (LtTensor   *self,
                   LtBinaryOp  op,
                   LtTensor   *other,
                   GError    **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (other), FALSE);
  g_return_val_if_fail (op >= 0 && op <= LT_BINARY_OP_BITWISE_XOR, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return binary (self, op, other, 1.0, TRUE, NULL, NULL, error);
}

/**
 * lt_tensor_add:
 * @self: an #LtTensor
 * @other: the tensor to add
 * @alpha: the factor @other is multiplied by; an integer for integral results
 * @error: return location for a #GError
 *
 * @self + @alpha * @other, as torch.add().
 *
 * Returns: (transfer full): the sum, or %NULL with @error set
 */
LtTensor *
lt_tensor_add (LtTensor *self,
               LtTensor *other,
               double    alpha,
               GError  **error)
{
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!binary (self, LT_BINARY_OP_ADD, other, alpha, FALSE, NULL, &result, error))
    return NULL;
  return result;
}

/**
 * lt_tensor_add_:
 * @self: the #LtTensor to write into
 * @other: the tensor to add
 * @alpha: the factor @other is multiplied by
 * @error: return location for a #GError
 *
 * @self += @alpha * @other, in place.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_add_ (LtTensor *self,
                LtTensor *other,
                double    alpha,
                GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (other), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return binary (self, LT_BINARY_OP_ADD, other, alpha, TRUE, NULL, NULL, error);
}

/**
 * lt_tensor_sub:
 * @self: an #LtTensor
 * @other: the tensor to subtract
 * @alpha: the factor @other is multiplied by; an integer for integral results
 * @error: return location for a #GError
 *
 * @self - @alpha * @other, as torch.sub(). Bool operands are refused.
 *
 * Returns: (transfer full): the difference, or %NULL with @error set
 */
LtTensor *
lt_tensor_sub (LtTensor *self,
               LtTensor *other,
               double    alpha,
               GError  **error)
{
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!binary (self, LT_BINARY_OP_SUB, other, alpha, FALSE, NULL, &result, error))
    return NULL;
  return result;
}

/**
 * lt_tensor_sub_:
 * @self: the #LtTensor to write into
 * @other: the tensor to subtract
 * @alpha: the factor @other is multiplied by
 * @error: return location for a #GError
 *
 * @self -= @alpha * @other, in place.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_sub_ (LtTensor *self,
                LtTensor *other,
                double    alpha,
                GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (other), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return binary (self, LT_BINARY_OP_SUB, other, alpha, TRUE, NULL, NULL, error);
}

/* where, lerp, clamp */

/**
 * lt_tensor_where:
 * @condition: a bool #LtTensor
 * @self: the values where @condition is true
 * @other: the values where @condition is false
 * @error: return location for a #GError
 *
 * Picks, element by element, @self where @condition holds and @other
 * elsewhere, the three broadcast against each other; @self and @other are
 * promoted to their common dtype, as in PyTorch 1.13.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *   (%LT_ERROR_DTYPE when @condition is not bool)
 */
LtTensor *
lt_tensor_where (LtTensor *condition,
                 LtTensor *self,
                 LtTensor *other,
                 GError  **error)
{
  LtTensor *operands[3] = { condition, self, other };
  LtTensor *inputs[MAX_INPUTS] = { NULL };
  LtTensor *result = NULL;
  Kernel kernel = { KERNEL_WHERE };
  g_auto (MovedScalars) moved = { { NULL } };
  gint64 sizes[LT_MAX_DIMS];
  const char *names[LT_MAX_DIMS];
  LtDType dtype;
  guint ndim;

  g_return_val_if_fail (LT_IS_TENSOR (condition), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (other), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (lt_tensor_get_dtype (condition) != LT_DTYPE_BOOL)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("where(): the condition must be a bool tensor, not %s; compare it with "
                     "ne() against 0 first"), dtype_name (lt_tensor_get_dtype (condition)));
      return NULL;
    }
  dtype = lt_tensor_result_type_of (operands + 1, 2);
  if (!move_cpu_scalars (operands, 3, FALSE, (const LtDType[]) { LT_DTYPE_BOOL, dtype, dtype },
                         &moved, error)
      || !broadcast ("where()", operands, 3, &ndim, sizes, names, error))
    return NULL;

  for (guint i = 0; i < 3; i++)
    {
      inputs[i] = prepare_input (operands[i], i == 0 ? LT_DTYPE_BOOL : dtype, ndim, sizes,
                                 error);
      if (inputs[i] == NULL)
        {
          clear_inputs (inputs);
          return NULL;
        }
    }
  execute ("where()", &kernel, NULL, dtype, ndim, sizes, names, inputs, &result, error);
  clear_inputs (inputs);
  return result;
}

static gboolean
lerp (LtTensor  *self,
      LtTensor  *end,
      LtTensor  *weight,
      gboolean   in_place,
      LtTensor **out_result,
      GError   **error)
{
  const char *opname = in_place ? "lerp_()" : "lerp()";
  LtTensor *operands[3] = { self, end, weight };
  LtTensor *inputs[MAX_INPUTS] = { NULL };
  LtDType dtype = lt_tensor_get_dtype (self);
  Kernel kernel = { KERNEL_LERP };
  g_auto (MovedScalars) moved = { { NULL } };
  gint64 sizes[LT_MAX_DIMS];
  const char *names[LT_MAX_DIMS];
  guint ndim;
  gboolean ok;

  if (!lt_dtype_is_floating_point (dtype) && !lt_dtype_is_complex (dtype))
    {
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   _("%s: needs floating point or complex tensors, not %s; convert with "
                     "to_dtype() first"), opname, dtype_name (dtype));
      return FALSE;
    }
  for (guint i = 1; i < 3; i++)
    if (lt_tensor_get_dtype (operands[i]) != dtype && !operands[i]->is_wrapped_number)
      {
        g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                     _("%s: %s has dtype %s, but lerp needs the dtype of the start, %s"),
                     opname, i == 1 ? "end" : "weight",
                     dtype_name (lt_tensor_get_dtype (operands[i])), dtype_name (dtype));
        return FALSE;
      }
  if (!move_cpu_scalars (operands, 3, in_place, (const LtDType[]) { dtype, dtype, dtype },
                         &moved, error)
      || !broadcast (opname, operands, 3, &ndim, sizes, names, error))
    return FALSE;
  if (in_place && !check_in_place (opname, self, dtype, ndim, sizes, error))
    return FALSE;

  for (guint i = 0; i < 3; i++)
    {
      inputs[i] = prepare_input (operands[i], dtype, ndim, sizes, error);
      if (inputs[i] == NULL)
        {
          clear_inputs (inputs);
          return FALSE;
        }
    }
  ok = execute (opname, &kernel, in_place ? self : NULL, dtype, ndim, sizes, names, inputs,
                out_result, error);
  clear_inputs (inputs);
  return ok;
}

/**
 * lt_tensor_lerp:
 * @self: the start, a floating point or complex #LtTensor
 * @end: the end, of the same dtype
 * @weight: the weight, of the same dtype or a wrapped number
 *   (lt_tensor_new_scalar_double())
 * @error: return location for a #GError
 *
 * Linear interpolation @self + @weight * (@end - @self), the three broadcast
 * against each other, computed as PyTorch does (from the nearer end).
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 */
LtTensor *
lt_tensor_lerp (LtTensor *self,
                LtTensor *end,
                LtTensor *weight,
                GError  **error)
{
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (end), NULL);
  g_return_val_if_fail (LT_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lerp (self, end, weight, FALSE, &result, error))
    return NULL;
  return result;
}

/**
 * lt_tensor_lerp_:
 * @self: the start, written into
 * @end: the end
 * @weight: the weight
 * @error: return location for a #GError
 *
 * lt_tensor_lerp() in place.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_lerp_ (LtTensor *self,
                 LtTensor *end,
                 LtTensor *weight,
                 GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (end), FALSE);
  g_return_val_if_fail (LT_IS_TENSOR (weight), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return lerp (self, end, weight, TRUE, NULL, error);
}

static gboolean
clamp (LtTensor  *self,
       LtTensor  *min,
       LtTensor  *max,
       gboolean   in_place,
       LtTensor **out_result,
       GError   **error)
{
  const char *opname = in_place ? "clamp_()" : "clamp()";
  LtTensor *operands[3] = { self };
  LtTensor *inputs[MAX_INPUTS] = { NULL };
  Kernel kernel = { KERNEL_CLAMP };
  g_auto (MovedScalars) moved = { { NULL } };
  gint64 sizes[LT_MAX_DIMS];
  const char *names[LT_MAX_DIMS];
  guint n = 1, ndim;
  LtDType dtype;
  gboolean ok;

  if (min == NULL && max == NULL)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT,
                   _("%s: at least one of min and max must be given"), opname);
      return FALSE;
    }
  if (min != NULL)
    operands[n++] = min;
  if (max != NULL)
    operands[n++] = max;
  if (n == 2)
    {
      kernel.kind = KERNEL_BINARY;
      kernel.op = min != NULL ? LT_BINARY_OP_MAXIMUM : LT_BINARY_OP_MINIMUM;
      kernel.alpha = lt_value_from_int64 (1);
    }

  dtype = lt_tensor_result_type_of (operands, n);
  if (lt_dtype_is_complex (dtype) || (dtype == LT_DTYPE_BOOL && n == 3))
    {
      /* PyTorch has no bool kernel for clamping on both sides. */
      g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                   dtype == LT_DTYPE_BOOL
                     ? _("%s: not supported for %s tensors with both bounds; use logical "
                         "operations")
                     : _("%s: not supported for %s tensors"),
                   opname, dtype_name (dtype));
      return FALSE;
    }
  if (!move_cpu_scalars (operands, n, in_place, (const LtDType[]) { dtype, dtype, dtype },
                         &moved, error)
      || !broadcast (opname, operands, n, &ndim, sizes, names, error))
    return FALSE;
  if (in_place && !check_in_place (opname, self, dtype, ndim, sizes, error))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      inputs[i] = prepare_input (operands[i], dtype, ndim, sizes, error);
      if (inputs[i] == NULL)
        {
          clear_inputs (inputs);
          return FALSE;
        }
    }
  ok = execute (opname, &kernel, in_place ? self : NULL, dtype, ndim, sizes, names, inputs,
                out_result, error);
  clear_inputs (inputs);
  return ok;
}

/**
 * lt_tensor_clamp:
 * @self: an #LtTensor
 * @min: (nullable): the lower bound, or %NULL for none
 * @max: (nullable): the upper bound, or %NULL for none
 * @error: return location for a #GError
 *
 * Each element of @self limited to [@min, @max], the bounds broadcast
 * against @self; where @min is above @max the result is @max, and NaN in any
 * operand gives NaN. The dtype is the result type of all three, as in
 * PyTorch.
 *
 * Returns: (transfer full): the result, or %NULL with @error set (when both
 *   bounds are %NULL, or for complex tensors)
 */
LtTensor *
lt_tensor_clamp (LtTensor *self,
                 LtTensor *min,
                 LtTensor *max,
                 GError  **error)
{
  LtTensor *result = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (min == NULL || LT_IS_TENSOR (min), NULL);
  g_return_val_if_fail (max == NULL || LT_IS_TENSOR (max), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!clamp (self, min, max, FALSE, &result, error))
    return NULL;
  return result;
}

/**
 * lt_tensor_clamp_:
 * @self: the #LtTensor to write into
 * @min: (nullable): the lower bound, or %NULL for none
 * @max: (nullable): the upper bound, or %NULL for none
 * @error: return location for a #GError
 *
 * lt_tensor_clamp() in place.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
lt_tensor_clamp_ (LtTensor *self,
                  LtTensor *min,
                  LtTensor *max,
                  GError  **error)
{
  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (min == NULL || LT_IS_TENSOR (min), FALSE);
  g_return_val_if_fail (max == NULL || LT_IS_TENSOR (max), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return clamp (self, min, max, TRUE, NULL, error);
}
