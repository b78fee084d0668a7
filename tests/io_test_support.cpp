#include "io_test_support.hpp"

#include <fstream>

#include <gtest/gtest.h>

namespace vq::test {

unsigned sample_value(int frame, int plane, std::size_t index, int bit_depth) {
    return unsigned(frame * 4099 + plane * 1297 + index * 1031 + 7) & ((1u << bit_depth) - 1);
}

std::string frame_bytes(const VideoFormat& format, int frame) {
    std::string bytes;
    for (int p = 0; p < format.plane_count(); ++p) {
        const std::size_t count = std::size_t(format.plane_width(p)) * format.plane_height(p);
        for (std::size_t i = 0; i < count; ++i) {
            const unsigned v = sample_value(frame, p, i, format.bit_depth);
            bytes += char(v & 0xff);
            if (format.bit_depth > 8) bytes += char(v >> 8);
        }
    }
    return bytes;
}

std::string y4m_file(const std::string& header, const VideoFormat& format, int frames) {
    std::string bytes = header + "\n";
    for (int f = 0; f < frames; ++f) bytes += "FRAME\n" + frame_bytes(format, f);
    return bytes;
}

std::filesystem::path write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string error_of(const std::function<void()>& action, ErrorKind kind) {
    try {
        action();
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), kind);
        return error.what();
    }
    ADD_FAILURE() << "no vq::Error thrown";
    return {};
}

std::filesystem::path write_synthetic_y4m(const std::filesystem::path& path,
                                          const VideoFormat& format, SyntheticScene scene,
                                          bool distorted, int frames) {
    std::string bytes = "YUV4MPEG2 W" + std::to_string(format.width) + " H" +
                        std::to_string(format.height) + " F25:1 Ip C420\n";
    for (int i = 0; i < frames; ++i) {
        const Picture picture = make_synthetic_frame(format, scene, i, distorted);
        bytes += "FRAME\n";
        bytes.append(reinterpret_cast<const char*>(picture.data()), picture.size_bytes());
    }
    return write_file(path, bytes);
}

}  // namespace vq::test
