/* lt-device.c: naming, parsing and listing devices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-device.h"
#include "lt-error.h"
#include "backends/lt-backend.h"
#include "backends/lt-backend-module.h"
#include "lt-i18n-private.h"

struct _LtDevice
{
  LtDeviceType device_type;
  guint index;
};

G_DEFINE_BOXED_TYPE (LtDevice, lt_device, lt_device_copy, lt_device_free)

static const struct
{
  const char *prefix;
  LtDeviceType device_type;
} device_prefixes[] = {
  { "cpu", LT_DEVICE_TYPE_CPU },
  { "cuda", LT_DEVICE_TYPE_CUDA },
  { "opencl", LT_DEVICE_TYPE_OPENCL },
};

static const char *
device_prefix (LtDeviceType device_type)
{
  for (guint i = 0; i < G_N_ELEMENTS (device_prefixes); i++)
    if (device_prefixes[i].device_type == device_type)
      return device_prefixes[i].prefix;
  g_return_val_if_reached ("unknown");
}

/**
 * lt_device_new:
 * @device_type: the kind of device
 * @index: which device of that kind, from 0
 *
 * Names a device, which need not exist here.
 *
 * Returns: (transfer full): the device
 */
LtDevice *
lt_device_new (LtDeviceType device_type,
               guint        index)
{
  LtDevice *self;

  g_return_val_if_fail (device_type <= LT_DEVICE_TYPE_OPENCL, NULL);
  g_return_val_if_fail (index <= G_MAXINT, NULL);

  self = g_new (LtDevice, 1);
  self->device_type = device_type;
  self->index = index;
  return self;
}

/**
 * lt_device_new_from_string:
 * @text: a device as PyTorch writes it: `cpu`, `cuda`, `cuda:1`,
 *   `opencl:0`...; a type without an index means index 0
 * @error: return location for a #GError
 *
 * Parses a device name. The device need not exist here; see
 * lt_device_is_available().
 *
 * Returns: (transfer full): the device, or %NULL with @error set
 *   (%LT_ERROR_PARSE) when @text is not a device name
 */
LtDevice *
lt_device_new_from_string (const char *text,
                           GError    **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (device_prefixes); i++)
    {
      gsize length = strlen (device_prefixes[i].prefix);
      guint64 index = 0;

      if (strncmp (text, device_prefixes[i].prefix, length) != 0)
        continue;
      if (text[length] == '\0')
        return lt_device_new (device_prefixes[i].device_type, 0);
      if (text[length] != ':')
        continue;
      /* Digits only: no sign, no spaces, no hex. */
      if (!g_ascii_isdigit (text[length + 1])
          || !g_ascii_string_to_unsigned (text + length + 1, 10, 0, G_MAXINT, &index, NULL))
        {
          g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
                       _("'%s' is not a device: the index after '%s:' must be a number from 0 to "
                         "%d"),
                       text, device_prefixes[i].prefix, G_MAXINT);
          return NULL;
        }
      return lt_device_new (device_prefixes[i].device_type, (guint) index);
    }

  g_set_error (error, LT_ERROR, LT_ERROR_PARSE,
               _("'%s' is not a device: expected 'cpu', 'cuda', 'cuda:N', 'opencl' or "
                 "'opencl:N'"),
               text);
  return NULL;
}

/**
 * lt_device_copy:
 * @self: an #LtDevice
 *
 * Returns: (transfer full): a copy of @self
 */
LtDevice *
lt_device_copy (const LtDevice *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_memdup2 (self, sizeof *self);
}

/**
 * lt_device_free:
 * @self: (nullable): an #LtDevice
 *
 * Frees @self.
 */
void
lt_device_free (LtDevice *self)
{
  g_free (self);
}

/**
 * lt_device_get_device_type:
 * @self: an #LtDevice
 *
 * Returns: the kind of device
 */
LtDeviceType
lt_device_get_device_type (const LtDevice *self)
{
  g_return_val_if_fail (self != NULL, LT_DEVICE_TYPE_CPU);

  return self->device_type;
}

/**
 * lt_device_get_index:
 * @self: an #LtDevice
 *
 * Returns: which device of its kind @self is, from 0
 */
guint
lt_device_get_index (const LtDevice *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->index;
}

/**
 * lt_device_to_string:
 * @self: an #LtDevice
 *
 * The device's name as lt_device_new_from_string() reads it and PyTorch
 * prints it: `cpu` for the host, `cuda:0`, `opencl:1` for the others.
 *
 * Returns: (transfer full): the name
 */
