#!/bin/sh
# check-translation.sh SOURCE_ROOT LANG WORK_DIR
#
# Fails unless po/LANG.po translates every message of the sources, with no
# fuzzy translation and format strings that match; and unless every viewer
# and data file with translatable strings is listed in po/POTFILES.in.
set -eu

root=$1
lang=$2
work=$3/check-$lang
mkdir -p "$work"
cd "$root"

status=0

# Every file with strings is in POTFILES.in.
for file in viewer/*.c viewer/*.ui viewer/gtk/*.ui data/*.in data/*.gschema.xml; do
  [ -f "$file" ] || continue
  if grep -qE '(^|[^a-zA-Z0-9_])(N?C?_|g_dn?gettext)[[:space:]]*\(|translatable="yes"|<summary|<description|^(Name|GenericName|Comment|Keywords)=' "$file" \
     && ! grep -qxF "$file" po/POTFILES.in; then
    echo "$file has translatable strings but is not in po/POTFILES.in"
    status=1
  fi
done

# The template, as meson's tensor-viewer-pot target makes it (preset glib).
xgettext --package-name=tensor-viewer --msgid-bugs-address= \
  --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
  --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
  --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
  --files-from=po/POTFILES.in --directory="$root" --output="$work/tensor-viewer.pot"

# Merged with the catalogue, a message it lacks comes out untranslated or fuzzy.
msgmerge --quiet --output-file="$work/$lang.po" "po/$lang.po" "$work/tensor-viewer.pot"

# Every message translated, none fuzzy, format strings matching.
if ! stats=$(LC_ALL=C msgfmt --check --statistics --output-file=/dev/null "$work/$lang.po" 2>&1); then
  status=1
fi
echo "po/$lang.po: $stats"
case $stats in
  *untranslated*|*fuzzy*)
    echo "po/$lang.po is not complete; what it lacks or marks fuzzy:"
    msgattrib --untranslated --no-obsolete --no-wrap "$work/$lang.po" | grep '^msgid "..*"$' || true
    msgattrib --only-fuzzy --no-obsolete --no-wrap "$work/$lang.po" | grep '^msgid "..*"$' || true
    status=1
    ;;
esac

exit $status
