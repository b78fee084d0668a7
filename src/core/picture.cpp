#include "vq/picture.hpp"

#include <fmt/format.h>
#include <ostream>

#include "vq/error.hpp"

namespace vq {

std::string to_string(ChromaFormat format) {
    switch (format) {
    case ChromaFormat::yuv420: return "4:2:0";
    case ChromaFormat::yuv422: return "4:2:2";
    case ChromaFormat::yuv444: return "4:4:4";
    case ChromaFormat::yuv400: return "4:0:0";
    }
    return "?";
}

int VideoFormat::plane_width(int plane) const {
    if (plane == 0) return width;
    if (chroma == ChromaFormat::yuv400) return 0;
    return chroma == ChromaFormat::yuv444 ? width : (width + 1) / 2;
}

int VideoFormat::plane_height(int plane) const {
    if (plane == 0) return height;
    if (chroma == ChromaFormat::yuv400) return 0;
    return chroma == ChromaFormat::yuv420 ? (height + 1) / 2 : height;
}

std::size_t VideoFormat::plane_bytes(int plane) const {
    return std::size_t(plane_width(plane)) * std::size_t(plane_height(plane)) * bytes_per_sample();
}

std::size_t VideoFormat::plane_offset(int plane) const {
    std::size_t offset = 0;
    for (int p = 0; p < plane; ++p) offset += plane_bytes(p);
    return offset;
}

std::size_t VideoFormat::frame_bytes() const { return plane_offset(plane_count()); }

void validate(const VideoFormat& format) {
    if (format.width <= 0 || format.height <= 0 || format.width > max_dimension ||
        format.height > max_dimension)
        throw usage_error(fmt::format("unsupported picture size {}x{} (each side must be 1..{})",
                                      format.width, format.height, max_dimension));
    if (format.bit_depth < 8 || format.bit_depth > 16)
        throw usage_error(
            fmt::format("unsupported bit depth {} (must be 8..16)", format.bit_depth));
}

std::string describe(const VideoFormat& format) {
    return fmt::format("{}x{} {}-bit {}", format.width, format.height, format.bit_depth,
                       to_string(format.chroma));
}

std::ostream& operator<<(std::ostream& out, const VideoFormat& format) {
    return out << describe(format);
}

Picture::Picture(const VideoFormat& format, FrameBuffer buffer, Residence residence)
    : format_(format), buffer_(std::move(buffer)), residence_(residence) {}

Picture Picture::allocate(const VideoFormat& format) {
    return Picture(format, FrameBuffer(new std::byte[format.frame_bytes()]()));
}

}  // namespace vq
