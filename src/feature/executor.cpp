#include "feature/executor.hpp"

namespace vq {

BlockLayout::BlockLayout(std::span<const std::size_t> block_bytes) {
    for (const std::size_t bytes : block_bytes) {
        offsets.push_back(total);
        sizes.push_back(bytes);
        total += (bytes + 15) / 16 * 16;
    }
}

}  // namespace vq
