// libFuzzer target for the Y4M header parser: any byte string must either parse into a format vq
// can hold or throw vq::Error. Anything else (a crash, a sanitizer report, another exception type
// escaping, an accepted header outside the documented limits) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/y4m_header.hpp"
#include "vq/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    try {
        const vq::Y4mHeader header = vq::parse_y4m_header(line);
        const vq::VideoFormat& format = header.format;
        const bool within_limits =
            format.width >= 1 && format.width <= vq::max_dimension && format.height >= 1 &&
            format.height <= vq::max_dimension && format.bit_depth >= 8 && format.bit_depth <= 16 &&
            header.frame_rate.num > 0 && header.frame_rate.den > 0 &&
            header.pixel_aspect.num >= 0 && header.pixel_aspect.den >= 0 &&
            (!header.has_alpha_plane || format.chroma == vq::ChromaFormat::yuv444);
        if (!within_limits) __builtin_trap();
    } catch (const vq::Error&) {
        // the expected outcome for malformed input
    }
    return 0;
}
