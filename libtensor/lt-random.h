/* lt-random.h: tensors of random numbers, and filling tensors with them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (LT_INSIDE) && !defined (LT_COMPILATION)
# error "Only <libtensor.h> can be included directly."
#endif

#include "lt-types.h"
#include "lt-generator.h"
#include "lt-tensor.h"

G_BEGIN_DECLS

LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_new_randint (LtGenerator   *generator,
                                 gint64         low,
                                 gint64         high,
                                 LtDType        dtype,
                                 const gint64  *sizes,
                                 guint          n_sizes,
                                 GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_new_normal  (LtGenerator   *generator,
                                 double         mean,
                                 double         std,
                                 LtDType        dtype,
                                 const gint64  *sizes,
                                 guint          n_sizes,
                                 GError       **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_uniform_    (LtTensor      *self,
                                 LtGenerator   *generator,
                                 double         from,
                                 double         to,
                                 GError       **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_normal_     (LtTensor      *self,
                                 LtGenerator   *generator,
                                 double         mean,
                                 double         std,
                                 GError       **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_random_     (LtTensor      *self,
                                 LtGenerator   *generator,
                                 gint64         low,
                                 gint64         high,
                                 GError       **error);
LT_AVAILABLE_IN_ALL
gboolean  lt_tensor_bernoulli_  (LtTensor      *self,
                                 LtGenerator   *generator,
                                 double         p,
                                 GError       **error);
LT_AVAILABLE_IN_ALL
LtTensor *lt_tensor_bernoulli   (LtTensor      *self,
                                 LtGenerator   *generator,
                                 GError       **error);

G_END_DECLS
