// The YUV4MPEG2 stream header: "YUV4MPEG2 W<w> H<h> F<n>:<d> [I<i>] [A<n>:<d>] [C<c>] [X...]".
//
// Parsing is a pure function of the first line so that it can be unit-tested and fuzzed without
// files; the reader adds the path to its messages.
#pragma once

#include <cstddef>
#include <string_view>

#include "vq/picture.hpp"

namespace vq {

// A header line longer than this is rejected. Real writers emit well under 200 bytes even with X
// extensions; the bound keeps a binary file that happens to start with the signature from being
// scanned for a newline to its end.
inline constexpr std::size_t max_y4m_header_bytes = 1024;

struct Y4mRatio {
    long long num = 0;
    long long den = 0;
};

struct Y4mHeader {
    VideoFormat format;     // dimensions are within 1..max_dimension, depth 8..16
    Y4mRatio frame_rate;    // F: both terms positive
    Y4mRatio pixel_aspect;  // A: 0:0 ("unknown") when absent
    // C444alpha: every frame carries a fourth, full-size 8-bit alpha plane after Cr. vq does not
    // use it, but a reader must step over it to stay framed.
    bool has_alpha_plane = false;

    std::size_t alpha_plane_bytes() const {
        return has_alpha_plane ? std::size_t(format.width) * std::size_t(format.height) : 0;
    }
};

// True if the line starts with the YUV4MPEG2 signature (followed by a space or nothing). Lets a
// reader tell "not a Y4M file at all" from "a Y4M file with a bad header".
bool has_y4m_signature(std::string_view line);

// Parses the header line (without its '\n'). Throws vq::Error (runtime) with a one-line message
// naming the offending tag: missing W/H/F, malformed numbers, sizes outside 1..max_dimension,
// interlaced video, or an unknown or unsupported C value. Unknown tags and X extensions are
// ignored; when a tag repeats, the last one wins.
Y4mHeader parse_y4m_header(std::string_view line);

}  // namespace vq
