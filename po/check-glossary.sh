#!/bin/sh
# check-glossary.sh SOURCE_ROOT LANG
#
# Fails when a translation uses a word po/glossary-LANG.tsv says to avoid:
# in po/LANG.po's translations and in the built-in lessons' [LANG] keys.
set -eu

root=$1
lang=$2
glossary=$root/po/glossary-$lang.tsv
status=0

# The translated texts, one per line: msgstr lines (and their
# continuations) of the catalogue, then the lessons' translated values.
texts=$(mktemp)
trap 'rm -f "$texts"' EXIT
awk '/^msgstr/ { on = 1 } /^(msgid|#)/ || /^$/ { on = 0 } on' "$root/po/$lang.po" >"$texts"
grep -h "^[A-Za-z]*\[$lang\]=" "$root"/data/lessons/*.lesson >>"$texts" || true

tab=$(printf '\t')
grep -v '^#' "$glossary" | while IFS="$tab" read -r english seed avoid; do
  [ -n "$english" ] || continue
  echo "$english: $seed"
  for word in $(echo "$avoid" | tr ',' ' '); do
    if grep -n -F "$word" "$texts"; then
      echo "  the lines above say $word for \"$english\"; the seeds say $seed"
      exit 1
    fi
  done
done || status=1

exit $status
