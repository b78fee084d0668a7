#!/usr/bin/env bash
# device_round.sh — the whole round on the GPU machine. Runs THERE, from the repository root, over
# what scripts/prepare_device.sh packed HERE into the git-ignored .device/ (binaries, the shared
# libraries that machine lacks, ../shared's fixtures and goldens). Logs go to $OUT.
#
#   device tool: run  command "bash scripts/device_round.sh all"  carry [".device"]
#   scripts/device_round.sh [build] [tests] [sanitize] [bench] [vmaf] [vmaf-long] [models] [natural] [ladder] [nvdec] [nvdec-scaling] [profile] [memcheck] [aims] | all
#                                                                            (default: all)
#
#   build     builds build-cuda THERE on every core from what prepare_device.sh --build-there
#             packed (.device/sysroot), and puts the binaries in .device/bin; with FFmpeg's
#             container input (and vq-decode) when it packed .device/ffmpeg too (--ffmpeg)
#   tests     nvidia-smi, then every GPU test (*Cuda*, *Hwdec*), in parallel shards
#   sanitize  compute-sanitizer memcheck (leak check), racecheck and synccheck on a CLI run and on
#             test cases that reach every kernel (VQ_SANITIZE_TOOLS="memcheck" picks tools,
#             VQ_SANITIZE_CASES a gtest filter instead of those cases, VQ_SANITIZE_TIMEOUT the
#             seconds each tool has for the cases: 150)
#   bench     GPU time per frame of each twin (CUDA events), then the CLI end to end at 1080p
#             and 4K (CAMBI alone without -r; CAMBI + CIEDE + PSNR), the read floor, and the
#             transfer counter of one combined run
#   vmaf      the default VMAF run end to end on CUDA and on the CPU (every core; the reference
#             CLI beside it at equal threads when carried), the read floor and VMAF + CAMBI +
#             CIEDE + PSNR on CUDA, at 1080p and 4K
#   vmaf-long the default VMAF run on CUDA and the read floor, 1000 frames against 100
#   models    the v1 model (1d5h_2160 at 4K, 3d0h at 1080p) and --aom_ctc v7.0 end to end on CUDA
#             and on the CPU at every core, and the CUDA receipt of both together
#   memcheck  compute-sanitizer memcheck (leak check) on the CLI run alone: the short check
#   natural   the CPU beside the reference CLI on natural-looking clips (the x264 seed clips
#             prepare_device.sh --natural packed in .device/bench): default VMAF and the v1
#             models, 1080p and 4K, 1, 2 and every thread
#   ladder    one reference against six distorted inputs on CUDA: one run with six -d against six
#             separate runs (whole process, median of 5) and their outputs compared, 1080p and 4K
#             synthetic raw YUV, and six real 4K encodes when prepare_device.sh --clips packed them
#   nvdec     GPU decoding (the clips prepare_device.sh --clips packed): the driver's NVDEC
#             library, every codec's CUDA run with --hwdec cuda against --hwdec none (outputs
#             equal), the CPU fallback for H.264 4:4:4, the 4K HEVC 10-bit pair's default VMAF
#             run end to end (frames/s, median of 5) with the CPU decoder and with NVDEC at 1 (the
#             default), 2, 4 and 7 decoders per input (--decode-sessions), the CPU decoder alone
#             with 1, 2 and 4 (vq-decode), and chunks of runs (--frame_skip_ref/--frame_skip_dist)
#             with either decoder
#   nvdec-scaling  the 4K HEVC 10-bit pair decoded by 1, 2, 4 and 7 processes at once: what
#             bounds NVDEC's frames/s (one session, or the engines), with nvidia-smi dmon's view
#   aims      issue 24's speed aims in one run, one table (scripts/speed_aims.py: the CPU's VMAF
#             beside the reference CLI at 1, 2 and every thread, start-up and PSNR, the GPU's
#             VIF + ADM + motion, default VMAF on CUDA against the read floor, NVDEC against the
#             CPU decoder on the 4K HEVC pair, and NVDEC's parity per codec) in $OUT/aims.md; the
#             clips of prepare_device.sh --clips, the reference CLI and GNU time in .device/bin;
#             VQ_AIMS_ROUNDS rounds (5)
#   profile   where the time goes: Nsight Systems' kernel table of the GPU twins at 4K (those over
#             their issue-20 aims) and the CPU's v1 4K model on natural clips at 4, 8 and every
#             thread beside the reference CLI
# Every step runs; exits non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
modes=("$@")
{ [ ${#modes[@]} -eq 0 ] || [ "${modes[0]}" = all ]; } && modes=(tests sanitize bench vmaf)

out=${OUT:-$PWD/out/device}
bin=$PWD/.device/bin
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The minimal FFmpeg (prepare_device.sh --ffmpeg --build-there) that vq's FFmpeg module loads.
ffmpeg=$PWD/.device/ffmpeg
[ -d "$ffmpeg/lib" ] && export LD_LIBRARY_PATH=$ffmpeg/lib:$LD_LIBRARY_PATH
export VQ_TEST_SHARED_DIR=$PWD/.device/shared
export VQ_TEST_CLI=$bin/vq
# The encoded clips the GPU decoding tests read there (no encoder): prepare_device.sh --clips.
[ -d "$PWD/.device/clips/parity" ] && export VQ_HWDEC_CLIPS=$PWD/.device/clips/parity
scratch=${TMPDIR:-/tmp}/vq-device
mkdir -p "$scratch"
# The fixtures are xz files; if the image lacks the xz tool, decompress with Python's lzma.
if ! command -v xz > /dev/null; then
  mkdir -p "$scratch/bin"
  printf '#!/bin/sh\n# xz -dc FILE\nexec python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)" "$2"\n' \
    > "$scratch/bin/xz"
  chmod +x "$scratch/bin/xz"
  export PATH=$scratch/bin:$PATH
fi
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
  VQ_TEST_BINARY_DIR=$scratch "$VQ_TEST_SHARED_DIR/fixtures/unpack.sh" "$scratch/fixtures" > /dev/null &&
    echo "$scratch/fixtures/$1"
}

# The GPU tests are mostly CPU-bound (the CPU twin is their reference): shard them over the cores.
run_tests() {
  local shards=12 pids=() status=0
  step nvidia-smi tests.log nvidia-smi
  for ((i = 0; i < shards; ++i)); do
    mkdir -p "$scratch/shard$i"
    VQ_TEST_BINARY_DIR=$scratch/shard$i GTEST_SHARD_INDEX=$i GTEST_TOTAL_SHARDS=$shards \
      "$bin/vq_tests" --gtest_filter='*Cuda*:*Hwdec*' --gtest_brief=1 > "$out/tests.shard$i.log" 2>&1 &
    pids+=($!)
  done
  # The C interface on the GPU, through libvq.so as a C program sees it.
  [ -x "$bin/vq_capi_tests" ] &&
    step capi-cuda tests.log env VQ_TEST_BINARY_DIR="$scratch/capi" "$bin/vq_capi_tests" --gtest_filter='*Cuda*' --gtest_brief=1
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  cat "$out"/tests.shard*.log > "$out/tests-all.log" && rm -f "$out"/tests.shard*.log
  grep -hE '^\[==========\]|PASSED|FAILED|SKIPPED|Failure' "$out/tests-all.log" | sort | uniq -c | sort -rn | head -40 |
    tee -a "$out/tests.log"
  [ "$status" -eq 0 ] || failed+=(gpu-tests)
}

# run_sanitize full|cli: the three tools on the CLI run and the test cases, or memcheck on the CLI.
run_sanitize() {
  local clip; clip=$(fixture testsrc_576x324_8b_420) || { failed+=(fixtures); return; }
  local cli=("$bin/vq" -r "$clip/ref.y4m" -d "$clip/dist.y4m" --feature psnr=enable_apsnr=true --feature ciede
             --feature cambi=full_ref=true -m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg:name=vmaf_neg
             --feature float_ssim --feature float_ms_ssim --feature psnr_hvs
             --feature speed_chroma --feature speed_temporal
             --backend cuda --frame_cnt 4 --json -o "$scratch/sanitize.json")
  local cases=${VQ_SANITIZE_CASES:-}
  if [ -z "$cases" ]; then
    cases='CudaExecutor.Pipelines*:CudaExecutor.Pinned*:*CudaPsnrParity*/10bit_yuv420:*CudaCiedeParity.Random*/8bit_yuv422_reference422'
    cases+=':*CudaCambiStages*/0_*:*CudaCambiStages*/2_*:*CudaCambiStages*/*9_bit*:*CudaCambiStages*/*full_ref_true_src*'
    cases+=':CudaCambiHeatmaps.*:CudaCambiExamples.*'
    cases+=':VifCudaExample.*:MotionCudaExample.*:*MotionCudaParity*/257x255*:*VifCudaParity*/333x47*'
    cases+=':CudaSsimSmall.*:RunManyCuda.*'
    cases+=':*CudaPsnrHvsParity*/10bit_yuv422'
    cases+=':*SpeedCudaParity*/641x359_10bit_420_1:*SpeedCudaParity*/96x81_16bit_444_15:SpeedCudaParityTogether.*'
    cases+=':*AdmCudaParity*/641x359*:*AdmCudaParity*/33x33*:*AdmCudaParity*/35x700*:-*1280x720*'
  fi
  export VQ_TEST_BINARY_DIR=$scratch/sanitize
  mkdir -p "$VQ_TEST_BINARY_DIR"
  local tools; read -r -a tools <<< "${VQ_SANITIZE_TOOLS:-memcheck racecheck synccheck}"
  [ "$1" = cli ] && tools=(memcheck)
  for tool in "${tools[@]}"; do
    local extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    step "$tool-cli" sanitize.log timeout 120 "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 90 "${cli[@]}"
    [ "$1" = cli ] && continue
    step "$tool-tests" sanitize.log timeout "${VQ_SANITIZE_TIMEOUT:-150}" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 90 \
      "$bin/vq_tests" --gtest_filter="$cases" --gtest_brief=1
  done
}

run_bench() {
  step gpu-kernels bench.log "$bin/vq_bench" --benchmark_filter='CambiGpu/|GpuFeature/'
  local e2e=(env VQ=$bin/vq VQ_SYNTH=$bin/vq-synth VQ_READ_FLOOR=$bin/vq-read-floor VQ_BENCH_DIR=$scratch/clips
             scripts/bench_cli.sh --runs 5 --frames 200 --small 20 --threads 0 --backend cuda)
  step e2e-cambi bench.md "${e2e[@]}" --no-ref --feature cambi --floor
  step e2e-combined bench.md "${e2e[@]}" --feature cambi --feature ciede --feature psnr --floor
  local size=3840x2160
  # The clips bench_cli.sh made above (banded content, Y4M).
  step transfers bench.log env VQ_DEBUG_TRANSFERS=1 "$bin/vq" -r "$scratch/clips/banded_ref_$size.y4m" \
    -d "$scratch/clips/banded_dist_$size.y4m" --feature cambi --feature ciede --feature psnr --backend cuda --frame_cnt 50 -q \
    --json -o "$scratch/combined.json"
  grep -A3 feature_backends "$scratch/combined.json" | tee -a "$out/bench.log"
}

# equal_json A B: the two outputs are the same but for fps (the run's speed) and input_decoders
# (which decoder read the inputs: the GPU's or the CPU's, the same pictures).
equal_json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d.pop("fps", None)
    d.pop("input_decoders", None)
sys.exit(0 if a == b else 1)
PY
}

# Runs per timing. Five, not three: a whole process jitters by ±15 ms there, as much as 180 frames
# at 1080p take, and the per-frame figures are differences of two such medians.
timing_runs=${VQ_TIMING_RUNS:-5}

median_wall() {  # median wall time of timing_runs runs of a command, in seconds
  local t=()
  for _ in $(seq "$timing_runs"); do
    local a b; a=$(date +%s.%N); "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }; b=$(date +%s.%N)
    t+=("$(awk -v a="$a" -v b="$b" 'BEGIN {print b - a}')")
  done
  printf '%s\n' "${t[@]}" | sort -g | sed -n "$(( (timing_runs + 1) / 2 ))p"
}

# textured_clips DIR SIZE [FRAMES]: DIR/ref_SIZE.yuv and DIR/dist_SIZE.yuv, 20 distinct textured
# frames (vq-synth "mixed") repeated to FRAMES (200).
textured_clips() {
  local dir=$1 size=$2 frames=${3:-200} ref=$1/ref_$2.yuv dist=$1/dist_$2.yuv
  "$bin/vq-synth" --scene mixed --size "$size" --frames 20 --ref "$ref.20" --dist "$dist.20" > /dev/null
  : > "$ref"; : > "$dist"
  for _ in $(seq $((frames / 20))); do cat "$ref.20" >> "$ref"; cat "$dist.20" >> "$dist"; done
  rm -f "$ref.20" "$dist.20"
  sync  # the clips' pages written back now, not by the kernel during the timed runs
}

# frame_rows LOG SIZE BIG SMALL "NAME|COMMAND" ...: a table row per command, its per-frame cost
# (t(BIG frames) - t(SMALL frames)) / (BIG - SMALL), median of 5, on textured_clips' pair.
frame_rows() {
  local log=$1 size=$2 big_n=$3 small_n=$4; shift 4
  local w=${size%x*} h=${size#*x}
  local io=(-r "$clips/ref_$size.yuv" -d "$clips/dist_$size.yuv" -w "$w" -h "$h" -p 420 -b 8 -q)
  for label in "$@"; do
    local name=${label%%|*}; read -r -a command <<< "${label#*|}"
    local big small; big=$(median_wall "${command[@]}" "${io[@]}" --frame_cnt "$big_n") || continue
    small=$(median_wall "${command[@]}" "${io[@]}" --frame_cnt "$small_n") || continue
    awk -v s="$size" -v n="$name" -v b="$big" -v k="$small" -v d=$((big_n - small_n)) \
      'BEGIN {m = (b - k) * 1000 / d; printf "| %s | %s | %.3f | %.0f |\n", s, n, m, 1000 / m}' | tee -a "$out/$log"
  done
}

# VMAF end to end: per-frame cost of the default model run on CUDA, on the CPU at every core and
# by the reference CLI at as many threads, the read floor, and VMAF + CAMBI + CIEDE + PSNR on CUDA.
run_vmaf_bench() {
  local clips=$scratch/vmaf-clips; mkdir -p "$clips"
  echo "| size | run | ms/frame | frames/s |" | tee -a "$out/vmaf.md"
  echo "|---|---|---|---|" | tee -a "$out/vmaf.md"
  for size in 1920x1080 3840x2160; do
    local w=${size%x*} h=${size#*x} ref=$clips/ref_$size.yuv dist=$clips/dist_$size.yuv cores; cores=$(nproc)
    textured_clips "$clips" "$size"
    local runs=("vmaf cuda|$bin/vq --backend cuda"
                "vmaf cpu, $cores threads|$bin/vq --backend cpu --threads $cores")
    # The reference CLI beside vq's CPU run at equal threads, when prepare_device.sh carried it.
    [ -x "$bin/vmaf-ref" ] &&
      runs+=("vmaf reference cpu, $cores threads|$bin/vmaf-ref -m version=vmaf_v0.6.1 --threads $cores --json -o $clips/reference.json")
    runs+=("vmaf+cambi+ciede+psnr cuda|$bin/vq --backend cuda --feature cambi --feature ciede --feature psnr -m version=vmaf_v0.6.1")
    frame_rows vmaf.md "$size" 200 20 "${runs[@]}"
    floor_row vmaf.md "$size" 200 20
    VQ_DEBUG_TRANSFERS=1 "$bin/vq" -r "$ref" -d "$dist" -w "$w" -h "$h" -p 420 -b 8 -q --backend cuda --frame_cnt 50 \
      --json -o "$clips/receipt.json" 2>&1 | tee -a "$out/vmaf.md"
    grep -A6 feature_backends "$clips/receipt.json" | tee -a "$out/vmaf.md"
    rm -f "$ref" "$dist" "$ref".* "$dist".*
  done
}

# floor_row LOG SIZE BIG SMALL: the read floor's row, as frame_rows measures (vq-read-floor over
# the whole pair of textured_clips and over its first SMALL frames).
floor_row() {
  local log=$1 size=$2 big_n=$3 small_n=$4 w=${2%x*} h=${2#*x}
  local ref=$clips/ref_$size.yuv dist=$clips/dist_$size.yuv big small
  big=$(median_wall "$bin/vq-read-floor" "$ref" "$dist" "$w" "$h")
  head -c $((w * h * 3 / 2 * small_n)) "$ref" > "$ref.s"; head -c $((w * h * 3 / 2 * small_n)) "$dist" > "$dist.s"; sync
  small=$(median_wall "$bin/vq-read-floor" "$ref.s" "$dist.s" "$w" "$h")
  awk -v s="$size" -v b="$big" -v k="$small" -v d=$((big_n - small_n)) \
    'BEGIN {m = (b - k) * 1000 / d; printf "| %s | read floor, both inputs | %.3f | %.0f |\n", s, m, 1000 / m}' | tee -a "$out/$log"
}

# The default VMAF run on CUDA against the read floor over 1000 frames against 100: at 1080p the
# 180 frames of the vmaf mode take about as long as a whole process's jitter.
run_vmaf_long_bench() {
  local clips=$scratch/vmaf-clips; mkdir -p "$clips"
  echo "| size | run (1000 frames against 100) | ms/frame | frames/s |" | tee -a "$out/vmaf-long.md"
  echo "|---|---|---|---|" | tee -a "$out/vmaf-long.md"
  for size in 1920x1080 3840x2160; do
    textured_clips "$clips" "$size" 1000
    frame_rows vmaf-long.md "$size" 1000 100 "vmaf cuda|$bin/vq --backend cuda"
    floor_row vmaf-long.md "$size" 1000 100
    rm -f "$clips"/*
  done
}

# The v1 model and the AOM CTC set end to end on CUDA (200 frames against 20) and by the CPU twin
# at every core (40 against 20: the CPU takes seconds a 4K frame), with the receipt of each CUDA run.
run_models_bench() {
  local clips=$scratch/model-clips; mkdir -p "$clips"
  echo "| size | run | ms/frame | frames/s |" | tee -a "$out/models.md"
  echo "|---|---|---|---|" | tee -a "$out/models.md"
  local cores; cores=$(nproc)
  for size in 3840x2160 1920x1080; do
    textured_clips "$clips" "$size"
    local model=vmaf_v1.0.16_3d0h; [ "$size" = 3840x2160 ] && model=vmaf_v1.0.16_1d5h_2160
    frame_rows models.md "$size" 200 20 "$model cuda|$bin/vq --backend cuda -m version=$model" \
      "aom_ctc v7.0 cuda|$bin/vq --backend cuda --aom_ctc v7.0"
    frame_rows models.md "$size" 40 20 "$model cpu, $cores threads|$bin/vq --threads $cores -m version=$model" \
      "aom_ctc v7.0 cpu, $cores threads|$bin/vq --threads $cores --aom_ctc v7.0"
    local w=${size%x*} h=${size#*x}
    "$bin/vq" -r "$clips/ref_$size.yuv" -d "$clips/dist_$size.yuv" -w "$w" -h "$h" -p 420 -b 8 -q --backend cuda \
      --aom_ctc v7.0 -m version=$model:name=vmaf_v1 --frame_cnt 5 --json -o "$clips/receipt.json"
    grep -A14 feature_backends "$clips/receipt.json" | tee -a "$out/models.md"
    rm -f "$clips"/*
  done
}

# ladder_row LABEL DIR REFERENCE DISTORTED... -- OPTION...: one reference against several
# distorted inputs on CUDA: one run with every -d against a separate run each, whole process,
# median of 5; every output of the one run must equal its separate run's (fps aside). Outputs go
# to DIR/sep and DIR/one, named after the inputs.
ladder_row() {
  local label=$1 dir=$2 reference=$3; shift 3
  local inputs=() options=()
  while [ "$1" != -- ]; do inputs+=("$1"); shift; done
  shift; options=("$@")
  mkdir -p "$dir/sep" "$dir/one"
  separate() {
    for f in "${inputs[@]}"; do
      local name; name=$(basename "$f"); name=${name%.*}
      "$bin/vq" -r "$reference" -d "$f" "${options[@]}" -o "$dir/sep/$name.json" || return 1
    done
  }
  together() { local d=(); for f in "${inputs[@]}"; do d+=(-d "$f"); done; "$bin/vq" -r "$reference" "${d[@]}" "${options[@]}" -o "$dir/one/"; }
  local t_sep=() t_one=()
  for _ in 1 2 3; do
    local a b c; a=$(date +%s.%N); separate; b=$(date +%s.%N); together; c=$(date +%s.%N)
    t_sep+=("$(awk -v a="$a" -v b="$b" 'BEGIN {print b - a}')"); t_one+=("$(awk -v b="$b" -v c="$c" 'BEGIN {print c - b}')")
  done
  # One upload of each reference frame for every input: the transfer counters of one run.
  VQ_DEBUG_TRANSFERS=1 together 2>&1 | grep -E "cuda transfers|decode" | tee -a "$out/ladder.log"
  local equal=yes
  for f in "${inputs[@]}"; do
    local name; name=$(basename "$f"); name=${name%.*}
    equal_json "$dir/sep/$name.json" "$dir/one/$name.json" || equal=no
  done
  local s o; s=$(printf '%s\n' "${t_sep[@]}" | sort -g | sed -n 2p); o=$(printf '%s\n' "${t_one[@]}" | sort -g | sed -n 2p)
  awk -v z="$label" -v n="${#inputs[@]}" -v s="$s" -v o="$o" -v e="$equal" \
    'BEGIN {printf "| %s | %d | %.2f | %.2f | %.2f | %s |\n", z, n, s, o, o / s, e}' | tee -a "$out/ladder.md"
  [ "$equal" = yes ] || failed+=("ladder-outputs-$label")
}

# Several encodes of one reference on CUDA, default VMAF: six synthetic distorted inputs (the
# textured distorted clip with its frames rotated by 0..5, so each pairs differently with the
# reference; 200 raw frames) at 1080p and 4K, then, when prepare_device.sh --clips packed them, six
# real 4K encodes of an H.264 reference (H.264, HEVC, AV1: make_codec_clips.sh's ladder/).
run_ladder_bench() {
  local dir=$scratch/ladder; mkdir -p "$dir"
  echo "| inputs | encodes | separate runs s | one run, every -d s | ratio | outputs equal |" | tee -a "$out/ladder.md"
  echo "|---|---|---|---|---|---|" | tee -a "$out/ladder.md"
  for size in 1920x1080 3840x2160; do
    local w=${size%x*} h=${size#*x} frame=$(( ${size%x*} * ${size#*x} * 3 / 2 ))
    "$bin/vq-synth" --scene mixed --size "$size" --frames 20 --ref "$dir/ref.20" --dist "$dir/dist.20" > /dev/null
    : > "$dir/ref.yuv"; : > "$dir/dist.yuv"
    for _ in $(seq 10); do cat "$dir/ref.20" >> "$dir/ref.yuv"; cat "$dir/dist.20" >> "$dir/dist.yuv"; done
    local inputs=()
    for k in 0 1 2 3 4 5; do
      { tail -c +$((k * frame + 1)) "$dir/dist.yuv"; head -c $((k * frame)) "$dir/dist.yuv"; } > "$dir/d$k.yuv"
      inputs+=("$dir/d$k.yuv")
    done
    ladder_row "$size synthetic, raw YUV" "$dir" "$dir/ref.yuv" "${inputs[@]}" -- \
      -w "$w" -h "$h" -p 420 -b 8 -q --backend cuda --json
    rm -rf "$dir"/*
  done
  local encodes=$PWD/.device/clips/ladder
  [ -f "$encodes/ref.mp4" ] || return 0
  # CPU decoding in both, which a many-input run uses (GPU decoding is for one input's runs).
  ladder_row "3840x2160 x264 reference, 48 frames" "$dir" "$encodes/ref.mp4" \
    "$encodes"/h264_*.mp4 "$encodes"/hevc_*.mp4 "$encodes"/av1_*.mkv -- -q --backend cuda --hwdec none --json
  rm -rf "$dir"/*
}

# The CPU at 1, 2 and every thread beside the reference CLI, on seed clips of natural-looking
# content made HERE (x264, which that machine lacks) and repeated there by bench_cli.sh.
run_natural_bench() {
  local clips=$scratch/natural; mkdir -p "$clips"
  for packed in .device/bench/*.seed.y4m.xz; do
    [ -f "$packed" ] || { echo "no seed clips: run prepare_device.sh --natural DIR" >&2; failed+=(natural); return; }
    xz -dc "$packed" > "$clips/$(basename "$packed" .xz)"
  done
  local bench=(env VQ=$bin/vq VQ_SYNTH=$bin/vq-synth VQ_BENCH_DIR=$clips scripts/bench_cli.sh --content natural --runs 3 --long 15
               --reference "$bin/vmaf-ref" --threads "1 2 $(nproc)")
  step natural-1080p natural.md "${bench[@]}" --metrics "vmaf vmaf_v1" --sizes 1920x1080 --frames 60
  step natural-4k natural.md "${bench[@]}" --metrics "vmaf vmaf_v1_4k" --sizes 3840x2160 --frames 24
}

run_nvdec() {
  local clips=$PWD/.device/clips work=$scratch/nvdec
  [ -d "$clips/parity" ] || { echo "no clips: run prepare_device.sh --clips DIR" >&2; failed+=(nvdec); return; }
  mkdir -p "$work"
  step nvcuvid nvdec.log bash -c "ldconfig -p | grep -E 'libnvcuvid|libcuda'"
  echo "| distorted | reference | --hwdec cuda equals --hwdec none |" | tee -a "$out/nvdec.md"
  echo "|---|---|---|" | tee -a "$out/nvdec.md"
  # Pairs of one size and bit depth, each codec once as the distorted input, against a reference
  # that is not AV1 (which the H200's NVDEC does not decode: such a pair reports it, not a failure).
  local pairs=("h264_8bit.mp4 hevc_8bit.mkv" "hevc_8bit.mkv vp9_8bit.webm" "vp9_8bit.webm h264_8bit.mp4"
               "av1_8bit.mkv h264_8bit.mp4" "hevc_10bit.mkv vp9_10bit.webm" "vp9_10bit.webm hevc_10bit.mkv"
               "av1_10bit.mkv hevc_10bit.mkv")
  for pair in "${pairs[@]}"; do
    local d=${pair% *} r=${pair#* } same=no
    local run=("$bin/vq" -r "$clips/parity/$r" -d "$clips/parity/$d" --backend cuda --feature psnr -q --json)
    if "${run[@]}" --hwdec cuda -o "$work/gpu.json" > "$work/gpu.log" 2>&1; then
      step "cpudec-$d" nvdec.log "${run[@]}" --hwdec none -o "$work/cpu.json" &&
        equal_json "$work/gpu.json" "$work/cpu.json" && same=yes
    elif grep -q "Hardware is lacking required capabilities" "$work/gpu.log"; then
      same="NVDEC lacks the codec"
    fi
    tee -a "$out/nvdec.log" < "$work/gpu.log"
    echo "| $d | $r | $same |" | tee -a "$out/nvdec.md"
    [ "$same" != no ] || failed+=("nvdec-parity-$d")
  done
  # NVDEC has no H.264 4:4:4: auto falls back to the CPU decoder and says so; cuda refuses.
  local h444=(-r "$clips/parity/h264_444.mp4" -d "$clips/parity/h264_444.mp4" --backend cuda -q --json)
  step fallback-auto nvdec.log "$bin/vq" "${h444[@]}" --hwdec auto -o "$work/auto.json"
  grep -i -E 'decode|hwdec' "$work/auto.json" | tee -a "$out/nvdec.log"
  "$bin/vq" "${h444[@]}" --hwdec cuda -o "$work/refused.json" > "$work/refused.log" 2>&1 &&
    failed+=(nvdec-cuda-must-refuse-444)
  tee -a "$out/nvdec.log" < "$work/refused.log"
  step memcheck-hwdec nvdec.log timeout 120 "$sanitizer" --tool memcheck --leak-check full --error-exitcode 90 \
    "$bin/vq" -r "$clips/parity/hevc_10bit.mkv" -d "$clips/parity/vp9_10bit.webm" --backend cuda --hwdec cuda -q \
    --json -o "$work/memcheck.json"
  # The 4K HEVC 10-bit pair, 200 frames, default VMAF on CUDA: frames/s end to end.
  local bench=("$bin/vq" -r "$clips/bench/ref_3840x2160_hevc10.mp4" -d "$clips/bench/dist_3840x2160_hevc10.mp4"
               --backend cuda -q --json)
  echo "| 4K HEVC 10-bit, 200 frames, default VMAF, --backend cuda | wall s (median of 5) | frames/s | outputs equal the CPU decoder's |" | tee -a "$out/nvdec.md"
  echo "|---|---|---|---|" | tee -a "$out/nvdec.md"
  for variant in "none 1" "cuda 1" "cuda 2" "cuda 4" "cuda 7"; do
    local hwdec=${variant% *} sessions=${variant#* } t same=-
    local result=$work/bench_${hwdec}_$sessions.json
    t=$(median_wall "${bench[@]}" --hwdec "$hwdec" --decode-sessions "$sessions" -o "$result") || { failed+=("nvdec-bench-$variant"); continue; }
    if [ "$hwdec" = cuda ]; then
      equal_json "$result" "$work/bench_none_1.json" && same=yes || { same=NO; failed+=("nvdec-bench-outputs-$sessions"); }
    fi
    awk -v h="$hwdec" -v s="$sessions" -v t="$t" -v same="$same" \
      'BEGIN {printf "| --hwdec %s --decode-sessions %s | %.2f | %.0f | %s |\n", h, s, t, 200 / t, same}' | tee -a "$out/nvdec.md"
  done
  # What a run costs besides its frames: the default run on the pair's first 20 frames.
  local t20; t20=$(median_wall "${bench[@]}" --frame_cnt 20 -o "$work/bench_20.json") &&
    awk -v t="$t20" 'BEGIN {printf "| default, --frame_cnt 20 | %.2f | %.0f | - |\n", t, 20 / t}' | tee -a "$out/nvdec.md"
  grep -i -E -A3 'decode' "$work/bench_cuda_4.json" | head -20 | tee -a "$out/nvdec.log"
  # The CPU decoder alone (vq-decode, every core): one decoder with frame threads against several
  # on chunks, each with its share of the threads.
  if [ -x "$bin/vq-decode" ]; then
    for sessions in 1 2 4; do
      "$bin/vq-decode" --decode-sessions "$sessions" "$clips/bench/ref_3840x2160_hevc10.mp4" 2>&1 |
        sed "s/^/CPU decoding, --decode-sessions $sessions: /" | tee -a "$out/nvdec.md"
    done
  fi
  # A chunk of a run (--frame_skip_ref/--frame_skip_dist, vq.dask's chunks) seeks or steps over
  # frames: the GPU's decoder must land on the same frames as the CPU's.
  echo "| chunk (frames skipped, counted) | --hwdec cuda equals --hwdec none |" | tee -a "$out/nvdec.md"
  echo "|---|---|" | tee -a "$out/nvdec.md"
  local chunks=("hevc_10bit.mkv vp9_10bit.webm 7 12" "h264_8bit.mp4 hevc_8bit.mkv 13 9"
                "bench/dist_3840x2160_hevc10.mp4 bench/ref_3840x2160_hevc10.mp4 150 20")
  for chunk in "${chunks[@]}"; do
    read -r d r skip count <<< "$chunk"
    [ "${d#bench/}" = "$d" ] && d=parity/$d r=parity/$r
    local run=("$bin/vq" -r "$clips/$r" -d "$clips/$d" --backend cuda --feature psnr -q --json
               --frame_skip_ref "$skip" --frame_skip_dist "$skip" --frame_cnt "$count")
    local same=no
    "${run[@]}" --hwdec cuda -o "$work/chunk_gpu.json" && "${run[@]}" --hwdec none -o "$work/chunk_cpu.json" &&
      equal_json "$work/chunk_gpu.json" "$work/chunk_cpu.json" && same=yes
    echo "| $d vs $r ($skip, $count) | $same |" | tee -a "$out/nvdec.md"
    [ "$same" = yes ] || failed+=("nvdec-chunk-$(basename "$d")")
  done
}

# Where NVDEC's time goes on the 4K HEVC 10-bit pair: N processes at once (PSNR, so that decoding
# is all there is), frames/s of each and in all, and the decoder's utilisation meanwhile
# (nvidia-smi dmon): whether one input's session, or the engines, bound it.
run_nvdec_scaling() {
  local clips=$PWD/.device/clips/bench work=$scratch/nvdec-scaling
  [ -f "$clips/ref_3840x2160_hevc10.mp4" ] || { echo "no clips: run prepare_device.sh --clips DIR" >&2; failed+=(nvdec-scaling); return; }
  mkdir -p "$work"
  echo "| processes at once | hwdec | wall s | pairs/s per process | pairs/s in all |" | tee -a "$out/nvdec-scaling.md"
  echo "|---|---|---|---|---|" | tee -a "$out/nvdec-scaling.md"
  for hwdec in cuda none; do
    for n in 1 2 4 7; do
      [ "$hwdec" = none ] && [ "$n" -gt 2 ] && continue
      nvidia-smi dmon -s u -d 1 > "$work/dmon_${hwdec}_$n.log" 2>&1 &
      local dmon=$! a b pids=()
      a=$(date +%s.%N)
      for ((i = 0; i < n; ++i)); do
        "$bin/vq" -r "$clips/ref_3840x2160_hevc10.mp4" -d "$clips/dist_3840x2160_hevc10.mp4" --backend cuda \
          --hwdec $hwdec --feature psnr -q --json -o "$work/p$i.json" &
        pids+=($!)
      done
      local ok=yes; for pid in "${pids[@]}"; do wait "$pid" || ok=no; done
      b=$(date +%s.%N)
      kill "$dmon" 2> /dev/null; wait "$dmon" 2> /dev/null
      awk -v n="$n" -v h="$hwdec" -v a="$a" -v b="$b" -v ok="$ok" \
        'BEGIN {t = b - a; printf "| %d | %s | %.2f | %.0f | %.0f%s |\n", n, h, t, 200 / t, 200 * n / t, ok == "yes" ? "" : " (a run FAILED)"}' |
        tee -a "$out/nvdec-scaling.md"
      { echo "--- dmon, $n processes, --hwdec $hwdec"; cat "$work/dmon_${hwdec}_$n.log"; } >> "$out/nvdec-scaling.log"
    done
  done
}

run_profile() {
  local nsys; nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2> /dev/null | head -1)
  if [ -n "$nsys" ]; then
    step nsys-twins profile.log "$nsys" profile --stats=true --force-overwrite=true -o "$scratch/twins" \
      "$bin/vq_bench" --benchmark_filter='GpuFeature/(float_ssim|float_ms_ssim|psnr_hvs|speed_chroma|speed_temporal)/4K'
  else
    echo "no nsys on this machine" | tee -a "$out/profile.log"
  fi
  local clips=$scratch/natural; mkdir -p "$clips"
  for packed in .device/bench/*3840x2160.seed.y4m.xz; do
    xz -dc "$packed" > "$clips/$(basename "$packed" .xz)"
  done
  step natural-4k-threads profile.md env VQ=$bin/vq VQ_SYNTH=$bin/vq-synth VQ_BENCH_DIR=$clips \
    scripts/bench_cli.sh --content natural --runs 3 --long 15 --reference "$bin/vmaf-ref" \
    --threads "4 8 $(nproc)" --metrics vmaf_v1_4k --sizes 3840x2160 --frames 96 --small 24
}

# The build on the GPU machine: Debian's build dependencies from .device/sysroot, the image's
# gcc, nvcc, CMake and ninja; FFmpeg from .device/ffmpeg when packed (prepare_device.sh --ffmpeg),
# else off.
run_build() {
  local sysroot=$PWD/.device/sysroot/usr lib=$PWD/.device/sysroot/usr/lib/x86_64-linux-gnu
  # VQ_BUILD_TARGETS: fewer targets for a short round (vq and vq-decode alone for nvdec).
  local with_ffmpeg=(-DVQ_FFMPEG=OFF) targets
  read -r -a targets <<< "${VQ_BUILD_TARGETS:-vq vq-synth vq_tests vq_capi_tests vq-read-floor vq_bench}"
  if [ -f "$ffmpeg/lib/pkgconfig/libavformat.pc" ]; then
    # Its pkg-config files alone, found again on every configure; its own pkg-config where the
    # image has none.
    export PKG_CONFIG_LIBDIR=$ffmpeg/lib/pkgconfig
    with_ffmpeg=(-DVQ_FFMPEG=ON -U"*VQ_FFMPEG_LIBS*")
    command -v pkg-config > /dev/null || with_ffmpeg+=(-DPKG_CONFIG_EXECUTABLE="$ffmpeg/bin/pkg-config")
    [ -z "${VQ_BUILD_TARGETS:-}" ] && targets+=(vq-decode)
  fi
  step configure build.log cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQ_CUDA=ON \
    "${with_ffmpeg[@]}" -DVQ_BENCH=ON -DVQ_PYTHON=OFF -DCMAKE_PREFIX_PATH="$sysroot" \
    -DPNG_PNG_INCLUDE_DIR="$sysroot/include" -DPNG_LIBRARY="$lib/libpng16.so" \
    -DZLIB_INCLUDE_DIR="$sysroot/include" -DZLIB_LIBRARY="$lib/libz.so"
  step build build.log cmake --build build-cuda -j "$(nproc)" --target "${targets[@]}"
  for built in vq vq-synth tests/vq_tests tests/vq_capi_tests bench/vq-read-floor bench/vq_bench; do
    [ -f "build-cuda/$built" ] && cp "build-cuda/$built" "$bin/"
  done
  # vq loads the FFmpeg module from beside itself; vq_tests and vq-decode, which link it, find it
  # in build-cuda (their RUNPATH).
  if [ -f build-cuda/libvq_ffmpeg.so ] && [ -f "$ffmpeg/lib/pkgconfig/libavformat.pc" ]; then
    cp build-cuda/libvq_ffmpeg.so build-cuda/src/vq-decode "$bin/"
  fi
  mkdir -p .device/lib && cp -P "$lib"/*.so* .device/lib/
}

# Issue 24's aims, every figure from this one run on this machine.
run_aims() {
  step aims aims.log python3 scripts/speed_aims.py --vq "$bin/vq" --reference "$bin/vmaf-ref" \
    --synth "$bin/vq-synth" --read-floor "$bin/vq-read-floor" --bench "$bin/vq_bench" --cuda \
    --clips "$PWD/.device/clips" --time "$bin/time" --work "$scratch" --out "$out/aims.md" \
    --rounds "${VQ_AIMS_ROUNDS:-5}"
}

# The carry replaces .device on every call, so the binaries are there only once `build` has run
# in the same call.
if [ "${modes[0]}" != build ] && [ ! -x "$bin/vq" ]; then
  echo "device_round.sh: no binaries in .device/bin: put build first (the carry replaced .device)" >&2
  exit 2
fi
for mode in "${modes[@]}"; do
  case "$mode" in
    build) run_build ;;
    tests) run_tests ;;
    sanitize) run_sanitize full ;;
    memcheck) run_sanitize cli ;;
    bench) run_bench ;;
    vmaf) run_vmaf_bench ;;
    vmaf-long) run_vmaf_long_bench ;;
    models) run_models_bench ;;
    ladder) run_ladder_bench ;;
    nvdec) run_nvdec ;;
    nvdec-scaling) run_nvdec_scaling ;;
    natural) run_natural_bench ;;
    profile) run_profile ;;
    aims) run_aims ;;
    *) echo "device_round.sh: unknown mode '$mode' (build, tests, sanitize, bench, vmaf, vmaf-long, models, natural, ladder, nvdec, nvdec-scaling, profile, memcheck, aims or all)" >&2; exit 2 ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "device_round.sh: FAILED: ${failed[*]}"
  exit 1
fi
echo "device_round.sh: all steps passed"
