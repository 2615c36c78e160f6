/* libtensor.h: the only header users include
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#define LT_INSIDE

#include "lt-types.h"
#include "lt-version.h"
#include "lt-device.h"
#include "lt-dtype.h"
#include "lt-enums.h"
#include "lt-error.h"
#include "lt-generator.h"
#include "lt-storage.h"
#include "lt-tensor.h"
#include "lt-names.h"
#include "lt-threads.h"
#include "lt-pointwise.h"
#include "lt-reduce.h"
#include "lt-random.h"
#include "lt-linalg.h"
#include "lt-io.h"
#include "lt-dlpack.h"

#undef LT_INSIDE
