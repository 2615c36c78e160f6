/* lt-storage.h: the flat typed buffer behind every tensor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"
#include "lt-device.h"
#include "lt-dtype.h"

G_BEGIN_DECLS

#define LT_TYPE_STORAGE (lt_storage_get_type ())

LT_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (LtStorage, lt_storage, LT, STORAGE, GObject)

LT_AVAILABLE_IN_ALL
LtStorage    *lt_storage_new                (LtDType         dtype,
                                             gint64          n_elements,
                                             GError        **error);
LT_AVAILABLE_IN_ALL
LtStorage    *lt_storage_new_from_bytes     (LtDType         dtype,
                                             GBytes         *bytes,
                                             GError        **error);
LT_AVAILABLE_IN_ALL
LtStorage    *lt_storage_new_for_data       (LtDType         dtype,
                                             gpointer        data,
                                             gint64          n_elements,
                                             GDestroyNotify  destroy,
                                             gpointer        destroy_data,
                                             GError        **error);

LT_AVAILABLE_IN_ALL
LtDType       lt_storage_get_dtype          (LtStorage      *self);
LT_AVAILABLE_IN_ALL
gint64        lt_storage_get_n_elements     (LtStorage      *self);
LT_AVAILABLE_IN_ALL
gsize         lt_storage_get_nbytes         (LtStorage      *self);
LT_AVAILABLE_IN_ALL
LtDeviceType  lt_storage_get_device_type    (LtStorage      *self);
LT_AVAILABLE_IN_ALL
gpointer      lt_storage_get_data           (LtStorage      *self);
LT_AVAILABLE_IN_ALL
guint64       lt_storage_get_data_address   (LtStorage      *self);

LT_AVAILABLE_IN_ALL
gboolean      lt_storage_get_double         (LtStorage      *self,
                                             gint64          index,
                                             double         *out_value,
                                             GError        **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_storage_set_double         (LtStorage      *self,
                                             gint64          index,
                                             double          value,
                                             GError        **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_storage_get_int64          (LtStorage      *self,
                                             gint64          index,
                                             gint64         *out_value,
                                             GError        **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_storage_set_int64          (LtStorage      *self,
                                             gint64          index,
                                             gint64          value,
                                             GError        **error);

LT_AVAILABLE_IN_ALL
LtDevice     *lt_storage_get_device         (LtStorage      *self);
LT_AVAILABLE_IN_ALL
GBytes       *lt_storage_get_bytes          (LtStorage      *self,
                                             GError        **error);
LT_AVAILABLE_IN_ALL
gboolean      lt_storage_shares_memory      (LtStorage      *self,
                                             LtStorage      *other);

G_END_DECLS
