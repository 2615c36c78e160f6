# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs a differential suite's libtensor side on a device.

With LT_TEST_DEVICE=opencl:0 (or cuda:0) in the environment, use_test_device()
makes Lt.Tensor.new_from_bytes() move each tensor it makes there, before the
suite takes any view of it; results are read back through to_bytes(), and
the comparison with PyTorch on the CPU, tolerances included, is unchanged.
Exits 77 (skipped) when the device is missing, unless LT_TEST_EXPECT_OPENCL
says it must be there.
"""

import os
import sys


def use_test_device(GLib, Lt):
    name = os.environ.get('LT_TEST_DEVICE')
    if not name:
        return
    device = Lt.Device.new_from_string(name)
    try:
        device.is_available()
    except GLib.Error as error:
        if os.environ.get('LT_TEST_EXPECT_OPENCL'):
            raise
        print('skipped: %s' % error.message)
        sys.exit(77)
    new_from_bytes = Lt.Tensor.new_from_bytes

    def new_on_device(*args):
        return new_from_bytes(*args).to_device(device)

    Lt.Tensor.new_from_bytes = staticmethod(new_on_device)
