# Lt.py, as installed: PyGObject's overrides for Lt.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The overrides themselves are installed beside this file as _lt.py, and
# run here, as this module. Where LT_UNINSTALLED_OVERRIDES names the
# overrides directories of an uninstalled build (its tests and `meson
# devenv` set it), that build's Lt.py runs instead: PyGObject looks for
# overrides in its own directory first, where a libtensor installed into
# /usr puts them, and a build tree must never run installed overrides,
# which may be of another version. (The source tree's Lt.py is the
# overrides themselves.)

import os as _os
from importlib.machinery import SourceFileLoader as _SourceFileLoader


def _overrides_file():
    for directory in _os.environ.get('LT_UNINSTALLED_OVERRIDES', '').split(_os.pathsep):
        candidate = _os.path.join(directory, 'Lt.py')
        if directory and _os.path.isfile(candidate):
            return candidate
    return _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), '_lt.py')


__file__ = _overrides_file()
exec(_SourceFileLoader(__name__, __file__).get_code(__name__))
