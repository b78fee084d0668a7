// Which stored chroma sample each luma pixel uses (spec/ciede.md §3). Shared by the twins.
//
// CIEDE2000 works on the luma grid: each luma pixel pairs with one chroma sample by
// nearest-neighbour replication. vq's pictures hold ceil-size chroma planes, so odd sizes map
// the last luma row/column to the last stored chroma row/column (the well-defined rule of §3.2).
#pragma once

#include "metrics/ciede/ciede_math.hpp"  // VQ_HD
#include "vq/error.hpp"
#include "vq/picture.hpp"

namespace vq::ciede {

enum class ChromaMapping {
    full,           // 4:4:4: chroma (i, j)
    half_both,      // 4:2:0: chroma (i >> 1, j >> 1)
    half_width,     // 4:2:2, true CIEDE2000: chroma (i, j >> 1)
    reference_422,  // 4:2:2 as the reference reads it (§3.3): see chroma_sample_index
};

struct ChromaAddressing {
    ChromaMapping mapping;
    int width;  // stored chroma plane size (ceil), samples
    int height;
    int pitch;  // reference_422 only: the reference's row pitch, width rounded up to 32 samples
};

// Throws vq::Error (usage) for 4:0:0, which has no chroma to compare. `reference_422` is the
// option of that name.
inline ChromaAddressing chroma_addressing(const VideoFormat& format, bool reference_422) {
    const int width = format.plane_width(1);
    const int height = format.plane_height(1);
    switch (format.chroma) {
    case ChromaFormat::yuv444: return {ChromaMapping::full, width, height, width};
    case ChromaFormat::yuv420: return {ChromaMapping::half_both, width, height, width};
    case ChromaFormat::yuv422:
        if (reference_422)
            return {ChromaMapping::reference_422, width, height, (width + 31) / 32 * 32};
        return {ChromaMapping::half_width, width, height, width};
    case ChromaFormat::yuv400: break;
    }
    throw usage_error(
        "ciede: 4:0:0 (greyscale) input has no chroma; CIEDE2000 needs 4:2:0, "
        "4:2:2 or 4:4:4");
}

// Index into the tightly packed chroma plane of the sample luma pixel (row, col) uses, or -1
// where the reference reads a zero.
VQ_HD inline long chroma_sample_index(const ChromaAddressing& a, int row, int col) {
    switch (a.mapping) {
    case ChromaMapping::full: return long(row) * a.width + col;
    case ChromaMapping::half_both: return long(row >> 1) * a.width + (col >> 1);
    case ChromaMapping::half_width: return long(row) * a.width + (col >> 1);
    case ChromaMapping::reference_422: break;
    }
    // QUIRK (§3.3): row i >> 1 of a plane with full-height rows, column j of a half-width plane,
    // addressed linearly through the reference's padded rows: the pitch padding reads as zero and
    // columns past one pitch spill into the following rows. Past the last row (only for heights
    // below about 6) the reference reads the next plane or unowned memory; vq reads zero there.
    const long offset = long(row >> 1) * a.pitch + col;
    const long r = offset / a.pitch;
    const long c = offset % a.pitch;
    if (c >= a.width || r >= a.height) return -1;
    return r * a.width + c;
}

}  // namespace vq::ciede
