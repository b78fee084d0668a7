// Where the frames of a file sit when every one of them is stored the same way: a fixed marker,
// the samples, and bytes to step over, back to back. Raw YUV is always like that; Y4M is as long
// as its FRAME lines carry no parameters. Then frame n lies at a computable offset and can be read
// by position, so several threads can read different frames at once.
//
// The layout is an assumption about the frames ahead, checked frame by frame: a frame that does
// not match it (a FRAME line with parameters, lost framing, the end of the file, a truncated
// frame) is "irregular", and the caller leaves it to the sequential reader, which knows what each
// of those cases means and reports it exactly as it would without positional reading.
#pragma once

#include <cstddef>
#include <string_view>

#include "io/input_file.hpp"

namespace vq {

struct FrameLayout {
    std::size_t first_offset = 0;   // where the record of the source's next frame starts
    std::string_view marker;        // starts every record: "FRAME\n" in Y4M, nothing in raw YUV
    std::size_t frame_bytes = 0;    // the samples, right after the marker
    std::size_t ignored_bytes = 0;  // after the samples (a Y4M alpha plane)
    std::size_t read_bytes = 0;     // the samples' leading bytes that are read (a prefix of
                                    // frame_bytes: every plane, or luma alone)

    std::size_t record_bytes() const { return marker.size() + frame_bytes + ignored_bytes; }
    // The record of the n-th frame counted from the source's next one (n = 0).
    std::size_t record_offset(std::size_t n) const { return first_offset + n * record_bytes(); }
};

// Reads the samples of the n-th frame into `dest` (layout.read_bytes bytes); false if the frame
// is irregular, and then `dest` may hold anything. Thread-safe, as InputFile::read_at.
bool read_regular_frame(const InputFile& file, const FrameLayout& layout, std::size_t n,
                        std::byte* dest);

// True if the n-th frame is regular, found without reading its samples (for skipping it).
bool is_regular_frame(const InputFile& file, const FrameLayout& layout, std::size_t n);

}  // namespace vq
