// Decoupling row kernels (spec §6): restored values R and additive impairment A = T - R for the
// three detail bands, from the reference (o) and distorted (t) coefficients.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, by adm_kernels.cpp: deliberately no
// include guard.

// C = f32(cos(pi/180)^2) (§6.1; a test checks it against the formula).
inline constexpr double cos_squared_one_degree = double(0x1.ffd814p-1f);

// §6.1: the (h, v) vectors of ref and dis are within 1 degree of each other. Each int64 goes
// through float first; everything after that is double.
inline bool within_one_degree(float dp, float oo, float tt) {
    const double d = double(dp) / 4096.0;
    const double o = double(oo) / 4096.0;
    const double t = double(tt) / 4096.0;
    return d >= 0 && d * d >= (cos_squared_one_degree * o) * t;
}

// §6.3: the gain limit applied to a restored value r of reference o and distorted t.
inline double limited_gain(std::int64_t r, std::int64_t o, std::int64_t t, double gain_limit) {
    const double scaled = double(r) * gain_limit;
    return o > 0 ? std::min(scaled, double(t)) : std::max(scaled, double(t));
}

// Scale 0 (int16 bands), columns [begin, end). `angle` is scratch for one flag per column.
void decouple0(const std::int16_t* const* o, const std::int16_t* const* t, int begin, int end,
               double gain_limit, std::uint8_t* angle, std::int16_t* const* r, std::int16_t* const* a) {
    for (int j = begin; j < end; ++j) {
        // Products below 2^31 and their sums are exact in double, hence float(double) rounds
        // the exact int64 value once, as the reference's int64 -> float conversion does.
        const double dp = double(o[0][j]) * t[0][j] + double(o[1][j]) * t[1][j];
        const double oo = double(o[0][j]) * o[0][j] + double(o[1][j]) * o[1][j];
        const double tt = double(t[0][j]) * t[0][j] + double(t[1][j]) * t[1][j];
        angle[j] = within_one_degree(float(dp), float(oo), float(tt));
    }
    for (int b = 0; b < 3; ++b) {
        const std::int16_t* ob = o[b];
        const std::int16_t* tb = t[b];
        for (int j = begin; j < end; ++j) {
            const int oj = ob[j], tj = tb[j];
            int k = 32768;
            if (oj != 0) k = int((std::int64_t(div_table[div_table_centre + oj]) * tj + 16384) >> 15);
            k = std::min(std::max(k, 0), 32768);
            int rj = (k * oj + 16384) >> 15;
            if (angle[j] && k > 0 && oj != 0) rj = int(limited_gain(rj, oj, tj, gain_limit));
            r[b][j] = std::int16_t(rj);
            a[b][j] = std::int16_t(tj - rj);
        }
    }
}

// Scales 1-3 (int32 bands): the divisor is rounded to 15 significant bits first (§6.2).
void decouple_wide(const std::int32_t* const* o, const std::int32_t* const* t, int begin, int end,
                   double gain_limit, std::uint8_t* angle, std::int32_t* const* r, std::int32_t* const* a) {
    for (int j = begin; j < end; ++j) {
        const std::int64_t oh = o[0][j], ov = o[1][j], th = t[0][j], tv = t[1][j];
        angle[j] = within_one_degree(float(oh * th + ov * tv), float(oh * oh + ov * ov), float(th * th + tv * tv));
    }
    for (int b = 0; b < 3; ++b) {
        const std::int32_t* ob = o[b];
        const std::int32_t* tb = t[b];
        for (int j = begin; j < end; ++j) {
            const std::int64_t oj = ob[j], tj = tb[j];
            std::int64_t k = 32768;
            if (oj != 0) {
                const std::uint32_t m = std::uint32_t(oj < 0 ? -oj : oj);
                const int e = m < 32768 ? 0 : std::bit_width(m) - 15;
                const std::uint32_t rounded = e == 0 ? m : (m + (1u << (e - 1))) >> e;
                const std::int64_t quotient = std::int64_t(div_table[div_table_centre + rounded]) * tj;
                k = ((oj < 0 ? -quotient : quotient) + (std::int64_t(1) << (14 + e))) >> (15 + e);
            }
            k = std::min<std::int64_t>(std::max<std::int64_t>(k, 0), 32768);
            std::int64_t rj = std::int32_t((k * oj + 16384) >> 15);
            if (angle[j] && k > 0 && oj != 0) rj = std::int32_t(limited_gain(rj, oj, tj, gain_limit));
            r[b][j] = std::int32_t(rj);
            a[b][j] = std::int32_t(tj - rj);
        }
    }
}
