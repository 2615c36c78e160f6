#!/bin/sh
# validate-ui.sh GTK4_BUILDER_TOOL FILE.ui WORK_DIR
#
# Validates a .ui file with gtk4-builder-tool: its XML, its types (known to
# the tool through the preloaded validate-ui-types module), their properties
# and values. Signal handlers are left out: the tool looks them up as
# exported symbols of its own process, while the viewer binds them to its
# templates with gtk_widget_class_bind_template_callback(). The widget tests
# instantiate every template with G_DEBUG=fatal-criticals, so a handler that
# the class does not bind fails there.
set -eu

tool=$1
ui=$2
work=$3
mkdir -p "$work"
copy="$work/$(basename "$ui")"

if grep -q '<signal' "$ui" && grep '<signal' "$ui" | grep -qv '/>'; then
  echo "$ui: a <signal> element that is not self-closing; write it on one line" >&2
  exit 1
fi
sed '/<signal .*\/>/d' "$ui" > "$copy"
exec "$tool" validate "$copy"
