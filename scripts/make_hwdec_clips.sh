#!/usr/bin/env bash
# make_hwdec_clips.sh — the small clips the GPU-decoding tests (tests/hwdec_*_test.*) decode on the
# GPU and on the CPU: one per codec NVDEC decodes here, and one NVDEC cannot decode (H.264 4:4:4),
# with the Y4M references they were encoded from. The tests run it themselves where the ffmpeg
# binary is; for a machine without one (the GPU machine), run it here and point VQ_HWDEC_CLIPS at
# DIR there (device rounds: DIR under .device/, carried).
#
#   scripts/make_hwdec_clips.sh DIR
set -euo pipefail
dir=${1:?usage: make_hwdec_clips.sh DIR}
mkdir -p "$dir"
ff=(ffmpeg -hide_banner -nostdin -loglevel error -y)
# 256x144: above every NVDEC codec's minimum size; 12 frames with B-frames where the codec has them.
source=(-f lavfi -i "testsrc2=size=256x144:rate=25" -frames:v 12)
"${ff[@]}" "${source[@]}" -pix_fmt yuv420p "$dir/ref_8b.y4m"
"${ff[@]}" "${source[@]}" -pix_fmt yuv420p10le -strict -1 "$dir/ref_10b.y4m"
"${ff[@]}" "${source[@]}" -pix_fmt yuv444p "$dir/ref_444.y4m"
"${ff[@]}" -i "$dir/ref_8b.y4m" -c:v libx264 -crf 30 -bf 2 "$dir/h264_8b.mp4"
"${ff[@]}" -i "$dir/ref_10b.y4m" -c:v libx265 -crf 30 -x265-params log-level=none \
  -pix_fmt yuv420p10le "$dir/hevc_10b.mp4"
"${ff[@]}" -i "$dir/ref_8b.y4m" -c:v libvpx-vp9 -crf 40 -b:v 0 -deadline realtime "$dir/vp9_8b.webm"
"${ff[@]}" -i "$dir/ref_8b.y4m" -c:v libaom-av1 -crf 40 -cpu-used 8 "$dir/av1_8b.mkv"
"${ff[@]}" -i "$dir/ref_444.y4m" -c:v libx264 -crf 30 -pix_fmt yuv444p "$dir/h264_444.mp4"
