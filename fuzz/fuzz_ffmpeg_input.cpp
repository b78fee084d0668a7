// libFuzzer target: demuxing and decoding arbitrary bytes through vq's FFmpeg reader (a custom
// AVIOContext over the fuzz input) must end in vq::Error or clean frames, never a crash, a leak
// or a sanitizer report in vq's code. Seeds: fuzz/corpus/ffmpeg_input (tiny clips of several
// containers and codecs), for example
//   ./build-fuzz/fuzz/fuzz_ffmpeg_input -max_total_time=60 -rss_limit_mb=4096
//   fuzz/corpus/ffmpeg_input
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>

#include "io/ffmpeg_source.hpp"
#include "vq/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Pictures up to 1024x1024 and a few frames keep each run short and small; one decoder
    // thread keeps runs reproducible.
    vq::DecodeOptions options;
    options.threads = 1;
    options.max_pixels = 1024 * 1024;
    try {
        auto source =
            vq::open_ffmpeg_memory(std::as_bytes(std::span(data, size)), "fuzz input", options);
        for (int frame = 0; frame < 8; ++frame) {
            const auto picture = source->next();
            if (!picture) break;
            if (picture->size_bytes() != source->format().frame_bytes()) __builtin_trap();
        }
    } catch (const vq::Error&) {
    } catch (const std::bad_alloc&) {}
    return 0;
}
