// CSF weighting row kernels (spec §8): the weighted value c and the /30 masking map m of a band.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through adm_cpu_variant.hpp: deliberately
// no include guard.

// Scale 0: c = i16((I * x + K) >> S) (the product fits int32 for any uint16 multiplier) and
// m = i16((4369 * |c| + 2048) >> 12), 4369 ~ 2^17 / 30.
void csf0(const std::int16_t* x, int begin, int end, int multiplier, int add, int shift,
          std::int16_t* c, std::int16_t* m) {
    for (int j = begin; j < end; ++j) {
        const std::int16_t cj = std::int16_t((multiplier * x[j] + add) >> shift);
        const int magnitude = cj < 0 ? -cj : cj;
        c[j] = cj;
        m[j] = std::int16_t((4369 * magnitude + 2048) >> 12);
    }
}

// Scales 1-3: c = i32((U * x + 2^27) >> 28) and m = i32((143165577 * |c| - 2^31) >> 32), with the
// reference's negative rounding constant (Netflix#955: m = -1 for |c| <= 14).
void csf_wide(const std::int32_t* x, int begin, int end, std::uint32_t multiplier, std::int32_t* c,
              std::int32_t* m) {
    for (int j = begin; j < end; ++j) {
        const std::int32_t cj = std::int32_t((std::int64_t(multiplier) * x[j] + (1 << 27)) >> 28);
        const std::int64_t magnitude = cj < 0 ? -std::int64_t(cj) : cj;
        c[j] = cj;
        m[j] = std::int32_t((143165577 * magnitude - (std::int64_t(1) << 31)) >> 32);
    }
}
