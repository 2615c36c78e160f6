#!/bin/sh
# Runs every libFuzzer target of a -Dfuzzing=true build for a while, from
# its seed corpus and with its dictionary (tests/fuzz/); fails on any
# finding (a crash, a sanitizer report, a leak, a broken invariant), whose
# input is left in the build folder as fuzz-NAME-crash-*.
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
  cp "$source_dir/tests/fuzz/corpus/$name"/* "$corpus"/
  echo "== fuzz-$name: $seconds s"
  "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict="$source_dir/tests/fuzz/$name.dict" \
    -artifact_prefix="$build/fuzz-$name-" -print_final_stats=1 \
    "$corpus" 2>&1 | grep -E '^(#[0-9]+ +DONE|stat::(number_of_executed_units|new_units_added|peak_rss_mb)|==[0-9]+==|SUMMARY|ERROR|Test unit written)' || true
  # libFuzzer's status is lost in the pipe: a finding leaves an artifact.
  if ls "$build"/fuzz-"$name"-* >/dev/null 2>&1; then
    echo "fuzz-$name found a failing input: $(ls "$build"/fuzz-"$name"-*)"
    exit 1
  fi
  echo "   corpus: $(ls "$corpus" | wc -l) inputs"
  rm -rf "$corpus"
done
