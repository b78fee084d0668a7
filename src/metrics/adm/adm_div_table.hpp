// The reciprocal table of spec §13.2: div[32768 + n] = trunc(2^30 / n) with the sign of n, for
// n in [-32768, 32768] (the entry for n = 0 is never read: o = 0 is special-cased).
#pragma once

#include <array>
#include <cstdint>

namespace vq::adm {

inline constexpr int div_table_centre = 32768;

constexpr std::array<std::int32_t, 65537> make_div_table() {
    std::array<std::int32_t, 65537> table{};
    for (int n = 1; n <= 32768; ++n) {
        const std::int32_t q = std::int32_t((std::int64_t(1) << 30) / n);
        table[div_table_centre + n] = q;
        table[div_table_centre - n] = -q;
    }
    return table;
}

// Built by the compiler: no start-up cost and no shared mutable state.
inline constexpr std::array<std::int32_t, 65537> div_table = make_div_table();

}  // namespace vq::adm
