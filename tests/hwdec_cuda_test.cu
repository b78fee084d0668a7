// Decoding on the GPU (--hwdec): the unpacking kernel on synthetic NV12, P010, P016 and planar
// 4:4:4 surfaces (padded rows, junk below a 16-bit surface's sample bits). The decoders themselves:
// hwdec_decode_test.cpp.
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "cuda/surface_unpack.hpp"
#include "cuda_test_support.hpp"

namespace vq::test {
namespace {

struct UnpackCase {
    const char* name;
    VideoFormat format;
    bool interleaved_chroma;
    int surface_bytes;  // per sample: 1 (NV12, yuv444p) or 2 (P010, P016, yuv444p16)
};

void PrintTo(const UnpackCase& c, std::ostream* out) { *out << c.name; }

class HwdecSurfaceUnpack : public testing::TestWithParam<UnpackCase> {};

// A surface laid out as the decoder leaves it, built on the host from a known picture: rows padded
// to a pitch, chroma interleaved or planar, 16-bit samples in the high bits over junk low bits.
TEST_P(HwdecSurfaceUnpack, GivesThePlanarPicture) {
    VQ_REQUIRE_CUDA();
    const UnpackCase c = GetParam();
    const VideoFormat& format = c.format;
    const int shift = c.surface_bytes == 2 ? 16 - format.bit_depth : 0;
    std::mt19937 random(7);
    Picture expected = Picture::allocate(format);
    for (int p = 0; p < format.plane_count(); ++p)
        for (std::size_t i = 0; i < format.plane_bytes(p) / format.bytes_per_sample(); ++i) {
            const unsigned value = random() & ((1u << format.bit_depth) - 1);
            if (format.bytes_per_sample() == 2)
                expected.plane_data<std::uint16_t>(p)[i] = std::uint16_t(value);
            else
                expected.plane_data<std::uint8_t>(p)[i] = std::uint8_t(value);
        }
    const auto sample = [&](int p, int x, int y) -> unsigned {
        const std::size_t i = std::size_t(y) * format.plane_width(p) + x;
        return format.bytes_per_sample() == 2 ? expected.plane_data<std::uint16_t>(p)[i]
                                              : expected.plane_data<std::uint8_t>(p)[i];
    };

    const int surface_planes = c.interleaved_chroma ? 2 : 3;
    std::vector<std::vector<std::byte>> host(surface_planes);
    std::vector<cuda::DeviceBuffer> device;
    DeviceSurface surface;
    surface.interleaved_chroma = c.interleaved_chroma;
    surface.shift = shift;
    for (int s = 0; s < surface_planes; ++s) {
        const int per_row = c.interleaved_chroma && s == 1 ? 2 : 1;  // samples per pixel
        const int width = format.plane_width(s), height = format.plane_height(s);
        const std::size_t pitch = std::size_t(width) * per_row * c.surface_bytes + 64;
        host[s].assign(pitch * height, std::byte{0xab});
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                for (int k = 0; k < per_row; ++k) {
                    const unsigned value = sample(s + k, x, y);
                    std::byte* at = host[s].data() + y * pitch +
                                    (std::size_t(x) * per_row + k) * c.surface_bytes;
                    if (c.surface_bytes == 2) {
                        const auto word =
                            std::uint16_t((value << shift) | (random() & ((1u << shift) - 1)));
                        std::memcpy(at, &word, 2);
                    } else {
                        *at = std::byte(value);
                    }
                }
        device.push_back(cuda::to_device(std::span<const std::byte>(host[s])));
        surface.planes[s] = device.back().data();
        surface.pitches[s] = pitch;
    }

    cuda::DeviceBuffer picture(format.frame_bytes());
    cuda::Stream stream;
    cuda::unpack_surface(surface, format, picture.data(), stream.get());
    stream.synchronize();
    const std::vector<std::byte> unpacked = cuda::to_host(picture.data(), picture.size());
    EXPECT_EQ(std::memcmp(unpacked.data(), expected.data(), format.frame_bytes()), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, HwdecSurfaceUnpack,
    testing::Values(UnpackCase{"nv12_odd", {67, 35, 8, ChromaFormat::yuv420}, true, 1},
                    UnpackCase{"p010", {64, 36, 10, ChromaFormat::yuv420}, true, 2},
                    UnpackCase{"p016_12bit", {66, 34, 12, ChromaFormat::yuv420}, true, 2},
                    UnpackCase{"yuv444p", {48, 32, 8, ChromaFormat::yuv444}, false, 1},
                    UnpackCase{"yuv444p16_10bit", {48, 32, 10, ChromaFormat::yuv444}, false, 2}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace vq::test
