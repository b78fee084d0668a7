#!/usr/bin/env bash
# bench_cli.sh — end-to-end CLI timing: per-frame cost at 1080p and 4K as
# (t(N) - t(small)) / (N - small), the median of several runs, so start-up is excluded.
#
#   scripts/bench_cli.sh [--runs 5] [--frames 24] [--small 4] [--threads "1 2"]
#                        [--sizes "1920x1080 3840x2160"] [--backend cpu] [--feature psnr ...]
#                        [--no-ref] [--floor]
# --threads 0 means vq's default (every core). Prints a markdown table. Clips come from vq-synth (banded gradient, 8-bit 4:2:0, raw YUV) in
# $VQ_BENCH_DIR (default /tmp/vq-bench), generated once.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 frames=24 small=4 threads="1 2" sizes="1920x1080 3840x2160" backend=cpu floor=0 noref=0
features=() label=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --small) small=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --feature) features+=(--feature "$2"); label+="${label:+ + }$2"; shift 2 ;;
    --floor) floor=1; shift ;;
    --no-ref) noref=1; shift ;;
    *) echo "bench_cli.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ ${#features[@]} -gt 0 ] || { features=(--feature psnr); label=psnr; }
vq=${VQ:-build/vq} synth=${VQ_SYNTH:-build/vq-synth} read_floor=${VQ_READ_FLOOR:-build/bench/vq-read-floor}
dir=${VQ_BENCH_DIR:-/tmp/vq-bench}
mkdir -p "$dir"

now() { date +%s.%N; }
# Median wall time of $runs runs of a command.
median_time() {
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; t1=$(now)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# (t(N) - t(small)) / (N - small) in milliseconds.
per_frame_ms() { awk -v b="$1" -v s="$2" -v n="$frames" -v k="$small" 'BEGIN {print (b - s) * 1000 / (n - k)}'; }

echo "| size | threads | backend | features | ms/frame | frames/s |"
echo "|---|---|---|---|---|---|"
for size in $sizes; do
  w=${size%x*}; h=${size#*x}
  ref=$dir/ref_$size.yuv dist=$dir/dist_$size.yuv
  if [ ! -f "$ref" ] || [ "$(stat -c %s "$ref")" -lt $((w * h * 3 / 2 * frames)) ]; then
    # Generate `small` distinct frames and repeat them: content costs the same to score, and
    # generating hundreds of 4K frames would take longer than the benchmark.
    "$synth" --scene banded_gradient --size "$size" --frames "$small" --ref "$ref.part" --dist "$dist.part"
    : > "$ref"; : > "$dist"
    for _ in $(seq $(( (frames + small - 1) / small ))); do cat "$ref.part" >> "$ref"; cat "$dist.part" >> "$dist"; done
    rm -f "$ref.part" "$dist.part"
  fi
  cat "$ref" "$dist" > /dev/null  # into the page cache
  refarg=(-r "$ref"); [ "$noref" = 1 ] && refarg=()
  for t in $threads; do
    threadarg=(--threads "$t"); [ "$t" = 0 ] && threadarg=()  # 0: vq's default, every core
    run() { "$vq" "${refarg[@]}" -d "$dist" -w "$w" -h "$h" -p 420 -b 8 "${features[@]}" \
              --backend "$backend" "${threadarg[@]}" -q --frame_cnt "$1"; }
    big=$(median_time run "$frames"); little=$(median_time run "$small")
    ms=$(per_frame_ms "$big" "$little")
    printf '| %s | %s | %s | %s | %.2f | %.0f |\n' "$size" "${t/#0/all}" "$backend" "$label" \
      "$ms" "$(awk -v m="$ms" 'BEGIN {print 1000 / m}')"
  done
  if [ "$floor" = 1 ]; then
    head -c $((w * h * 3 / 2 * small)) "$ref" > "$dir/ref_small_$size.yuv"
    head -c $((w * h * 3 / 2 * small)) "$dist" > "$dir/dist_small_$size.yuv"
    big=$(median_time "$read_floor" "$ref" "$dist" "$w" "$h")
    little=$(median_time "$read_floor" "$dir/ref_small_$size.yuv" "$dir/dist_small_$size.yuv" "$w" "$h")
    ms=$(per_frame_ms "$big" "$little")
    printf '| %s | - | read only | (none) | %.2f | %.0f |\n' "$size" "$ms" "$(awk -v m="$ms" 'BEGIN {print 1000 / m}')"
  fi
done
