// Y'CbCr -> CIELAB for the CPU twin: memoised per code triple, with the misses converted in
// batches by the vector kernel (ciede_cpu_lab_kernel.hpp).
//
// The conversion (spec/ciede.md §4.1-4.5) depends only on the code triple, and a frame repeats
// most of its colours: neighbouring pixels share chroma (4:2:0 and 4:2:2 replicate it) and
// differ little in luma. A direct-mapped table keyed on the triple returns the very floats the
// conversion produced, so reuse is exact by construction.
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/ciede/ciede_cpu_kernels.hpp"

namespace vq::ciede {

class LabConverter {
public:
    // `capacity`: the most requests between two flushes.
    LabConverter(int bit_depth, int capacity);

    // The Lab colour of (y, cb, cr) is stored at `target` now or by the next flush().
    void request(int y, int cb, int cr, LabTarget target) {
        const std::uint64_t key =
            (std::uint64_t(y) << 32) | (std::uint64_t(cb) << 16) | std::uint64_t(cr);
        Entry& entry = table_[(key * 0x9e3779b97f4a7c15u) >> (64 - index_bits)];
        if (entry.key == key) {
            target.store(entry.lab);
            return;
        }
        const int slot = int(misses_.size());
        batch_.y[slot] = y;
        batch_.cb[slot] = cb;
        batch_.cr[slot] = cr;
        misses_.push_back({&entry, key, target});
    }

    // Converts the requested colours not found in the table, stores them and remembers them.
    void flush();

private:
    static constexpr int index_bits = 15;  // 32 Ki entries, 768 KiB: stays in the L2 cache

    struct Entry {
        std::uint64_t key = ~std::uint64_t(0);  // no triple of 16-bit codes has this key
        Lab lab{};
    };
    struct Miss {
        Entry* entry;
        std::uint64_t key;
        LabTarget target;
    };

    CodeScale scale_;
    std::vector<Entry> table_;
    LabBatch batch_;
    std::vector<Miss> misses_;
};

}  // namespace vq::ciede
