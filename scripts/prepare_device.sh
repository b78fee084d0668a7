#!/usr/bin/env bash
# prepare_device.sh — runs HERE, before a round on the GPU machine: builds build-cuda (Release,
# CUDA, tests) and fills the git-ignored .device/ with the binaries and what that machine (Ubuntu 24.04, no apt,
# no network) lacks: the shared libraries the binaries load that it may not have (.device/lib)
# and the test data from ../shared (.device/shared). Both folders travel with the device tool's
# carry option: carry [".device"]; then run scripts/device_round.sh there.
#
#   scripts/prepare_device.sh               build here, then pack binaries, libraries and data
#   scripts/prepare_device.sh --natural DIR  (with either form, first) also pack DIR's
#                                           natural_{ref,dist}_SIZE.seed.y4m, xz-compressed,
#                                           for device_round.sh natural
#   scripts/prepare_device.sh --build-there pack the sources' build dependencies (.device/sysroot:
#                                           headers, libraries and CMake files of Debian's fmt,
#                                           CLI11, nlohmann-json, GoogleTest, Google
#                                           Benchmark, libpng, zlib) and the
#                                           data; device_round.sh build then builds there on every
#                                           core (this machine has two)
#   scripts/prepare_device.sh --clips DIR   (with either form, first) also pack the encoded clips
#                                           of scripts/make_codec_clips.sh DIR as .device/clips,
#                                           for the GPU decoding tests and device_round.sh nvdec
#   scripts/prepare_device.sh --ffmpeg      (with either form, first) with FFmpeg: the minimal
#                                           shared FFmpeg of scripts/build_device_ffmpeg.sh
#                                           (containers, software decoders, NVDEC; built once
#                                           into build-device-ffmpeg/, which a rebuild deletes):
#                                           --build-there packs it as .device/ffmpeg, which
#                                           device_round.sh build builds against; the other form
#                                           builds against it here and packs its libraries
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${VQ_SHARED_DIR:-../shared}
natural=""
clips=""
ffmpeg=""
while true; do
  case "${1:-}" in
    --natural) natural=$(realpath "$2"); shift 2 ;;
    --clips) clips=$(realpath "$2"); shift 2 ;;
    --ffmpeg) ffmpeg=build-device-ffmpeg; shift ;;
    *) break ;;
  esac
done
# Minutes on this machine's two cores: built once, kept in the git-ignored build-device-ffmpeg/.
if [ -n "$ffmpeg" ] && [ ! -f "$ffmpeg/lib/pkgconfig/libavformat.pc" ]; then
  scripts/build_device_ffmpeg.sh "$ffmpeg"
fi

# The seed clips of natural-looking content (bench_cli.sh makes them where x264 is), compressed.
pack_natural() {
  [ -n "$natural" ] || return 0
  mkdir -p .device/bench
  for clip in "$natural"/natural_*.seed.y4m; do xz -T2 -6 -c "$clip" > ".device/bench/$(basename "$clip").xz"; done
}

# Encoded clips (the GPU machine has no encoder), as they are: they are compressed already.
pack_clips() {
  [ -n "$clips" ] || return 0
  mkdir -p .device/clips
  cp -r "$clips"/parity "$clips"/bench "$clips"/ladder .device/clips/
}

pack_data() {
  mkdir -p .device/shared
  cp -r "$shared/fixtures" "$shared/golden" "$shared/models" "$shared/spec" .device/shared/
  # The reference CLI, for timing beside vq at equal threads (device_round.sh vmaf); never a test's.
  mkdir -p .device/bin
  [ -x "$shared/tools/vmaf-ref/vmaf" ] && cp "$shared/tools/vmaf-ref/vmaf" .device/bin/vmaf-ref
  # GNU time (that machine may lack it): peak memory for device_round.sh aims.
  cp /usr/bin/time .device/bin/time
  chmod -R u+w .device
}

if [ "${1:-}" = --build-there ]; then
  rm -rf .device
  root=.device/sysroot/usr
  multiarch=lib/x86_64-linux-gnu
  mkdir -p "$root/include" "$root/$multiarch/cmake" "$root/share/cmake"
  cp -r /usr/include/{fmt,CLI,nlohmann,gtest,gmock,benchmark,libpng16} /usr/include/{png.h,pngconf.h,pnglibconf.h,zlib.h,zconf.h} \
    "$root/include/"
  # Regular files under the names the CMake files and the binaries use (Debian's libz.so points
  # to an absolute path that the GPU machine does not have).
  cp -L /usr/$multiarch/{libfmt.so.9.1.0,libpng16.so.16,libz.so.1,libgtest*.a,libgmock*.a} "$root/$multiarch/"
  cp -L /usr/$multiarch/{libbenchmark.so.1.7.1,libbenchmark_main.a} "$root/$multiarch/"
  ln -s libfmt.so.9.1.0 "$root/$multiarch/libfmt.so.9"
  ln -s libbenchmark.so.1.7.1 "$root/$multiarch/libbenchmark.so.1debian"
  for library in libfmt.so.9 libpng16.so.16 libz.so.1; do ln -s "$library" "$root/$multiarch/${library%.*}"; done
  cp -r /usr/$multiarch/cmake/{fmt,GTest,benchmark} "$root/$multiarch/cmake/"
  cp -r /usr/share/cmake/{CLI11,nlohmann_json} "$root/share/cmake/"
  [ -n "$ffmpeg" ] && cp -a "$ffmpeg" .device/ffmpeg
  pack_data
  pack_natural
  pack_clips
  echo "carry: .device $(du -sh .device | cut -f1) (limit 64 MiB with the tree)"
  exit 0
fi

# FFmpeg off unless --ffmpeg: the GPU machine has no FFmpeg libraries, and Debian's, with all
# their codecs, would not fit the transfer limit.
launchers=()
command -v ccache > /dev/null && launchers=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
with_ffmpeg=(-DVQ_FFMPEG=OFF)
targets=(vq vq-synth vq_tests vq-read-floor vq_bench)
if [ -n "$ffmpeg" ]; then
  # Only the minimal FFmpeg's pkg-config files, not this machine's; found again on every configure.
  with_ffmpeg=(-DVQ_FFMPEG=ON -U"*VQ_FFMPEG_LIBS*")
  export PKG_CONFIG_LIBDIR=$PWD/$ffmpeg/lib/pkgconfig
  targets+=(vq-decode)
fi
cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DVQ_CUDA=ON -DVQ_TESTS=ON -DVQ_BENCH=ON \
  "${with_ffmpeg[@]}" "${launchers[@]}"
cmake --build build-cuda -j2 --target "${targets[@]}"

rm -rf .device
mkdir -p .device/bin .device/lib .device/shared
cp build-cuda/vq build-cuda/vq-synth build-cuda/tests/vq_tests build-cuda/bench/vq-read-floor \
   build-cuda/bench/vq_bench .device/bin/
# vq loads the FFmpeg module from beside itself; the ldd below packs the FFmpeg libraries.
[ -n "$ffmpeg" ] && cp build-cuda/libvq_ffmpeg.so build-cuda/src/vq-decode .device/bin/
strip .device/bin/*
# Every library the binaries load except the C and C++ runtimes, which Ubuntu 24.04 has in newer,
# backward-compatible versions.
ldd .device/bin/* |
  awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
  while read -r library; do cp -L "$library" .device/lib/; done
pack_data
pack_natural
pack_clips

echo "carry: .device $(du -sh .device | cut -f1) (limit 64 MiB with the tree)"
ls .device/lib
