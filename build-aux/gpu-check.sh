#!/bin/bash
# build-aux/gpu-check.sh [BUILD]: the whole CUDA check, in one command, on a
# machine with an NVIDIA GPU (README, "On a GPU machine").
#
# BUILD is a build tree (default _build) or a bundle made by
# build-aux/gpu-bundle.sh (its build/ a slim build tree, its root/ Debian's
# GLib for machines without it). LT_GPU_CHECK_PYTHON names the Python that
# has PyTorch (default: python3 on PATH). The check runs, each step reported in one summary:
#   1. the programs' libraries all resolve;
#   2. the GPU and driver (nvidia-smi) and libtensor's view of cuda:0;
#   3. test-cuda-kernels (the kernels alone) under compute-sanitizer's
#      memcheck, then racecheck and synccheck;
#   4. the device test suites on cuda:0 with LT_CUDA_SYNC=1 (every launch
#      checked where it happens);
#   5. DLPack exchange with this machine's PyTorch (tests/test-dlpack-torch.py,
#      through ctypes: a GPU machine's Python has no PyGObject);
#   6. bench/bench-device.py --device cuda:0 (its table goes to
#      bench/RESULTS.md).
# Without a GPU (or with LT_GPU_CHECK_NO_GPU=1) steps 3 to 6 are skipped
# and said so, and the check still proves the build and bundle complete:
# the test suite runs it so. LT_GPU_CHECK_OUT names a folder for the logs
# (default BUILD/gpu-check); LT_GPU_BENCH_ARGS adds to the benchmark's
# arguments (e.g. "--size-mib 256 --matmul 4096"); LT_GPU_STEP_TIMEOUT stops
# a step after that many seconds (default 900).
# Exit status: 0 when nothing failed.
set -u
cd "$(dirname "$0")/.."
source_dir=$PWD
build=$(cd "${1:-_build}" && pwd) || { echo "gpu-check: no build tree ${1:-_build}"; exit 2; }
root=""
if [ -d "$build/build" ]; then  # a bundle
  root=$build/root
  build=$build/build
fi
out=${LT_GPU_CHECK_OUT:-$build/gpu-check}
mkdir -p "$out"

summary=()
failed=0
record () {  # record STEP STATUS DETAIL
  summary+=("$(printf '%-34s %-5s %s' "$1" "$2" "$3")")
  [ "$2" = FAIL ] && failed=1
  return 0
}

# Libraries: the build's, the bundle's Debian ones, and cuBLAS where the
# toolkit or PyTorch's wheels put it.
library_path=$build/libtensor
for dir in "$root/usr/lib/x86_64-linux-gnu" "$root/lib/x86_64-linux-gnu"; do
  [ -n "$root" ] && [ -d "$dir" ] && library_path=$library_path:$dir
done
python=${LT_GPU_CHECK_PYTHON:-$(command -v python3 || true)}
cublas_dirs=""
for dir in ${CUDA_PATH:-/usr/local/cuda}/lib64 /usr/local/cuda/lib64; do
  [ -e "$dir/libcublas.so.13" ] && cublas_dirs=$dir
