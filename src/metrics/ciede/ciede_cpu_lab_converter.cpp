#include "metrics/ciede/ciede_cpu_lab_converter.hpp"

namespace vq::ciede {

LabConverter::LabConverter(int bit_depth, int capacity)
    : scale_(code_scale(bit_depth)), table_(std::size_t(1) << index_bits), batch_(capacity) {
    misses_.reserve(std::size_t(capacity));
}

void LabConverter::flush() {
    kernels().lab(batch_, int(misses_.size()), scale_);
    for (std::size_t k = 0; k < misses_.size(); ++k) {
        const Lab lab{batch_.L[k], batch_.a[k], batch_.b[k]};
        misses_[k].target.store(lab);
        *misses_[k].entry = {misses_[k].key, lab};
    }
    misses_.clear();
}

}  // namespace vq::ciede
