// How test parameters print in test lists and failure messages: readable values, not the byte
// dumps gtest falls back to (the TestNames suite checks every parameterised test).
#pragma once

#include <ostream>

#include "vq/picture.hpp"

namespace vq {

// "5x3 10-bit 4:2:0"
inline void PrintTo(const VideoFormat& format, std::ostream* out) { *out << describe(format); }

}  // namespace vq
