#!/usr/bin/env bash
# build_device_ffmpeg.sh — runs HERE (Debian bookworm, root): builds the minimal shared FFmpeg that
# the GPU machine lacks (it has no FFmpeg, no apt and no network) from Debian's source package, and
# installs it into DEST (default .device/ffmpeg), which travels with carry [".device"]. Called by
# scripts/prepare_device.sh --ffmpeg; scripts/device_round.sh build then builds vq with FFmpeg
# (-DVQ_FFMPEG=ON) against it.
#
#   scripts/build_device_ffmpeg.sh [DEST]
#
# Only what vq reads and the comparison of NVDEC with the CPU decode needs, to fit the transfer
# limit: libavformat, libavcodec, libavutil and libswscale (what src/io/ffmpeg_*.cpp calls); the
# demuxers of MP4/MOV, Matroska/WebM, IVF, Y4M, raw video, raw H.264/HEVC/AV1 and, for the tests'
# clips, NUT, AVI and MPEG video; the software decoders H.264, HEVC, VP9, AV1 (libdav1d: FFmpeg's
# own AV1 decoder decodes only through a hwaccel), raw video, FFV1, MPEG-2 and MPEG-4 part 2; the
# NVDEC hwaccels of H.264, HEVC, VP9 and AV1 (libcuda.so.1 and libnvcuvid.so.1 come with the
# driver, loaded at run time); the parsers and bitstream filters those select. Generic x86-64 code
# (the GPU machine's CPU is not this one's), with FFmpeg's run-time SIMD dispatch.
# DEST gets lib/ (stripped libraries, with Debian's libdav1d, which Ubuntu 24.04 ships under
# another soname if at all), include/, lib/pkgconfig/ (relocatable: prefix=${pcfiledir}/../..)
# and bin/pkg-config (Debian's pkgconf, for a machine without pkg-config; its library in lib/).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=$(realpath -m "${1:-.device/ffmpeg}")
work=$(mktemp -d "${TMPDIR:-/tmp}/vq-device-ffmpeg.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Debian's source package needs a deb-src entry; nasm assembles FFmpeg's SIMD code, the NVDEC
# headers (nv-codec-headers, which load the driver's libraries at run time) come in
# libffmpeg-nvenc-dev.
if ! apt-cache showsrc ffmpeg 2> /dev/null | grep '^Version: 7:5\.1' > /dev/null; then
  cat > /etc/apt/sources.list.d/vq-deb-src.sources << 'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nasm pkgconf libffmpeg-nvenc-dev libdav1d-dev > /dev/null
(cd "$work" && apt-get source -qq ffmpeg > /dev/null 2>&1)
source_dir=$(find "$work" -maxdepth 1 -type d -name 'ffmpeg-*' | head -1)

list() { local IFS=,; echo "$*"; }
demuxers=(mov matroska ivf yuv4mpegpipe rawvideo h264 hevc obu nut avi mpegvideo)
parsers=(h264 hevc vp9 av1 mpegvideo mpeg4video)
decoders=(h264 hevc vp9 av1 libdav1d rawvideo ffv1 mpeg2video mpeg4)
hwaccels=(h264_nvdec hevc_nvdec vp9_nvdec av1_nvdec)
configure=(--prefix=/usr/local --disable-everything --disable-autodetect --disable-programs --disable-doc
           --disable-debug --enable-shared --disable-static --disable-avdevice --disable-avfilter
           --disable-swresample --disable-postproc --disable-network --enable-protocol=file
           --enable-demuxer="$(list "${demuxers[@]}")" --enable-parser="$(list "${parsers[@]}")"
           --enable-decoder="$(list "${decoders[@]}")" --enable-hwaccel="$(list "${hwaccels[@]}")"
           --enable-ffnvcodec --enable-cuda --enable-nvdec --enable-libdav1d --enable-zlib)
echo "configure ${configure[*]}"
start=$SECONDS
if ! (cd "$source_dir" && ./configure "${configure[@]}" && make -j"$(nproc)" &&
      make install DESTDIR="$work/stage") > "$work/build.log" 2>&1; then
  tail -40 "$work/build.log" >&2
  exit 1
fi
echo "built in $((SECONDS - start)) s"

rm -rf "$dest"
mkdir -p "$dest/lib/pkgconfig" "$dest/bin"
cp -a "$work/stage/usr/local/include" "$dest/"
cp -a "$work/stage/usr/local/lib"/*.so* "$dest/lib/"
strip --strip-unneeded "$dest"/lib/*.so.*.*
sed -i -e 's|^prefix=.*|prefix=${pcfiledir}/../..|' -e 's|^libdir=.*|libdir=${prefix}/lib|' \
  -e 's|^includedir=.*|includedir=${prefix}/include|' "$work/stage/usr/local/lib/pkgconfig"/*.pc
cp "$work/stage/usr/local/lib/pkgconfig"/*.pc "$dest/lib/pkgconfig/"
multiarch=/usr/lib/x86_64-linux-gnu
cp -L "$multiarch/libdav1d.so.6" "$multiarch/libpkgconf.so.3" "$dest/lib/"
cp /usr/bin/pkgconf "$dest/bin/pkg-config"
strip --strip-unneeded "$dest/lib/libdav1d.so.6" "$dest/lib/libpkgconf.so.3" "$dest/bin/pkg-config"
# The NVDEC hwaccels compiled in: each decoder takes a CUDA device (this machine has no GPU to
# open one, so only their presence is checked).
cat > "$work/hwaccels.c" << 'EOF'
#include <stdio.h>
#include <libavcodec/avcodec.h>
int main(void) {
    const char* names[] = {"h264", "hevc", "vp9", "av1"};
    int missing = 0;
    for (int n = 0; n < 4; ++n) {
        const AVCodec* decoder = avcodec_find_decoder_by_name(names[n]);
        const AVCodecHWConfig* config = NULL;
        for (int i = 0; decoder && (config = avcodec_get_hw_config(decoder, i)); ++i)
            if (config->device_type == AV_HWDEVICE_TYPE_CUDA &&
                (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
                break;
        printf("%s: %s\n", names[n], config ? "nvdec" : "NO nvdec");
        missing += !config;
    }
    printf("AV1 on the CPU: %s\n", avcodec_find_decoder(AV_CODEC_ID_AV1)->name);
    return missing;
}
EOF
cc "$work/hwaccels.c" -o "$work/hwaccels" -I"$dest/include" -L"$dest/lib" -lavcodec
LD_LIBRARY_PATH=$dest/lib "$work/hwaccels"
echo "FFmpeg $(cat "$source_dir/VERSION" 2> /dev/null || basename "$source_dir"), nv-codec-headers" \
  "$(dpkg-query -W -f '${Version}' libffmpeg-nvenc-dev), libdav1d $(dpkg-query -W -f '${Version}' libdav1d-dev)" \
  > "$dest/VERSIONS"
cat "$dest/VERSIONS"
echo "$dest: $(du -sh "$dest" | cut -f1) ($(du -sh "$dest/lib" | cut -f1) libraries)"
