#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Says, after `meson install`, what a shell needs set to use libtensor
from the prefix it was installed to: nothing for /usr on Debian,
GI_TYPELIB_PATH for /usr/local (GObject Introspection only searches its
own directory), more for a prefix of one's own. Updates the loader's cache
where the library went to a directory the loader knows (run as root).
Not run for staged installs (DESTDIR), which packagers make.

Arguments: the prefix, the library directory, the typelib directory, the
directory the Python overrides went to, GObject Introspection's own typelib
directory, and the interpreter the build found.
"""

import glob
import os
import shutil
import subprocess
import sys


def loader_directories():
    """The directories ld.so searches without LD_LIBRARY_PATH."""
    found = {'/lib', '/usr/lib', '/lib64', '/usr/lib64'}
    pending = ['/etc/ld.so.conf']
    seen = set()
    while pending:
        path = pending.pop()
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        with open(path, encoding='utf-8', errors='replace') as conf:
            for line in conf:
                line = line.split('#', 1)[0].strip()
                if line.startswith('include '):
                    pattern = line.split(None, 1)[1]
                    if not os.path.isabs(pattern):
                        pattern = os.path.join(os.path.dirname(path), pattern)
                    pending.extend(sorted(glob.glob(pattern)))
                elif line:
                    found.add(os.path.normpath(line))
    return found


def python_path(interpreter):
    out = subprocess.run([interpreter, '-E', '-s', '-c', 'import sys; print("\\n".join(sys.path))'],
                         capture_output=True, text=True, check=False).stdout
    return {os.path.normpath(p) for p in out.splitlines() if p}


def pkg_config_path():
    out = subprocess.run(['pkg-config', '--variable', 'pc_path', 'pkg-config'],
                         capture_output=True, text=True, check=False).stdout.strip()
    return {os.path.normpath(p) for p in out.split(':') if p}


def terminal():
    """Where `meson install` writes: meson 1.0 keeps what an install script
    prints to itself unless the script fails, so the lines go to the output
    of meson itself, this script's parent (opened to append, so that a log
    file it writes to is not truncated)."""
    try:
        return open(f'/proc/{os.getppid()}/fd/1', 'a', encoding='utf-8')
    except OSError:
        return sys.stdout


def main():
    if os.environ.get('DESTDIR'):
        return
    prefix, libdir, typelibdir, overridesdir, gi_typelibdir, interpreter = sys.argv[1:7]
    site = os.path.dirname(os.path.dirname(os.path.normpath(overridesdir)))
    settings = []

    if os.path.normpath(libdir) not in loader_directories():
        settings.append(('LD_LIBRARY_PATH', libdir, 'the library'))
    elif os.geteuid() == 0 and shutil.which('ldconfig'):
        # The loader finds a library in /usr/local only through its cache,
        # which meson 1.0 does not update.
        subprocess.run(['ldconfig'], check=False)
    if os.path.join(libdir, 'pkgconfig') not in pkg_config_path():
        settings.append(('PKG_CONFIG_PATH', os.path.join(libdir, 'pkgconfig'),
                         'pkg-config libtensor-1'))
    if os.path.normpath(typelibdir) not in (os.path.normpath(gi_typelibdir),
                                            '/usr/lib/girepository-1.0'):
        settings.append(('GI_TYPELIB_PATH', typelibdir, 'Python and gjs'))
    if site not in python_path(interpreter):
        settings.append(('PYTHONPATH', site, "the Python overrides"))
    datadir = os.path.join(prefix, 'share')
    if os.path.normpath(datadir) not in ('/usr/share', '/usr/local/share'):
        # gjs searches its overrides under /usr/share/gjs-1.0 and
        # /usr/local/share/gjs-1.0 only.
        settings.append(('GJS_PATH', os.path.join(datadir, 'gjs-1.0'), "gjs's overrides"))
        settings.append(('XDG_DATA_DIRS', datadir, "Tensor Viewer's settings and data"))
    bindir = os.path.join(prefix, 'bin')
    if os.path.normpath(bindir) not in ('/usr/bin', '/usr/local/bin', '/bin'):
        settings.append(('PATH', bindir, 'tensor-viewer'))

    if not settings:
        return
    if os.environ.get('MESON_INSTALL_QUIET'):
        return
    out = terminal()
    print(f'\nlibtensor is installed in {prefix}; to use it from there, set:\n', file=out)
    for name, value, why in settings:
        if name == 'PATH':
            line = f'export PATH={value}:$PATH'
        elif name == 'XDG_DATA_DIRS':
            line = f'export XDG_DATA_DIRS={value}:${{XDG_DATA_DIRS:-/usr/local/share:/usr/share}}'
        else:
            line = f'export {name}={value}${{{name}:+:${name}}}'
        print(f'    {line}    # {why}', file=out)
    print('\n(README.md, "Installing", says the same.)\n', file=out)
    out.flush()


if __name__ == '__main__':
    main()
