// SpEED's vector-friendly stages as plain loops (spec/speed.md §7, §8.2, §8.6), written so that
// the compiler vectorises them across independent outputs only: each output keeps the spec's
// sequential order. speed_cpu_variant.hpp includes this file once per instruction set, inside a
// namespace, under GCC's target pragma; no include guard on purpose.

// Spec §7: the vertical pass, one output row.
inline void vertical_row(const float* const* rows, const float* taps, int tap_count, int width,
                         float* out) {
    for (int x = 0; x < width; ++x) out[x] = 0.0f;
    for (int i = 0; i < tap_count; ++i) {
        const float tap = taps[i];
        const float* row = rows[i];
        for (int x = 0; x < width; ++x) out[x] = out[x] + tap * row[x];
    }
}

// Spec §8.2: each sum is a sequential double sum over the samples. Row a covers b <= a in
// groups of 8 (one AVX-512 vector, two AVX2 ones), so a little more than the lower triangle.
inline void covariance_sums(const double* diffs, std::size_t count, double* sums) {
    constexpr int n = covariance_stride;
    for (std::size_t s = 0; s < count; ++s) {
        const double* d = diffs + s * n;
        for (int a = 0; a < 25; ++a) {
            const double da = d[a];
            double* row = sums + a * n;
            for (int group = 0; group <= a; group += 8)
                for (int b = group; b < group + 8; ++b) row[b] = row[b] + da * d[b];
        }
    }
}

// Spec §8.6: a float matrix product, k ascending per output. A term whose p factor is ±0 is
// skipped: a sum that starts at +0 can never be -0, and adding ±0 to anything else leaves it
// unchanged, so the result is the same bit for bit (for finite q). The Householder matrices of
// the solve are mostly such zeros.
inline void matrix_product(const float* p, const float* q, int columns, float* out) {
    for (int i = 0; i < 25; ++i) {
        float* o = out + i * columns;
        for (int j = 0; j < columns; ++j) o[j] = 0.0f;
        for (int k = 0; k < 25; ++k) {
            const float pik = p[i * 25 + k];
            if (pik == 0.0f) continue;
            const float* qk = q + k * columns;
            for (int j = 0; j < columns; ++j) o[j] = o[j] + pik * qk[j];
        }
    }
}
