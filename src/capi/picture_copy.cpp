#include "picture_copy.hpp"

#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace vq::capi {

Picture copy_picture(const vq_picture& picture, const char* name, const VideoFormat& format,
                     const BufferAllocator& allocate, const Call& call) {
    for (int p = 0; p < format.plane_count(); ++p) {
        call.require(picture.data[p] != nullptr, fmt::format("{}->data[{}] is NULL", name, p));
        const std::size_t row_bytes = format.plane_width(p) * format.bytes_per_sample();
        call.require(picture.stride[p] >= static_cast<std::ptrdiff_t>(row_bytes),
                     fmt::format("{}->stride[{}] is {} bytes, less than a row of plane {} ({} "
                                 "samples of {} bytes)",
                                 name, p, picture.stride[p], p, format.plane_width(p),
                                 format.bytes_per_sample()));
    }
    // The session's allocator (pinned memory for CUDA), or ordinary memory when it has none.
    const std::size_t bytes = format.frame_bytes();
    Picture copy(format, allocate ? allocate(bytes) : std::make_shared_for_overwrite<std::byte[]>(bytes));
    for (int p = 0; p < format.plane_count(); ++p) {
        const std::size_t row_bytes = format.plane_width(p) * format.bytes_per_sample();
        const auto* source = static_cast<const std::byte*>(picture.data[p]);
        std::byte* target = copy.data() + format.plane_offset(p);
        for (int y = 0; y < format.plane_height(p); ++y)
            std::memcpy(target + y * row_bytes, source + y * picture.stride[p], row_bytes);
    }
    return copy;
}

}  // namespace vq::capi
