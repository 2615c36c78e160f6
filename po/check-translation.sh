#!/bin/sh
# check-translation.sh SOURCE_ROOT LANG WORK_DIR DOMAIN PO_DIR PATTERN...
#
# Fails unless PO_DIR/LANG.po translates every message of the files listed
# in PO_DIR/POTFILES.in for DOMAIN, with no fuzzy translation and format
# strings that match; and unless every file that the glob PATTERNs match
# and that has translatable strings is listed in PO_DIR/POTFILES.in.
# PO_DIR and the PATTERNs are relative to SOURCE_ROOT. The viewer's po/ and
# the library's libtensor/po/ are both checked with it.
set -eu

root=$1
lang=$2
domain=$4
podir=$5
work=$3/check-$domain-$lang
shift 5
mkdir -p "$work"
cd "$root"

status=0

# Every file with strings is in POTFILES.in.
for pattern in "$@"; do
  for file in $pattern; do
    [ -f "$file" ] || continue
    if grep -qE '(^|[^a-zA-Z0-9_])(N?C?_|g_dn?gettext)[[:space:]]*\(|translatable="yes"|<summary|<description|^(Name|GenericName|Comment|Keywords)=' "$file" \
       && ! grep -qxF "$file" "$podir/POTFILES.in"; then
      echo "$file has translatable strings but is not in $podir/POTFILES.in"
      status=1
    fi
  done
done

# The template, as meson's DOMAIN-pot target makes it (preset glib).
xgettext --package-name="$domain" --msgid-bugs-address= \
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
  --files-from="$podir/POTFILES.in" --directory="$root" --output="$work/$domain.pot"

# Merged with the catalogue, a message it lacks comes out untranslated or fuzzy.
msgmerge --quiet --output-file="$work/$lang.po" "$podir/$lang.po" "$work/$domain.pot"

# Every message translated, none fuzzy, format strings matching.
if ! stats=$(LC_ALL=C msgfmt --check --statistics --output-file=/dev/null "$work/$lang.po" 2>&1); then
  status=1
fi
echo "$podir/$lang.po: $stats"
case $stats in
  *untranslated*|*fuzzy*)
    echo "$podir/$lang.po is not complete; what it lacks or marks fuzzy:"
    msgattrib --untranslated --no-obsolete --no-wrap "$work/$lang.po" | grep '^msgid "..*"$' || true
    msgattrib --only-fuzzy --no-obsolete --no-wrap "$work/$lang.po" | grep '^msgid "..*"$' || true
    status=1
    ;;
esac

exit $status