char *
lt_device_to_string (const LtDevice *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->device_type == LT_DEVICE_TYPE_CPU && self->index == 0)
    return g_strdup ("cpu");
  return g_strdup_printf ("%s:%u", device_prefix (self->device_type), self->index);
}

/**
 * lt_device_equal:
 * @self: an #LtDevice
 * @other: another #LtDevice
 *
 * Returns: whether @self and @other name the same device
 */
gboolean
lt_device_equal (const LtDevice *self,
                 const LtDevice *other)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (other != NULL, FALSE);

  return self->device_type == other->device_type && self->index == other->index;
}

/**
 * lt_device_is_available:
 * @self: an #LtDevice
 * @error: return location for a #GError
 *
 * Whether tensors can live on @self here. When not, @error says why in
 * words a user can act on: `cuda:0 is not available: no CUDA driver found`,
 * `opencl:2 is not available: there are 2 OpenCL devices, opencl:0 to
 * opencl:1`, or that libtensor's backend for that kind of device is not
 * installed.
 *
 * Returns: %TRUE if @self can be used, else %FALSE with @error set
 *   (%LT_ERROR_DEVICE)
 */
gboolean
lt_device_is_available (const LtDevice *self,
                        GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return lt_backend_for_device (self, error) != NULL;
}

/* The CPU's model, as the kernel reports it. */
static char *
cpu_name (void)
{
  g_autofree char *cpuinfo = NULL;
  g_auto (GStrv) lines = NULL;

  if (g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL))
    {
      lines = g_strsplit (cpuinfo, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_str_has_prefix (lines[i], "model name"))
          {
            const char *colon = strchr (lines[i], ':');

            if (colon != NULL && colon[1] != '\0')
              return g_strstrip (g_strdup (colon + 1));
          }
    }
  return g_strdup ("CPU");
}

/**
 * lt_device_get_name:
 * @self: an #LtDevice
 * @error: return location for a #GError
 *
 * A name for the device: the CPU's model, the GPU's model, or the OpenCL
 * platform and device (`Portable Computing Language: cpu-...`).
 *
 * Returns: (transfer full): the name, or %NULL with @error set
 *   (%LT_ERROR_DEVICE) when @self is not available
 */
char *
lt_device_get_name (const LtDevice *self,
                    GError        **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lt_device_is_available (self, error))
    return NULL;
  if (self->device_type == LT_DEVICE_TYPE_CPU)
    return cpu_name ();
  return lt_backend_get_device_name (self->device_type, self->index);
}

/**
 * lt_device_list:
 *
 * Every device tensors can live on here, by name: `cpu` first, then each
 * CUDA device, then each OpenCL device (lt_device_new_from_string() reads
 * them). Devices whose backend or driver is missing are left out;
 * lt_device_is_available() says why.
 *
 * Returns: (transfer full) (array zero-terminated=1): the device names
 */
char **
lt_device_list (void)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  const LtDeviceType others[] = { LT_DEVICE_TYPE_CUDA, LT_DEVICE_TYPE_OPENCL };

  g_strv_builder_add (names, "cpu");
  for (guint t = 0; t < G_N_ELEMENTS (others); t++)
    {
      guint count = lt_backend_count_devices (others[t], NULL);

      for (guint i = 0; i < count; i++)
        {
          g_autofree char *name = g_strdup_printf ("%s:%u", device_prefix (others[t]), i);

          g_strv_builder_add (names, name);
        }
    }
  return g_strv_builder_end (names);
}

/**
 * lt_device_synchronize:
 * @self: an #LtDevice
 * @error: return location for a #GError
 *
 * Waits until every operation started on @self has finished, as
 * `torch.cuda.synchronize()` does: for timing work on a device, whose
 * kernels may still run when the call that started them returns. Reading
 * a tensor back never needs it: that waits by itself.
 *
 * Returns: %TRUE once the device is idle, %FALSE with @error set
 *   (%LT_ERROR_DEVICE) when @self is not available, or when some work
 *   started on it failed (a kernel that faulted on a GPU)
 */
gboolean
lt_device_synchronize (const LtDevice *self,
                       GError        **error)
{
  const LtBackend *backend;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  backend = lt_backend_for_device (self, error);
  if (backend == NULL)
    return FALSE;
  return backend->synchronize (backend, error);
}
