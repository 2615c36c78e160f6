#!/bin/sh
# The D-Bus daemon of the session bus build-aux/run.sh gives the viewer on a
# machine without one (dbus-run-session --dbus-daemon=...): an ordinary
# session bus whose daemon keeps its log out of the terminal (as root in a
# container it warns that it cannot raise its file limit; nothing the
# viewer's user can act on).
exec dbus-daemon --syslog-only "$@"
