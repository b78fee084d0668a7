// The constant data of integer VIF (spec/vmaf.md §2.2, §2.5): the four per-scale filter kernels
// and the fixed-point log2 table, with the log2 evaluation built on it.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

namespace vq::vif {

inline constexpr int scale_count = 4;
inline constexpr int max_taps = 17;

// A symmetric 1-D kernel whose coefficients sum to exactly 65536.
struct Filter {
    int taps;
    int radius;  // (taps - 1) / 2
    const std::uint16_t* coefficients;
};

// F_s of spec §2.2: the statistics filter of scale s and the blur that makes scale s from s-1.
const Filter& filter(int scale);

// T[i] for i in [32767, 65535] (spec §2.5), indexed by i - log2_table_first, plus one zero entry
// past the end: the entry that vector lanes outside their mask read.
inline constexpr int log2_table_first = 32767;
inline constexpr int log2_table_size = 65536 - log2_table_first;
std::span<const std::uint16_t> log2_table();

// L(v) ~= 2048 * log2(v) for v >= 2^17 (spec §2.5): the table entry of v's top 16 bits plus
// 2048 per dropped bit.
inline std::int32_t fixed_log2(std::uint64_t v) {
    const int dropped = int(std::bit_width(v)) - 16;
    return std::int32_t(log2_table()[(v >> dropped) - log2_table_first]) + 2048 * dropped;
}

}  // namespace vq::vif
