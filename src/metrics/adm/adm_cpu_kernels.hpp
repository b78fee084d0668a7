// The CPU twin's row kernels, one table per instruction set. Every variant is compiled from the
// same integer code (adm_*_rows.hpp), so all give the same bits; the tests compare each one with
// the baseline on adversarial planes anyway.
#pragma once

#include <cstdint>
#include <span>

namespace vq::adm {

struct Kernels {
    const char* instruction_set;

    // DWT (§4, §5). Horizontal passes read lo/hi at index -1 .. 2 * count (mirrored border).
    void (*dwt0_vertical_8)(const std::uint8_t* const* rows, int width, int bit_depth,
                            std::int16_t* lo, std::int16_t* hi);
    void (*dwt0_vertical_16)(const std::uint16_t* const* rows, int width, int bit_depth,
                             std::int16_t* lo, std::int16_t* hi);
    void (*dwt0_horizontal)(const std::int16_t* lo, const std::int16_t* hi, int count,
                            std::int16_t* a, std::int16_t* v, std::int16_t* h, std::int16_t* d);
    void (*dwt1_vertical)(const std::int16_t* const* rows, int width, std::int32_t* lo,
                          std::int32_t* hi);
    void (*dwt23_vertical)(const std::int32_t* const* rows, int width, std::int32_t* lo,
                           std::int32_t* hi);
    void (*dwt_wide_horizontal)(const std::int32_t* lo, const std::int32_t* hi, int count, int add,
                                int shift, std::int32_t* a, std::int32_t* v, std::int32_t* h,
                                std::int32_t* d);

    // Decoupling (§6) of the three bands o[b], t[b] into r[b], a[b] over columns [begin, end);
    // `angle` is scratch for one byte per column.
    void (*decouple0)(const std::int16_t* const* o, const std::int16_t* const* t, int begin,
                      int end, double gain_limit, std::uint8_t* angle, std::int16_t* const* r,
                      std::int16_t* const* a);
    void (*decouple_wide)(const std::int32_t* const* o, const std::int32_t* const* t, int begin,
                          int end, double gain_limit, std::uint8_t* angle, std::int32_t* const* r,
                          std::int32_t* const* a);

    // CSF weighting (§8) of one band: c and the /30 map m.
    void (*csf0)(const std::int16_t* x, int begin, int end, int multiplier, int add, int shift,
                 std::int16_t* c, std::int16_t* m);
    void (*csf_wide)(const std::int32_t* x, int begin, int end, std::uint32_t multiplier,
                     std::int32_t* c, std::int32_t* m);

    // Masking threshold (§9.1): m[3 * band + row] for rows i-1, i, i+1, c[band] the centre row.
    void (*threshold0)(const std::int16_t* const* m, const std::int16_t* const* c, int begin,
                       int end, std::int32_t* thr);
    void (*threshold_wide)(const std::int32_t* const* m, const std::int32_t* const* c, int begin,
                           int end, std::int32_t* thr);

    // One band's row sum of the cubed masked terms (§9.2), before the per-row rounding shift.
    std::int64_t (*masked_row0)(const std::int16_t* values, const std::int32_t* thr, int begin,
                                int end, int multiplier, int thr_shift, int square_shift,
                                int cube_shift);
    std::int64_t (*masked_row_wide)(const std::int32_t* weighted, const std::int32_t* thr,
                                    int begin, int end, int cube_shift);

    // One row's denominator sum (§10), before the per-row rounding shift.
    std::uint64_t (*cubed_row0)(const std::int16_t* o, int begin, int end);
    std::uint64_t (*cubed_row_wide)(const std::int32_t* o, int begin, int end, int square_shift,
                                    int col_shift);
};

// Every variant this CPU runs, best first; the last is the baseline.
std::span<const Kernels> available_kernels();

inline const Kernels& best_kernels() { return available_kernels().front(); }

}  // namespace vq::adm