done
if [ -z "$cublas_dirs" ] && [ -n "$python" ]; then
  cublas_dirs=$("$python" -c "
import glob, os, sys
found = [f for entry in sys.path
         for f in glob.glob(os.path.join(entry, 'nvidia', '**', 'libcublas.so.*'), recursive=True)]
print(os.path.dirname(found[0]) if found else '')" 2>/dev/null)
fi
[ -n "$cublas_dirs" ] && library_path=$library_path:$cublas_dirs
export LD_LIBRARY_PATH=$library_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LT_BACKEND_PATH=$build/libtensor
export LT_CTYPES_LIBRARY=$build/libtensor/libtensor-1.so.0

# 1. The bundle: every library each program needs resolves.
missing=""
for program in "$build"/libtensor/libtensor-1.so.0 "$build"/libtensor/libtensor-1-cuda.so \
               "$build"/tests/test-device-tensors "$build"/tests/test-dlpack; do
  if [ ! -e "$program" ]; then
    missing="$missing ${program#"$build"/}"
  else
    missing="$missing $(ldd "$program" | awk '/not found/ { print $1 }' | tr '\n' ' ')"
  fi
done
missing=$(echo "$missing" | xargs)
if [ -n "$missing" ]; then
  record "1 libraries resolve" FAIL "missing: $missing"
else
  record "1 libraries resolve" ok "cuBLAS: ${cublas_dirs:-not found, products use the built-in kernel}"
fi

# 2. The GPU, and whether libtensor sees it.
gpu=""
if [ -z "${LT_GPU_CHECK_NO_GPU:-}" ] && command -v nvidia-smi >/dev/null \
   && nvidia-smi -L >"$out/nvidia-smi.txt" 2>&1; then
  gpu=$(head -n 1 "$out/nvidia-smi.txt")
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
  record "2 GPU" ok "$gpu, driver $driver"
else
  record "2 GPU" skip "no NVIDIA GPU here: steps 3 to 6 are skipped"
fi
if [ -n "$python" ]; then
  seen=$("$python" -c "
import sys; sys.path.insert(0, '$source_dir/tests')
import lt_ctypes
ok, why = lt_ctypes.Device('cuda:0').is_available()
print('cuda:0 is ' + lt_ctypes.Device('cuda:0').get_name() if ok else why)" 2>&1 | tail -n 1)
  if [ -n "$gpu" ] && ! echo "$seen" | grep -q '^cuda:0 is '; then
    record "2 libtensor sees cuda:0" FAIL "$seen"
  elif [ -z "$gpu" ] && ! echo "$seen" | grep -q '^cuda:0 is not available: '; then
    record "2 libtensor sees cuda:0" FAIL "no GPU, and libtensor does not say so: $seen"
  else
    record "2 libtensor sees cuda:0" ok "$seen"
  fi
fi

run_step () {  # run_step NAME LOG COMMAND...: one step, its output in LOG
  local name=$1 log=$2 status
  shift 2
  timeout "${LT_GPU_STEP_TIMEOUT:-900}" "$@" >"$out/$log" 2>&1
  status=$?
  [ $status -eq 124 ] && echo "gpu-check: stopped after ${LT_GPU_STEP_TIMEOUT:-900} s" >>"$out/$log"
  if [ $status -eq 0 ]; then
    record "$name" ok "$(grep -c '^ok' "$out/$log") ok, log $log"
  else
    record "$name" FAIL "exit $status, log $log: $(grep -m 3 -E '^not ok|ERROR|Error|error' \
      "$out/$log" | tr '\n' ' ' | cut -c 1-300)"
  fi
}

if [ -n "$gpu" ]; then
  # 3. The kernels alone, under compute-sanitizer.
  run_step "3 test-cuda-kernels" cuda-kernels.log "$build/tests/test-cuda-kernels"
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
  if [ -n "$sanitizer" ]; then
    for tool in memcheck racecheck synccheck; do
      run_step "3 test-cuda-kernels ($tool)" "cuda-kernels-$tool.log" \
        "$sanitizer" --tool "$tool" --error-exitcode 1 "$build/tests/test-cuda-kernels"
    done
  else
    record "3 compute-sanitizer" skip "not installed"
  fi

  # 4. The device suites on cuda:0, every launch synchronised and checked.
  export LT_CUDA_SYNC=1
  run_step "4 test-device-tensors (cuda)" device-tensors.log \
    "$build/tests/test-device-tensors" --tap -p /device-tensors/cuda
  run_step "4 test-device-memory (cuda)" device-memory.log \
    "$build/tests/test-device-memory" --tap
  run_step "4 test-dlpack" dlpack.log "$build/tests/test-dlpack" --tap
  run_step "4 test-device" device.log "$build/tests/test-device" --tap
  unset LT_CUDA_SYNC

  # 5. and 6. PyTorch, in this machine's own Python.
  if [ -n "$python" ] && "$python" -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    run_step "5 DLPack with PyTorch on cuda:0" dlpack-torch.log \
      "$python" "$source_dir/tests/test-dlpack-torch.py" --device cuda:0
    # shellcheck disable=SC2086
    run_step "6 bench-device.py cuda:0" bench-device.md \
      "$python" "$source_dir/bench/bench-device.py" --ctypes --device cuda:0 \
      ${LT_GPU_BENCH_ARGS:-}
  else
    record "5 DLPack with PyTorch" skip "no PyTorch with CUDA in ${python:-no python3}"
    record "6 bench-device.py" skip "no PyTorch with CUDA"
  fi
else
  for step in "3 test-cuda-kernels" "4 device suites on cuda:0" "5 DLPack with PyTorch" \
              "6 bench-device.py"; do
    record "$step" skip "no GPU"
  done
fi

echo "GPU check of $build (logs in $out):"
printf '  %s\n' "${summary[@]}"
[ -s "$out/bench-device.md" ] && cat "$out/bench-device.md"
exit $failed
