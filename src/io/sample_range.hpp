// Samples above the declared bit depth (a 10-bit input holding 16-bit values, a file of the
// wrong -b) would be scored as if they were valid and give a plausible, wrong score. Every reader
// checks every frame it gives out; the check is an OR over each plane, cheap beside any metric.
#pragma once

#include <cstddef>
#include <string>

#include "core/planes.hpp"
#include "vq/picture.hpp"

namespace vq {

// Throws vq::Error (runtime) "'PATH': frame N: plane Y holds the sample 65535 at (x, y), above
// the 10-bit maximum 1023" for the first such sample of a 9..15-bit frame laid out as `format`
// describes (8- and 16-bit samples cannot exceed their depth), in the planes `planes` names.
void check_sample_range(const VideoFormat& format, const std::byte* frame, const std::string& path,
                        std::size_t index, Planes planes = Planes::all);

}  // namespace vq
