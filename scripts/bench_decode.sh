#!/usr/bin/env bash
# bench_decode.sh — what decoding costs a vq run: frames/s of FFmpeg's own decoder
# ("ffmpeg -threads N -i clip -f null -"), of vq's decode path alone (vq-decode: the same reader and
# read-ahead vq uses) and of a whole CPU run scoring PSNR of the clip against its Y4M source, for
# 1080p and 4K H.264 and HEVC clips made from ffmpeg's test sources. Prints a markdown table:
# wall-clock frames/s (best of RUNS, the commands taking turns) and, steadier on a shared machine,
# the ratio of CPU time spent (least of RUNS; above 1 means vq spent less).
#
#   scripts/bench_decode.sh [build-dir] [threads]     (defaults: build, every core)
#
# Environment: WORK (clip folder, default /tmp/vq-bench-decode; clips are kept and reused),
# RUNS (best of, default 3), FRAMES_1080 (default 120), FRAMES_4K (default 48).
# Needs an FFmpeg-enabled build (vq-decode) and the ffmpeg binary with libx264/libx265.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
threads=${2:-$(nproc)}
work=${WORK:-/tmp/vq-bench-decode}
runs=${RUNS:-3}
vq=$build/vq; [ -x "$vq" ] || vq=$build/src/vq
decode=$build/src/vq-decode
for tool in "$vq" "$decode"; do
  [ -x "$tool" ] || { echo "bench_decode: $tool not found; build vq with FFmpeg first" >&2; exit 1; }
done
command -v ffmpeg >/dev/null || { echo "bench_decode: no ffmpeg binary" >&2; exit 1; }
mkdir -p "$work"
encoders=$(ffmpeg -hide_banner -encoders 2>/dev/null)

quiet_ffmpeg() { ffmpeg -hide_banner -nostdin -loglevel error -y "$@"; }

# Test pattern with temporal noise, so that the encodes carry real residuals to decode.
make_source() {  # size frames out.y4m
  [ -s "$3" ] || quiet_ffmpeg -f lavfi -i "testsrc2=size=$1:rate=24" -frames:v "$2" \
      -vf "noise=alls=8:allf=t,format=yuv420p" "$3"
}
make_clip() {  # source.y4m encoder out
  [ -s "$3" ] && return
  case $2 in
    libx264) quiet_ffmpeg -i "$1" -c:v libx264 -preset veryfast -crf 23 "$3" ;;
    libx265) quiet_ffmpeg -i "$1" -c:v libx265 -preset ultrafast -crf 26 -x265-params log-level=error "$3" ;;
  esac
}

# One timed run: prints "wall_seconds cpu_seconds" (user + system, children included).
timed() {
  /usr/bin/time -f '%e %U %S' -o "$work/time.txt" "$@" >/dev/null 2>&1 ||
    { echo "bench_decode: failed: $*" >&2; exit 1; }
  read -r wall user sys <"$work/time.txt"
  echo "$wall $(echo "$user + $sys" | bc -l)"
}
# min of two numbers
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }
fps() { printf '%.1f' "$(echo "$1 / $2" | bc -l)"; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "Decode throughput, $threads decoder thread(s), best of $runs; $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)); load average before: $load_before"
echo "FFmpeg: $(ffmpeg -hide_banner -version | head -1 | cut -d' ' -f1-3); vq-decode and vq use the same decoder threads (--decode-threads $threads)."
echo
echo "| clip | frames | ffmpeg -f null (fps) | vq-decode (fps) | vq / ffmpeg speed | ffmpeg / vq CPU time | vq PSNR vs Y4M source, CPU (fps) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for spec in 1920x1080:${FRAMES_1080:-120} 3840x2160:${FRAMES_4K:-48}; do
  size=${spec%%:*}; frames=${spec##*:}
  source=$work/src_${size}.y4m
  make_source "$size" "$frames" "$source"
  for codec in libx264 libx265; do
    grep -q " $codec " <<<"$encoders" || continue
    ext=mp4; [ $codec = libx265 ] && ext=mkv
    clip=$work/${size}_${codec}.$ext
    make_clip "$source" $codec "$clip"
    # The three commands take turns, so that other load on the machine falls on all of them alike;
    # each keeps its best wall time and its least CPU time.
    w_ff="" c_ff="" w_vq="" c_vq="" w_psnr=""
    for _ in $(seq "$runs"); do
      read -r w c <<<"$(timed ffmpeg -hide_banner -nostdin -loglevel error -threads "$threads" -i "$clip" -f null -)"
      w_ff=$(min "$w_ff" "$w"); c_ff=$(min "$c_ff" "$c")
      read -r w c <<<"$(timed "$decode" --decode-threads "$threads" "$clip")"
      w_vq=$(min "$w_vq" "$w"); c_vq=$(min "$c_vq" "$c")
      read -r w c <<<"$(timed "$vq" -r "$source" -d "$clip" --feature psnr --decode-threads "$threads" -q -o "$work/scores.xml")"
      w_psnr=$(min "$w_psnr" "$w")
    done
    name="$size ${codec#lib}"
    echo "| $name | $frames | $(fps "$frames" "$w_ff") | $(fps "$frames" "$w_vq") | $(printf '%.2f' "$(echo "$w_ff / $w_vq" | bc -l)") | $(printf '%.2f' "$(echo "$c_ff / $c_vq" | bc -l)") | $(fps "$frames" "$w_psnr") |"
  done
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
