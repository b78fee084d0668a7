// The variants of VIF's two heavy stages, one per instruction set, chosen at run time. Every
// variant gives results bit-identical to the plain stages of vif_cpu_stages.hpp (the tests run each
// one this CPU supports against them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "metrics/vif/vif.hpp"
#include "vq/picture.hpp"

namespace vq::vif {

template <typename Sample>
using StatisticsFunction = ScaleSums (*)(const PlaneView<Sample>& ref,
                                         const PlaneView<Sample>& dist, int scale, int bits,
                                         double gain_limit);
template <typename Sample>
using DecimateFunction = void (*)(const PlaneView<Sample>& source, int destination_scale, int bits,
                                  std::uint16_t* out);

// L(v) of spec §2.5 for each of `count` doubles holding integers in [2^17, 2^53): the variant's
// own evaluation of the log2 table, exposed so that tests can compare it with the table.
using Log2Function = void (*)(const double* values, std::int64_t* out, std::size_t count);

struct Kernels {
    const char* instruction_set;
    StatisticsFunction<std::uint8_t> statistics_8bit;
    StatisticsFunction<std::uint16_t> statistics_16bit;
    DecimateFunction<std::uint8_t> decimate_8bit;
    DecimateFunction<std::uint16_t> decimate_16bit;
    Log2Function fixed_log2;

    ScaleSums statistics(const PlaneView<std::uint8_t>& ref, const PlaneView<std::uint8_t>& dist,
                         int scale, int bits, double gain_limit) const {
        return statistics_8bit(ref, dist, scale, bits, gain_limit);
    }
    ScaleSums statistics(const PlaneView<std::uint16_t>& ref, const PlaneView<std::uint16_t>& dist,
                         int scale, int bits, double gain_limit) const {
        return statistics_16bit(ref, dist, scale, bits, gain_limit);
    }
    void decimate(const PlaneView<std::uint8_t>& source, int scale, int bits,
                  std::uint16_t* out) const {
        decimate_8bit(source, scale, bits, out);
    }
    void decimate(const PlaneView<std::uint16_t>& source, int scale, int bits,
                  std::uint16_t* out) const {
        decimate_16bit(source, scale, bits, out);
    }
};

// Every variant this CPU runs, best first; the last ("baseline") is the plain stages.
std::span<const Kernels> available_kernels();

inline const Kernels& best_kernels() { return available_kernels().front(); }

}  // namespace vq::vif
