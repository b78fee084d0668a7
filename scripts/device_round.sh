#!/usr/bin/env bash
# device_round.sh — runs ON the GPU machine, from the repository root, over what
# scripts/prepare_device.sh built and gathered here (build-cuda, .device). Logs go to $OUT.
#
#   scripts/device_round.sh [tests] [sanitize] [bench] | all     (default: all)
#
#   tests     nvidia-smi, then the GPU tests: vq_tests --gtest_filter='Cuda*:*Parity*'
#   sanitize  compute-sanitizer memcheck (with leak check) and racecheck on a short CLI run and on
#             a few GPU tests (not the one that faults a kernel on purpose)
#   bench     scripts/bench_cli.sh, CPU against CUDA, PSNR and CIEDE at 1080p and 4K
# Exits non-zero if any step failed; every step runs regardless.
set -uo pipefail
cd "$(dirname "$0")/.."
modes=("$@")
[ ${#modes[@]} -eq 0 ] || [ "${modes[0]}" = all ] && modes=(tests sanitize bench)

out=${OUT:-$PWD/out/device}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VQ_TEST_SHARED_DIR=$PWD/.device/shared
export VQ_TEST_BINARY_DIR=${TMPDIR:-/tmp}/vq-device-tests
export VQ_TEST_CLI=$PWD/build-cuda/src/vq
mkdir -p "$VQ_TEST_BINARY_DIR"
# The fixtures are xz files; if that machine's image lacks the xz tool, decompress with Python's.
if ! command -v xz > /dev/null; then
  mkdir -p "$VQ_TEST_BINARY_DIR/bin"
  printf '#!/bin/sh\n# xz -dc FILE\nexec python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)" "$2"\n' \
    > "$VQ_TEST_BINARY_DIR/bin/xz"
  chmod +x "$VQ_TEST_BINARY_DIR/bin/xz"
  export PATH=$VQ_TEST_BINARY_DIR/bin:$PATH
fi
vq=build-cuda/src/vq
tests=build-cuda/tests/vq_tests
sanitizer=/usr/local/cuda/bin/compute-sanitizer
failed=()

# step NAME LOG COMMAND...: runs the command, its output to the terminal and to $out/LOG.
step() {
  local name=$1 log=$2; shift 2
  echo "=== $name: $*" | tee -a "$out/$log"
  local start=$SECONDS
  "$@" 2>&1 | tee -a "$out/$log"
  local status=${PIPESTATUS[0]}
  echo "=== $name: exit $status after $((SECONDS - start)) s" | tee -a "$out/$log"
  [ "$status" -eq 0 ] || failed+=("$name")
}

fixture() {  # the unpacked path of a fixture clip
  "$VQ_TEST_SHARED_DIR/fixtures/unpack.sh" "$VQ_TEST_BINARY_DIR/fixtures" > /dev/null && echo "$VQ_TEST_BINARY_DIR/fixtures/$1"
}

run_tests() {
  step nvidia-smi tests.log nvidia-smi
  step gpu-tests tests.log "$tests" --gtest_filter='Cuda*:*Parity*'
}

run_sanitize() {
  local clip; clip=$(fixture testsrc_576x324_8b_420) || { failed+=(fixtures); return; }
  local cli=("$vq" -r "$clip/ref.y4m" -d "$clip/dist.y4m" --feature psnr=enable_apsnr=true --feature ciede
             --backend cuda --frame_cnt 6 --json -o "$VQ_TEST_BINARY_DIR/sanitize.json")
  local kernels='CudaExecutor.Pipelines*:CudaExecutor.Pinned*:*CudaPsnrParity*/10bit_yuv420:*CudaCiedeParity.Random*/8bit_yuv422_reference422:*CudaCiedeMath*/16bit'
  step memcheck-cli sanitize.log "$sanitizer" --tool memcheck --leak-check full --error-exitcode 90 "${cli[@]}"
  step memcheck-tests sanitize.log "$sanitizer" --tool memcheck --error-exitcode 90 "$tests" --gtest_filter="$kernels"
  step racecheck-cli sanitize.log "$sanitizer" --tool racecheck --error-exitcode 90 "${cli[@]}"
  step racecheck-tests sanitize.log "$sanitizer" --tool racecheck --error-exitcode 90 "$tests" --gtest_filter="$kernels"
}

run_bench() {
  for backend in cpu cuda; do
    for feature in psnr ciede; do
      step "bench-$backend-$feature" bench.md scripts/bench_cli.sh --build build-cuda --backend "$backend" \
        --feature "$feature" --threads 0 --runs 3
    done
  done
}

for mode in "${modes[@]}"; do
  case "$mode" in
    tests) run_tests ;;
    sanitize) run_sanitize ;;
    bench) run_bench ;;
    *) echo "device_round.sh: unknown mode '$mode' (tests, sanitize, bench or all)" >&2; exit 2 ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "device_round.sh: FAILED: ${failed[*]}"
  exit 1
fi
echo "device_round.sh: all steps passed"
