// §7 spatial mask and §9 mode filter, the two integer stages that touch every pixel.
//
// INCLUDED ONCE PER INSTRUCTION SET through cambi_cpu_variant.hpp, inside the variant's namespace
// (so that GCC compiles these copies for that instruction set): deliberately no include guard.

// §9: a if it repeats, else b if b == c, else the minimum ("all different" gives the minimum).
VQ_KERNEL_INLINE std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    const std::uint16_t lowest = std::min(a, std::min(b, c));
    return ((a == b) | (a == c)) ? a : (b == c ? b : lowest);
}

VQ_KERNEL_INLINE void horizontal_mode(const std::uint16_t* row, int width, std::uint16_t* out) {
    out[0] = row[0];
    for (int j = 1; j < width - 1; ++j) out[j] = mode3(row[j - 1], row[j], row[j + 1]);
    out[width - 1] = row[width - 1];
}

void spatial_mask(const std::uint16_t* plane, int width, int height, int threshold,
                  std::uint8_t* mask) {
    // Z (a flat pixel: equal to its right and lower neighbours) row by row into a ring of the 8
    // rows the window needs, a sliding 7-row sum per column, then a 7-wide sum along the row.
    // Everything fits in uint8 (a box holds at most 49).
    constexpr int radius = 3;
    constexpr int ring_rows = 2 * radius + 2;  // rows i-4 .. i+3
    const std::size_t w = std::size_t(width);
    thread_local std::vector<std::uint8_t> ring;
    thread_local std::vector<std::uint8_t> column_sums;
    ring.resize(ring_rows * w);
    column_sums.assign(w + 2 * radius, 0);  // zero margins: the box is clipped to the picture
    std::uint8_t* sums = column_sums.data() + radius;

    const auto flat_row = [&](int r) { return ring.data() + std::size_t(r % ring_rows) * w; };
    const auto add_flat_row = [&](int r) {
        const std::uint16_t* row = plane + std::size_t(r) * w;
        const std::uint16_t* below =
            r + 1 < height ? row + w : row;  // last row: only the right test
        std::uint8_t* z = flat_row(r);
        for (std::size_t j = 0; j + 1 < w; ++j)
            z[j] = std::uint8_t((row[j] == row[j + 1]) & (row[j] == below[j]));
        z[w - 1] = std::uint8_t(row[w - 1] == below[w - 1]);
        for (std::size_t j = 0; j < w; ++j) sums[j] = std::uint8_t(sums[j] + z[j]);
    };
    const auto remove_flat_row = [&](int r) {
        const std::uint8_t* z = flat_row(r);
        for (std::size_t j = 0; j < w; ++j) sums[j] = std::uint8_t(sums[j] - z[j]);
    };

    for (int r = 0; r < std::min(radius, height); ++r) add_flat_row(r);
    for (int i = 0; i < height; ++i) {
        if (i + radius < height) add_flat_row(i + radius);
        if (i - radius - 1 >= 0) remove_flat_row(i - radius - 1);
        std::uint8_t* out = mask + std::size_t(i) * w;
        const std::uint8_t* s = sums - radius;
        for (std::size_t j = 0; j < w; ++j) {
            const int box = s[j] + s[j + 1] + s[j + 2] + s[j + 3] + s[j + 4] + s[j + 5] + s[j + 6];
            out[j] = std::uint8_t(box > threshold);
        }
    }
}

void mode_filter(std::uint16_t* plane, int width, int height) {
    // In place with three rows of horizontal modes: row i+1's is taken before row i+1 changes.
    if (height < 3) return;
    const std::size_t w = std::size_t(width);
    thread_local std::vector<std::uint16_t> rows;
    rows.resize(3 * w);
    const auto hr = [&](int i) { return rows.data() + std::size_t(i % 3) * w; };
    horizontal_mode(plane, width, hr(0));
    horizontal_mode(plane + w, width, hr(1));
    for (int i = 1; i + 1 < height; ++i) {
        horizontal_mode(plane + std::size_t(i + 1) * w, width, hr(i + 1));
        const std::uint16_t* above = hr(i - 1);
        const std::uint16_t* centre = hr(i);
        const std::uint16_t* under = hr(i + 1);
        std::uint16_t* out = plane + std::size_t(i) * w;
        for (std::size_t j = 0; j < w; ++j) out[j] = mode3(above[j], centre[j], under[j]);
    }
}
