// The CPU twin's row kernels, one table per instruction set. Every variant is compiled from the
// same integer code (motion_cpu_rows.hpp), so all give the same bits; the tests compare each one
// with the baseline and with a 64-bit transcription of the spec anyway.
#pragma once

#include <cstdint>
#include <span>

namespace vq::motion {

struct Kernels {
    const char* instruction_set;

    // The vertical blur of one row of the difference previous - current (five source rows, the
    // border already mirrored) into y[0, width); returns whether any value is non-zero.
    bool (*vertical_row_8)(const std::uint8_t* const* previous, const std::uint8_t* const* current,
                           int width, int bit_depth, std::int32_t* y);
    bool (*vertical_row_16)(const std::uint16_t* const* previous,
                            const std::uint16_t* const* current, int width, int bit_depth,
                            std::int32_t* y);
    // The horizontal blur of y (blur_radius mirrored entries on either side) and the row's sum of
    // absolute values.
    std::uint64_t (*horizontal_row_sad)(const std::int32_t* y, int width);

    bool vertical_row(const std::uint8_t* const* previous, const std::uint8_t* const* current,
                      int width, int bit_depth, std::int32_t* y) const {
        return vertical_row_8(previous, current, width, bit_depth, y);
    }
    bool vertical_row(const std::uint16_t* const* previous, const std::uint16_t* const* current,
                      int width, int bit_depth, std::int32_t* y) const {
        return vertical_row_16(previous, current, width, bit_depth, y);
    }
};

// Every variant this CPU runs, best first; the last is the baseline.
std::span<const Kernels> available_kernels();

}  // namespace vq::motion
