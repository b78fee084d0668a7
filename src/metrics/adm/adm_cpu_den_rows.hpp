// Denominator row kernels (spec §10): one row's sum of the cubed reference coefficients.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through adm_cpu_variant.hpp: deliberately
// no include guard.

// Scale 0: sum of |o|^3 (each below 2^46).
std::uint64_t cubed_row0(const std::int16_t* o, int begin, int end) {
    std::uint64_t sum = 0;
    for (int j = begin; j < end; ++j) {
        const std::uint64_t m = std::uint64_t(o[j] < 0 ? -o[j] : o[j]);
        sum += m * m * m;
    }
    return sum;
}

// Scales 1-3: u = (((|o|^2 + 2^Pd) >> Pd) * |o| + 2^(Cd-1)) >> Cd. The squaring's rounding
// constant is 2^Pd, not 2^(Pd-1): a reference quirk kept on purpose.
std::uint64_t cubed_row_wide(const std::int32_t* o, int begin, int end, int square_shift,
                             int col_shift) {
    const std::uint64_t col_round = col_shift >= 1 ? std::uint64_t(1) << (col_shift - 1) : 0;
    std::uint64_t sum = 0;
    for (int j = begin; j < end; ++j) {
        const std::uint64_t m = std::uint64_t(o[j] < 0 ? -std::int64_t(o[j]) : std::int64_t(o[j]));
        sum += ((((m * m + (std::uint64_t(1) << square_shift)) >> square_shift) * m) + col_round) >>
               col_shift;
    }
    return sum;
}
