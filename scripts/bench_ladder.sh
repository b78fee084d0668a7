#!/usr/bin/env bash
# bench_ladder.sh — one reference, six encodes: one `vq` run with six -d against six runs of one
# -d each (what every other tool does), default VMAF. Prints a Markdown table: the median of
# --runs runs of wall time and of CPU time (user + sys, steadier on a shared machine), and checks
# that each input's output is the same file as its own run's.
#
#   scripts/bench_ladder.sh [--vq PATH] [--threads N] [--frames N] [--runs N] [--reference y4m|mp4]
#
# The clips (ffmpeg: testsrc2 with temporal noise, the reference x264 CRF 12, the encodes x264 at
# 1080p, 720p and 540p, two CRFs each, scored with --scale 1920x1080) are made once in
# $VQ_BENCH_DIR/ladder-FRAMES (default /tmp/vq-bench). The reference is read as that x264 file
# (mp4: a mezzanine that every separate run decodes again) or decoded once to Y4M beforehand (y4m,
# the default: the cheapest reference to read, so the saving is the metrics' alone).
set -euo pipefail
vq=${VQ:-build/vq} threads=2 frames=60 runs=3 reference=y4m
while [ $# -gt 0 ]; do
  case "$1" in
    --vq) vq=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --reference) reference=$2; shift 2 ;;
    *) echo "bench_ladder.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
vq=$(realpath "$vq")
dir=${VQ_BENCH_DIR:-/tmp/vq-bench}/ladder-$frames
mkdir -p "$dir"
cd "$dir"

if [ ! -f ref.y4m ]; then
  ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=24" -vf "noise=alls=12:allf=t" \
    -frames:v "$frames" -c:v libx264 -preset veryfast -crf 12 source.mp4
  ffmpeg -loglevel error -y -i source.mp4 -pix_fmt yuv420p ref.y4m
fi
rungs=()
for height in 1080 720 540; do
  for crf in 23 32; do
    name=${height}p_crf$crf
    [ -f "$name.mp4" ] ||
      ffmpeg -loglevel error -y -i ref.y4m -vf "scale=-2:$height" -c:v libx264 -preset veryfast \
        -crf "$crf" "$name.mp4"
    rungs+=("$name")
  done
done
printf '%s.mp4 --scale 1920x1080\n' "${rungs[@]}" > rungs.txt
case "$reference" in
  y4m) ref=ref.y4m ;;
  mp4) ref=source.mp4 ;;
  *) echo "bench_ladder.sh: --reference is y4m or mp4, not '$reference'" >&2; exit 2 ;;
esac

# median WALL CPU of `runs` runs of a command: wall seconds and user + sys seconds.
median() {
  local walls=() cpus=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$dir/time.txt" -f '%e %U %S' "$@" > /dev/null 2>&1
    local line; line=$(tail -1 "$dir/time.txt")
    walls+=("$(echo "$line" | awk '{print $1}')")
    cpus+=("$(echo "$line" | awk '{print $2 + $3}')")
  done
  local mid=$(((runs + 1) / 2))
  echo "$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "${mid}p") $(printf '%s\n' "${cpus[@]}" | sort -g | sed -n "${mid}p")"
}

separate() {
  for rung in "${rungs[@]}"; do
    "$vq" -r "$ref" -d "$rung.mp4" --scale 1920x1080 --threads "$threads" -q --json -o "own_$rung.json"
  done
}
together() {
  "$vq" -r "$ref" --distorted_list rungs.txt --threads "$threads" -q --json -o together/
}
export vq threads ref
rungs_list=${rungs[*]}
read -r sep_wall sep_cpu < <(median bash -c "rungs=($rungs_list); $(declare -f separate); separate")
read -r tog_wall tog_cpu < <(median bash -c "$(declare -f together); together")

identical=yes
for rung in "${rungs[@]}"; do
  cmp -s <(grep -v '"fps"' "own_$rung.json") <(grep -v '"fps"' "together/$rung.json") || identical=no
done
echo "| reference | encodes | threads | six runs: wall s | one run, six -d: wall s | ratio | six runs: CPU s | one run: CPU s | ratio | outputs identical |"
echo "|---|---|---|---|---|---|---|---|---|---|"
awk -v r="$reference" -v f="$frames" -v t="$threads" -v sw="$sep_wall" -v tw="$tog_wall" -v sc="$sep_cpu" -v tc="$tog_cpu" -v same="$identical" \
  'BEGIN {printf "| 1920x1080 %s, %d frames | 6 (1080p, 720p, 540p x CRF 23, 32) | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", r, f, t, sw, tw, tw / sw, sc, tc, tc / sc, same}'
