#!/usr/bin/env bash
# device_cambi.sh — the CAMBI CUDA twin on the GPU machine: its tests, compute-sanitizer on its
# kernels and its benchmark. Two halves:
#
#   scripts/device_cambi.sh prepare        HERE: builds build-cambi-cuda (Release, CUDA, tests,
#                                          benchmarks) and packs the binaries, the shared libraries
#                                          the GPU machine lacks and ../shared's test data into
#                                          build-cambi-cuda/device-pack (carry that path).
#   scripts/device_cambi.sh run [tests] [sanitize] [bench]    THERE (default: all three), from
#                                          the repository root; logs go to $OUT.
#
# The tests run in parallel shards (they are mostly CPU-bound: the CPU twin is the reference),
# each with its own scratch directory. Exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=build-cambi-cuda
pack=$build/device-pack

prepare() {
  set -e
  local shared=${VQ_SHARED_DIR:-../shared}
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQ_CUDA=ON -DVQ_TESTS=ON -DVQ_BENCH=ON \
    -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 \
    "-DCMAKE_TRY_COMPILE_PLATFORM_VARIABLES=CMAKE_CUDA20_STANDARD_COMPILE_OPTION;CMAKE_CUDA20_EXTENSION_COMPILE_OPTION"
  cmake --build "$build" -j2 --target vq vq_tests vq_bench
  rm -rf "$pack"
  mkdir -p "$pack/bin" "$pack/lib" "$pack/shared"
  cp "$build/src/vq" "$build/tests/vq_tests" "$build/bench/vq_bench" "$pack/bin/"
  strip "$pack"/bin/*
  # Every library the binaries load except the C and C++ runtimes (newer on the GPU machine).
  ldd "$pack"/bin/* | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
    while read -r library; do cp -L "$library" "$pack/lib/"; done
  cp -r "$shared/fixtures" "$shared/golden" "$pack/shared/"
  chmod -R u+w "$pack"
  echo "carry: $pack $(du -sh "$pack" | cut -f1) (limit 64 MiB with the tree)"
}

out=${OUT:-$PWD/out/device-cambi}
failed=()

step() {  # step NAME LOG COMMAND...: output to the terminal and to $out/LOG
  local name=$1 log=$2; shift 2
  echo "=== $name: $*" | tee -a "$out/$log"
  local start=$SECONDS
  "$@" 2>&1 | tee -a "$out/$log"
  local status=${PIPESTATUS[0]}
  echo "=== $name: exit $status after $((SECONDS - start)) s" | tee -a "$out/$log"
  [ "$status" -eq 0 ] || failed+=("$name")
}

run_environment() {
  export LD_LIBRARY_PATH=$PWD/$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export VQ_TEST_SHARED_DIR=$PWD/$pack/shared
  export VQ_TEST_CLI=$PWD/$pack/bin/vq
  scratch=${TMPDIR:-/tmp}/vq-cambi-device
  mkdir -p "$out" "$scratch"
}

# One shard of the CAMBI GPU tests (and the CPU twin's own CAMBI tests, shard 0 only).
test_shard() {
  local index=$1 count=$2
  VQ_TEST_BINARY_DIR=$scratch/shard$index GTEST_SHARD_INDEX=$index GTEST_TOTAL_SHARDS=$count \
    "$pack/bin/vq_tests" --gtest_filter='CudaCambi*:*/CudaCambi*' --gtest_brief=1 > "$out/tests.shard$index.log" 2>&1
}

run_tests() {
  local shards=12 pids=() status=0
  step nvidia-smi tests.log nvidia-smi
  for ((i = 0; i < shards; ++i)); do mkdir -p "$scratch/shard$i"; test_shard "$i" "$shards" & pids+=($!); done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  cat "$out"/tests.shard*.log > "$out/tests.log.tmp" && mv "$out/tests.log.tmp" "$out/tests-all.log"
  rm -f "$out"/tests.shard*.log
  grep -E 'FAILED|largest|identical|Failure|error' "$out/tests-all.log" | sort | uniq -c | sort -rn | head -80
  [ "$status" -eq 0 ] || failed+=(gpu-tests)
}

run_sanitize() {
  local sanitizer=/usr/local/cuda/bin/compute-sanitizer
  # Small cases that reach every kernel: several sweeps per tile (staircase), full_ref with a
  # resize, the input check (9 bits), heatmaps, the pipelined executor.
  local kernels='*CudaCambiStages*/0_*:*CudaCambiStages*/2_*:*CudaCambiStages*/*9_bit*:*CudaCambiStages*/*full_ref_true_src*:CudaCambiHeatmaps.*:CudaCambiExamples.*:-*1280x720*'
  local limit=${VQ_SANITIZE_SECONDS:-120}  # per tool: racecheck slows shared-memory-heavy kernels a lot
  export VQ_TEST_BINARY_DIR=$scratch/sanitize
  mkdir -p "$VQ_TEST_BINARY_DIR"
  for tool in memcheck racecheck synccheck; do
    local extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    step "$tool" sanitize.log timeout "$limit" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 90 \
      "$pack/bin/vq_tests" --gtest_filter="$kernels" --gtest_brief=1
  done
}

run_bench() {
  step bench bench.log "$pack/bin/vq_bench" --benchmark_filter=CambiGpu --benchmark_min_time=0.3
}

case "${1:-}" in
  prepare) prepare ;;
  run)
    shift
    modes=("$@")
    [ ${#modes[@]} -eq 0 ] && modes=(tests sanitize bench)
    run_environment
    for mode in "${modes[@]}"; do
      case "$mode" in
        tests) run_tests ;;
        sanitize) run_sanitize ;;
        bench) run_bench ;;
        *) echo "device_cambi.sh: unknown mode '$mode'" >&2; exit 2 ;;
      esac
    done
    if [ ${#failed[@]} -gt 0 ]; then echo "device_cambi.sh: FAILED: ${failed[*]}"; exit 1; fi
    echo "device_cambi.sh: all steps passed"
    ;;
  *) echo "usage: scripts/device_cambi.sh prepare | run [tests] [sanitize] [bench]" >&2; exit 2 ;;
esac
