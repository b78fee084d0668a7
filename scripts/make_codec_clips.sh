#!/usr/bin/env bash
# make_codec_clips.sh — encodes the clips that GPU decoding is checked and timed on, for the GPU
# machine, which has no encoder (prepare_device.sh --clips DIR packs them as .device/clips):
#
#   parity/  small clips (576x324, 24 frames of ffmpeg's testsrc2 with temporal noise), one per
#            codec and bit depth NVDEC decodes (H.264 8-bit, HEVC 8 and 10-bit, VP9 8 and 10-bit,
#            AV1 8 and 10-bit), plus H.264 4:4:4, which NVDEC cannot decode (the CPU fallback);
#            a keyframe every 8 frames (HEVC's open GOPs), so that GPU decoding splits each clip
#            into chunks for several decoders (src/io/ffmpeg_chunks.hpp)
#   bench/   a 4K HEVC 10-bit reference and distorted clip of 200 frames (CRF 29 and 34, a fixed
#            noise pattern, a closed GOP every 48 frames as a streaming encode's 2-second
#            segments have), the end-to-end figure of issue 24
#   long/    bench/'s pair three times over (ref_600.mp4, dist_600.mp4: 600 frames, copied, not
#            re-encoded), long enough that a GPU run decodes each input with three NVDEC sessions
#            by default. prepare_device.sh does not pack it (46 MB: with the rest, more than one
#            device call carries); copy it to .device/long and carry that with .device/bin,
#            .device/sysroot and .device/ffmpeg instead of .device
#   ladder/  a 4K H.264 reference (CRF 20, 48 frames) and six 4K encodes of it (H.264 CRF 26 and
#            34, HEVC CRF 30 and 38, AV1 CRF 40 and 52): issue 22's codec comparison on the GPU
#
#   scripts/make_codec_clips.sh DEST [--no-bench]      (--no-bench: parity/ alone)
#
# Needs the ffmpeg binary with libx264, libx265, libvpx-vp9 and libsvtav1 (Debian's has them).
# Existing clips are kept.
set -euo pipefail
dest=${1:?usage: make_codec_clips.sh DEST [--no-bench]}
bench=yes; [ "${2:-}" = --no-bench ] && bench=no
mkdir -p "$dest/parity" "$dest/bench" "$dest/long" "$dest/ladder"

# The noise: temporal on the small clips, so that every frame carries residuals; a fixed pattern
# on the 4K clips, which keeps them small enough to carry to the GPU machine (11 and 4 MB).
noise=alls=8:allf=t+u
encode() {  # out testsrc2-size frames ffmpeg-output-options...
  local out=$1 size=$2 frames=$3; shift 3
  [ -s "$out" ] && return
  SVT_LOG=1 ffmpeg -hide_banner -nostdin -loglevel error -y \
    -f lavfi -i "testsrc2=size=$size:rate=24,noise=$noise" -frames:v "$frames" "$@" "$out.part.${out##*.}"
  mv "$out.part.${out##*.}" "$out"
}

small=576x324
parity=$dest/parity
gop=8
encode "$parity/h264_8bit.mp4" $small 24 -pix_fmt yuv420p -c:v libx264 -preset veryfast -crf 28 -bf 3 -g $gop
encode "$parity/h264_444.mp4" $small 24 -pix_fmt yuv444p -c:v libx264 -preset veryfast -crf 28 -g $gop
x265_gop=keyint=$gop:min-keyint=$gop:open-gop=1:bframes=3:log-level=error
encode "$parity/hevc_8bit.mkv" $small 24 -pix_fmt yuv420p -c:v libx265 -preset ultrafast -x265-params crf=28:$x265_gop
encode "$parity/hevc_10bit.mkv" $small 24 -pix_fmt yuv420p10le -c:v libx265 -preset ultrafast -x265-params crf=28:$x265_gop
encode "$parity/vp9_8bit.webm" $small 24 -pix_fmt yuv420p -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -crf 35 -b:v 0 -g $gop
encode "$parity/vp9_10bit.webm" $small 24 -pix_fmt yuv420p10le -c:v libvpx-vp9 -profile:v 2 -deadline realtime -cpu-used 8 -crf 35 -b:v 0 -g $gop
encode "$parity/av1_8bit.mkv" $small 24 -pix_fmt yuv420p -c:v libsvtav1 -preset 12 -crf 40 -g $gop
encode "$parity/av1_10bit.mkv" $small 24 -pix_fmt yuv420p10le -c:v libsvtav1 -preset 12 -crf 40 -g $gop

if [ $bench = yes ]; then
  noise=alls=6:allf=u
  hevc10=(-pix_fmt yuv420p10le -c:v libx265 -preset ultrafast)
  segments=keyint=48:min-keyint=48:open-gop=0:log-level=error
  encode "$dest/bench/ref_3840x2160_hevc10.mp4" 3840x2160 200 "${hevc10[@]}" -x265-params crf=29:$segments
  encode "$dest/bench/dist_3840x2160_hevc10.mp4" 3840x2160 200 "${hevc10[@]}" -x265-params crf=34:$segments
  for role in ref dist; do
    long=$dest/long/${role}_600.mp4 part=$dest/bench/${role}_3840x2160_hevc10.mp4
    [ -s "$long" ] || ffmpeg -hide_banner -nostdin -loglevel error -y -f concat -safe 0 \
      -i <(for _ in 1 2 3; do echo "file '$(realpath "$part")'"; done) -c copy "$long"
  done
  ladder=$dest/ladder
  encode "$ladder/ref.mp4" 3840x2160 48 -pix_fmt yuv420p -c:v libx264 -preset veryfast -crf 20
  rung() {  # name ffmpeg-output-options...
    local out=$ladder/$1; shift
    [ -s "$out" ] || ffmpeg -hide_banner -nostdin -loglevel error -y -i "$ladder/ref.mp4" "$@" "$out"
  }
  rung h264_crf26.mp4 -c:v libx264 -preset veryfast -crf 26
  rung h264_crf34.mp4 -c:v libx264 -preset veryfast -crf 34
  rung hevc_crf30.mp4 -c:v libx265 -preset ultrafast -x265-params crf=30:log-level=error
  rung hevc_crf38.mp4 -c:v libx265 -preset ultrafast -x265-params crf=38:log-level=error
  SVT_LOG=1 rung av1_crf40.mkv -c:v libsvtav1 -preset 12 -crf 40
  SVT_LOG=1 rung av1_crf52.mkv -c:v libsvtav1 -preset 12 -crf 52
fi
ls -la "$dest"/*
