// §6.4 anti-dither, the one full-size pass between the 10-bit conversion and the spatial mask.
//
// INCLUDED ONCE PER INSTRUCTION SET through cambi_cpu_variant.hpp, inside the variant's namespace
// (so that GCC compiles this copy for that instruction set): deliberately no include guard.

// In place: row i and column j+1 are read before they are overwritten. The samples are 10-bit
// codes (§6.3), so a sum of four is below 2^12 and the arithmetic stays in 16-bit lanes, which
// doubles the lanes per vector over the int arithmetic C++ would otherwise widen to.
void anti_dither(std::uint16_t* plane, int width, int height) {
    using u16 = std::uint16_t;
    const std::size_t w = std::size_t(width);
    for (int i = 0; i + 1 < height; ++i) {
        u16* row = plane + std::size_t(i) * w;
        const u16* below = row + w;
        for (std::size_t j = 0; j + 1 < w; ++j)
            row[j] = u16(u16(u16(row[j] + row[j + 1]) + u16(below[j] + below[j + 1])) >> 2);
        row[w - 1] = u16(u16(row[w - 1] + below[w - 1]) >> 1);
    }
    u16* last = plane + std::size_t(height - 1) * w;
    for (std::size_t j = 0; j + 1 < w; ++j) last[j] = u16(u16(last[j] + last[j + 1]) >> 1);
}
