// Memoised Y'CbCr -> CIELAB conversion for the CPU twin.
//
// The conversion (spec/ciede.md §4.1-4.5, six libm pow calls) depends only on the code triple,
// and a frame repeats most of its colours: neighbouring pixels share chroma (4:2:0 and 4:2:2
// replicate it) and differ little in luma. A direct-mapped table keyed on the triple returns the
// very floats the conversion computed, so it is exact by construction.
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/ciede/ciede_math.hpp"

namespace vq::ciede {

class LabCache {
public:
    explicit LabCache(int bit_depth) : scale_(code_scale(bit_depth)), entries_(std::size_t(1) << index_bits) {}

    Lab operator()(int y, int cb, int cr) {
        const std::uint64_t key =
            (std::uint64_t(y) << 32) | (std::uint64_t(cb) << 16) | std::uint64_t(cr);
        Entry& entry = entries_[(key * 0x9e3779b97f4a7c15u) >> (64 - index_bits)];
        if (entry.key != key) {
            entry.key = key;
            entry.lab = ycbcr_to_lab(y, cb, cr, scale_);
        }
        return entry.lab;
    }

private:
    static constexpr int index_bits = 16;  // 64 Ki entries, 1.5 MiB: fits the L2 cache

    struct Entry {
        std::uint64_t key = ~std::uint64_t(0);  // no triple of 16-bit codes has this key
        Lab lab{};
    };

    CodeScale scale_;
    std::vector<Entry> entries_;
};

}  // namespace vq::ciede
