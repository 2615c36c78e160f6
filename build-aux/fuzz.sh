#!/bin/sh
# Runs every libFuzzer target of a -Dfuzzing=true build for a while, from
# its seed corpus and with its dictionary (tests/fuzz/); fails on any
# finding (a crash, a sanitizer report, a leak, a broken invariant), whose
# input is left in the build folder as fuzz-NAME-crash-*, and on any other
# failure of libFuzzer itself.
#
#   build-aux/fuzz.sh BUILD_DIR [SECONDS_PER_TARGET]
set -eu
build=$1
seconds=${2:-60}
source_dir=$(cd "$(dirname "$0")/.." && pwd)

export G_SLICE=always-malloc G_DEBUG=fatal-criticals
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions="$source_dir/build-aux/lsan.supp":print_suppressions=0

for target in "$build"/tests/fuzz/fuzz-*; do
  [ -f "$target" ] && [ -x "$target" ] || continue
  name=${target##*/fuzz-}
  corpus=$(mktemp -d)
  log=$(mktemp)
  cp "$source_dir/tests/fuzz/corpus/$name"/* "$corpus"/
  set -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/fuzz-$name-" -print_final_stats=1
  if [ -f "$source_dir/tests/fuzz/$name.dict" ]; then
    set -- "$@" -dict="$source_dir/tests/fuzz/$name.dict"
  fi
  echo "== fuzz-$name: $seconds s"
  status=0
  "$target" "$@" "$corpus" >"$log" 2>&1 || status=$?
  grep -E '^(stat::(number_of_executed_units|new_units_added|peak_rss_mb)|==[0-9]+==|SUMMARY|Test unit written)' "$log" || true
  if [ "$status" -ne 0 ]; then
    echo "fuzz-$name failed (exit status $status):"
    tail -n 60 "$log"
    exit 1
  fi
  echo "   corpus: $(ls "$corpus" | wc -l) inputs"
  rm -rf "$corpus" "$log"
done
