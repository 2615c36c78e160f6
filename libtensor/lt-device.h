/* lt-device.h: where a storage's memory lives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include <glib-object.h>

#include "lt-types.h"

G_BEGIN_DECLS

/**
 * LtDeviceType:
 * @LT_DEVICE_TYPE_CPU: host memory, operated on by the CPU backend
 * @LT_DEVICE_TYPE_CUDA: the memory of an NVIDIA GPU, through CUDA
 * @LT_DEVICE_TYPE_OPENCL: the memory of an OpenCL device (a GPU through its
 *   vendor's driver, or the CPU through PoCL)
 *
 * The kind of device a storage lives on. Every storage records its device,
 * and every operation dispatches to the backend of that device.
 */
typedef enum
{
  LT_DEVICE_TYPE_CPU,
  LT_DEVICE_TYPE_CUDA,
  LT_DEVICE_TYPE_OPENCL,
} LtDeviceType;

/**
 * LtDevice:
 *
 * One device: a type and an index among the devices of that type, written
 * `cpu`, `cuda:0` or `opencl:1` as in PyTorch. An #LtDevice is a small
 * immutable value; it names a device whether or not that device exists
 * here (see lt_device_is_available()).
 */
typedef struct _LtDevice LtDevice;

#define LT_TYPE_DEVICE (lt_device_get_type ())

LT_AVAILABLE_IN_ALL
GType         lt_device_get_type        (void) G_GNUC_CONST;

LT_AVAILABLE_IN_ALL
LtDevice     *lt_device_new             (LtDeviceType    device_type,
                                         guint           index);
LT_AVAILABLE_IN_ALL
LtDevice     *lt_device_new_from_string (const char     *text,
                                         GError        **error);
LT_AVAILABLE_IN_ALL
LtDevice     *lt_device_copy            (const LtDevice *self);
LT_AVAILABLE_IN_ALL
void          lt_device_free            (LtDevice       *self);

LT_AVAILABLE_IN_ALL
LtDeviceType  lt_device_get_device_type (const LtDevice *self);
LT_AVAILABLE_IN_ALL
guint         lt_device_get_index       (const LtDevice *self);
LT_AVAILABLE_IN_ALL
char         *lt_device_to_string       (const LtDevice *self);
LT_AVAILABLE_IN_ALL
gboolean      lt_device_equal           (const LtDevice *self,
                                         const LtDevice *other);

LT_AVAILABLE_IN_ALL
gboolean      lt_device_is_available    (const LtDevice *self,
                                         GError        **error);
LT_AVAILABLE_IN_ALL
char         *lt_device_get_name        (const LtDevice *self,
                                         GError        **error);
LT_AVAILABLE_IN_ALL
char        **lt_device_list            (void);
LT_AVAILABLE_IN_ALL
gboolean      lt_device_synchronize     (const LtDevice *self,
                                         GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LtDevice, lt_device_free)

G_END_DECLS
