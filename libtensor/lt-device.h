/* lt-device.h: where a storage's memory lives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"

G_BEGIN_DECLS

/**
 * LtDeviceType:
 * @LT_DEVICE_TYPE_CPU: host memory, operated on by the CPU backend
 *
 * The kind of device a storage lives on. Every storage records its device,
 * and every operation dispatches to the backend of that device.
 */
typedef enum
{
  LT_DEVICE_TYPE_CPU,
} LtDeviceType;

G_END_DECLS
