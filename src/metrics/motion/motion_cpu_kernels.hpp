// The CPU twin's row kernels, one table per instruction set, all from motion_cpu_rows.hpp: plain
// loops in the baseline, 16-bit multiply-adds in the vector variants. The same integer arithmetic
// gives the same bits; the tests compare each variant with a 64-bit transcription of the spec.
#pragma once

#include <cstdint>
#include <span>

namespace vq::motion {

// One row of the vertical blur's result y as its two parts, high = y >> 8 and low = y & 255 (both
// fit int16, which the vector variants' multiply-adds take): each points at column 0 of an array
// with blur_radius mirrored entries on either side and `padding` more past the end, which vector
// reads may touch.
struct BlurredRow {
    std::int16_t* high;
    std::int16_t* low;
    static constexpr int padding = 64;
};

struct Kernels {
    const char* instruction_set;

    // The vertical blur of one row of the difference previous - current (five source rows, the
    // border already mirrored) into out's columns [0, width); returns whether any value is
    // non-zero.
    bool (*vertical_row_8)(const std::uint8_t* const* previous, const std::uint8_t* const* current,
                           int width, int bit_depth, BlurredRow out);
    bool (*vertical_row_16)(const std::uint16_t* const* previous,
                            const std::uint16_t* const* current, int width, int bit_depth,
                            BlurredRow out);
    // The horizontal blur of a row (its mirrored entries filled) and the row's sum of absolute
    // values.
    std::uint64_t (*horizontal_row_sad)(BlurredRow row, int width);

    bool vertical_row(const std::uint8_t* const* previous, const std::uint8_t* const* current,
                      int width, int bit_depth, BlurredRow out) const {
        return vertical_row_8(previous, current, width, bit_depth, out);
    }
    bool vertical_row(const std::uint16_t* const* previous, const std::uint16_t* const* current,
                      int width, int bit_depth, BlurredRow out) const {
        return vertical_row_16(previous, current, width, bit_depth, out);
    }
};

// Every variant this CPU runs, best first; the last is the baseline.
std::span<const Kernels> available_kernels();

}  // namespace vq::motion
