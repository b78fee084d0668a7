#include "io/frame_layout.hpp"

#include <string>

namespace vq {
namespace {

bool has_marker(const InputFile& file, const FrameLayout& layout, std::size_t n) {
    if (layout.marker.empty()) return true;
    std::string bytes(layout.marker.size(), '\0');  // short enough not to allocate
    const std::size_t got = file.read_at(layout.record_offset(n),
                                         reinterpret_cast<std::byte*>(bytes.data()), bytes.size());
    return got == bytes.size() && bytes == layout.marker;
}

// Whether the record's last byte exists: then, the file being regular, so do all before it.
bool is_complete(const InputFile& file, const FrameLayout& layout, std::size_t n) {
    std::byte last;
    return file.read_at(layout.record_offset(n + 1) - 1, &last, 1) == 1;
}

}  // namespace

bool read_regular_frame(const InputFile& file, const FrameLayout& layout, std::size_t n,
                        std::byte* dest) {
    if (!has_marker(file, layout, n)) return false;
    const std::size_t samples_offset = layout.record_offset(n) + layout.marker.size();
    if (file.read_at(samples_offset, dest, layout.read_bytes) < layout.read_bytes) return false;
    // Bytes of the record not read (the chroma planes, an alpha plane) must still be there.
    const bool read_all = layout.read_bytes == layout.frame_bytes && layout.ignored_bytes == 0;
    return read_all || is_complete(file, layout, n);
}

bool is_regular_frame(const InputFile& file, const FrameLayout& layout, std::size_t n) {
    return has_marker(file, layout, n) && is_complete(file, layout, n);
}

}  // namespace vq
