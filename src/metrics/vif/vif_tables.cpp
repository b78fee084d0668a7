// Filter kernels and the log2 table of integer VIF (spec/vmaf.md §2.2, §2.5).
#include "metrics/vif/vif_tables.hpp"

#include <array>
#include <cmath>

namespace vq::vif {
namespace {

constexpr std::uint16_t scale0_taps[17] = {489,  935,  1640, 2640, 3896, 5274, 6547, 7455, 7784,
                                           7455, 6547, 5274, 3896, 2640, 1640, 935,  489};
constexpr std::uint16_t scale1_taps[9] = {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244};
constexpr std::uint16_t scale2_taps[5] = {3571, 16004, 26386, 16004, 3571};
constexpr std::uint16_t scale3_taps[3] = {10904, 43728, 10904};

constexpr Filter filters[scale_count] = {
    {17, 8, scale0_taps}, {9, 4, scale1_taps}, {5, 2, scale2_taps}, {3, 1, scale3_taps}};

}  // namespace

const Filter& filter(int scale) { return filters[scale]; }

std::span<const std::uint16_t> log2_table() {
    // The reference rounds 2048 * log2f(i), i.e. the float nearest log2(i), not the exact
    // logarithm (they differ at 38 indices, Appendix A). Scaling that float by 2048 is exact.
    static const std::array<std::uint16_t, log2_table_size + 1> table = [] {
        std::array<std::uint16_t, log2_table_size + 1> entries{};
        for (int i = 0; i < log2_table_size; ++i) {
            const float log2_of_index = float(std::log2(double(i + log2_table_first)));
            entries[i] = std::uint16_t(std::round(2048.0 * double(log2_of_index)));
        }
        return entries;
    }();
    return {table.data(), log2_table_size};
}

}  // namespace vq::vif
