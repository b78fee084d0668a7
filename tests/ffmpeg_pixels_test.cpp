// ffmpeg_pixels: formats FFmpeg decoders output but containers cannot carry as raw video (p010,
// p016, nv24, ayuv64 ...), packed here by hand from a known planar picture and unpacked by vq.
#if VQ_WITH_FFMPEG

#include <cstdint>
#include <cstring>
#include <functional>

#include <gtest/gtest.h>

extern "C" {
#include <libavutil/frame.h>
}

#include "io/ffmpeg_pixels.hpp"
#include "io/ffmpeg_util.hpp"

namespace vq {
namespace {

using Packer = std::function<void(const Picture&, AVFrame&)>;

// A picture whose every sample differs from its neighbours and uses the top bits of its depth.
Picture pattern(const VideoFormat& format) {
    Picture picture = Picture::allocate(format);
    const unsigned top = (1u << format.bit_depth) - 1;
    for (int c = 0; c < format.plane_count(); ++c)
        for (int i = 0; i < format.plane_width(c) * format.plane_height(c); ++i) {
            const unsigned value = (unsigned(i) * 2654435761u + unsigned(c) * 977u) % (top + 1);
            if (format.bit_depth > 8)
                picture.plane_data<std::uint16_t>(c)[i] = std::uint16_t(value);
            else
                picture.plane_data<std::uint8_t>(c)[i] = std::uint8_t(value);
        }
    return picture;
}

unsigned sample(const Picture& p, int c, int x, int y) {
    const std::size_t i = std::size_t(y) * std::size_t(p.format().plane_width(c)) + std::size_t(x);
    if (p.format().bit_depth > 8) return p.plane<std::uint16_t>(c).data[i];
    return p.plane<std::uint8_t>(c).data[i];
}

void put16le(std::uint8_t* at, unsigned value) {
    at[0] = std::uint8_t(value & 0xff);
    at[1] = std::uint8_t(value >> 8);
}

void check(AVPixelFormat stored, const VideoFormat& format, const Packer& pack) {
    std::string why;
    const auto mapped = ffmpeg::picture_format(stored, format.width, format.height, why);
    ASSERT_TRUE(mapped) << why;
    ASSERT_EQ(*mapped, format) << ffmpeg::pixel_format_name(stored);
    const Picture original = pattern(format);
    ffmpeg::FramePtr frame = ffmpeg::make_frame();
    frame->format = stored;
    frame->width = format.width;
    frame->height = format.height;
    ASSERT_GE(av_frame_get_buffer(frame.get(), 0), 0);
    pack(original, *frame);
    Picture unpacked = Picture::allocate(format);
    ffmpeg::copy_frame(*frame, unpacked);
    EXPECT_EQ(std::memcmp(unpacked.data(), original.data(), original.size_bytes()), 0)
        << ffmpeg::pixel_format_name(stored);
}

// Semi-planar: Y plane, then one plane of interleaved Cb Cr; 16-bit samples kept `shift` bits up.
Packer semi_planar(int bytes, int shift) {
    return [=](const Picture& p, AVFrame& f) {
        const VideoFormat& v = p.format();
        for (int y = 0; y < v.height; ++y)
            for (int x = 0; x < v.width; ++x) {
                std::uint8_t* at = f.data[0] + y * f.linesize[0] + x * bytes;
                if (bytes == 2)
                    put16le(at, sample(p, 0, x, y) << shift);
                else
                    *at = std::uint8_t(sample(p, 0, x, y));
            }
        for (int y = 0; y < v.plane_height(1); ++y)
            for (int x = 0; x < v.plane_width(1); ++x)
                for (int c = 1; c <= 2; ++c) {
                    std::uint8_t* at = f.data[1] + y * f.linesize[1] + (2 * x + c - 1) * bytes;
                    if (bytes == 2)
                        put16le(at, sample(p, c, x, y) << shift);
                    else
                        *at = std::uint8_t(sample(p, c, x, y));
                }
    };
}

TEST(FfmpegPixels, SemiPlanarFormats) {
    check(AV_PIX_FMT_NV12, {37, 23, 8, ChromaFormat::yuv420}, semi_planar(1, 0));
    check(AV_PIX_FMT_NV16, {37, 23, 8, ChromaFormat::yuv422}, semi_planar(1, 0));
    check(AV_PIX_FMT_NV24, {37, 23, 8, ChromaFormat::yuv444}, semi_planar(1, 0));
    check(AV_PIX_FMT_P010LE, {37, 23, 10, ChromaFormat::yuv420}, semi_planar(2, 6));
    check(AV_PIX_FMT_P016LE, {37, 23, 16, ChromaFormat::yuv420}, semi_planar(2, 0));
    check(AV_PIX_FMT_P210LE, {37, 23, 10, ChromaFormat::yuv422}, semi_planar(2, 6));
    check(AV_PIX_FMT_P416LE, {37, 23, 16, ChromaFormat::yuv444}, semi_planar(2, 0));
}

TEST(FfmpegPixels, PackedFormats) {
    // ayuv64le: per pixel A, Y, U, V as 16-bit words; alpha is dropped.
    check(AV_PIX_FMT_AYUV64LE, {37, 23, 16, ChromaFormat::yuv444},
          [](const Picture& p, AVFrame& f) {
              for (int y = 0; y < p.format().height; ++y)
                  for (int x = 0; x < p.format().width; ++x) {
                      std::uint8_t* at = f.data[0] + y * f.linesize[0] + x * 8;
                      put16le(at, 0xffff);
                      for (int c = 0; c < 3; ++c) put16le(at + 2 + 2 * c, sample(p, c, x, y));
                  }
          });
    // y210le: Y0 U Y1 V as 16-bit words, 10 bits kept high; an odd width has a last pair half used.
    check(AV_PIX_FMT_Y210LE, {37, 23, 10, ChromaFormat::yuv422}, [](const Picture& p, AVFrame& f) {
        for (int y = 0; y < p.format().height; ++y)
            for (int x = 0; x < p.format().width; ++x) {
                std::uint8_t* at = f.data[0] + y * f.linesize[0] + (x / 2) * 8;
                put16le(at + (x % 2) * 4, sample(p, 0, x, y) << 6);
                if (x % 2 == 0) {
                    put16le(at + 2, sample(p, 1, x / 2, y) << 6);
                    put16le(at + 6, sample(p, 2, x / 2, y) << 6);
                }
            }
    });
}

TEST(FfmpegPixels, PlanarFormatsAndGrayWithAlpha) {
    const auto planar = [](const Picture& p, AVFrame& f) {
        const VideoFormat& v = p.format();
        for (int c = 0; c < v.plane_count(); ++c)
            for (int y = 0; y < v.plane_height(c); ++y)
                std::memcpy(f.data[c] + y * f.linesize[c],
                            p.data() + v.plane_offset(c) +
                                std::size_t(y) * v.plane_width(c) * v.bytes_per_sample(),
                            std::size_t(v.plane_width(c)) * v.bytes_per_sample());
    };
    check(AV_PIX_FMT_YUV420P, {37, 23, 8, ChromaFormat::yuv420}, planar);
    check(AV_PIX_FMT_YUVJ422P, {37, 23, 8, ChromaFormat::yuv422}, planar);
    check(AV_PIX_FMT_YUV444P12LE, {37, 23, 12, ChromaFormat::yuv444}, planar);
    check(AV_PIX_FMT_YUVA420P, {37, 23, 8, ChromaFormat::yuv420}, planar);  // alpha plane 3 ignored
    check(AV_PIX_FMT_GRAY12LE, {37, 23, 12, ChromaFormat::yuv400}, planar);
    check(AV_PIX_FMT_YA8, {37, 23, 8, ChromaFormat::yuv400}, [](const Picture& p, AVFrame& f) {
        for (int y = 0; y < p.format().height; ++y)
            for (int x = 0; x < p.format().width; ++x) {
                f.data[0][y * f.linesize[0] + 2 * x] = std::uint8_t(sample(p, 0, x, y));
                f.data[0][y * f.linesize[0] + 2 * x + 1] = 0x80;
            }
    });
}

TEST(FfmpegPixels, RefusesWhatIsNotExactlyYCbCr) {
    for (const AVPixelFormat format :
         {AV_PIX_FMT_RGB24, AV_PIX_FMT_GBRP10LE, AV_PIX_FMT_PAL8, AV_PIX_FMT_YUV411P,
          AV_PIX_FMT_YUV410P, AV_PIX_FMT_YUV440P, AV_PIX_FMT_MONOBLACK, AV_PIX_FMT_GRAYF32LE,
          AV_PIX_FMT_BAYER_RGGB8, AV_PIX_FMT_XYZ12LE, AV_PIX_FMT_VAAPI, AV_PIX_FMT_UYYVYY411}) {
        std::string why;
        EXPECT_FALSE(ffmpeg::picture_format(format, 64, 48, why))
            << ffmpeg::pixel_format_name(format);
        EXPECT_NE(why.find(ffmpeg::pixel_format_name(format)), std::string::npos) << why;
    }
}

TEST(FfmpegPixels, PlanarFormatForScaling) {
    EXPECT_EQ(ffmpeg::planar_pixel_format({8, 8, 8, ChromaFormat::yuv420}), AV_PIX_FMT_YUV420P);
    EXPECT_EQ(ffmpeg::planar_pixel_format({8, 8, 10, ChromaFormat::yuv422}),
              AV_PIX_FMT_YUV422P10LE);
    EXPECT_EQ(ffmpeg::planar_pixel_format({8, 8, 16, ChromaFormat::yuv400}), AV_PIX_FMT_GRAY16LE);
    EXPECT_EQ(ffmpeg::planar_pixel_format({8, 8, 11, ChromaFormat::yuv444}), AV_PIX_FMT_NONE);
}

}  // namespace
}  // namespace vq

#endif  // VQ_WITH_FFMPEG
