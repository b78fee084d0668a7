// The one 8/16-bit dispatch: a stage written once as a template on its sample type is called with
// the type that holds the frame's samples, as vq::Picture stores them (VideoFormat::
// bytes_per_sample: std::uint8_t up to 8 bits, std::uint16_t above).
//
//   with_sample_type(bit_depth, [&](auto sample) {
//       using Sample = decltype(sample);
//       return sum_squared_error(pair.reference.plane<Sample>(0), pair.distorted.plane<Sample>(0));
//   });
#pragma once

#include <cstdint>
#include <utility>

namespace vq {

template <typename Function>
decltype(auto) with_sample_type(int bit_depth, Function&& function) {
    if (bit_depth > 8) return std::forward<Function>(function)(std::uint16_t{});
    return std::forward<Function>(function)(std::uint8_t{});
}

}  // namespace vq
