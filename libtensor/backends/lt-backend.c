/* lt-backend.c: finding the backend for a device
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-backend.h"

const LtBackend *
lt_backend_for_device (LtDeviceType device_type)
{
  switch (device_type)
    {
    case LT_DEVICE_TYPE_CPU:
      return lt_cpu_backend_get ();
    default:
      g_return_val_if_reached (NULL);
    }
}
