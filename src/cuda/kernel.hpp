// Per-kernel settings that kernels' owners make once, before the first launch.
#pragma once

#include <cstddef>

namespace vq::cuda {

void allow_dynamic_shared_memory_bytes(const void* kernel, std::size_t bytes);

// Lets every launch of `kernel` ask for up to `bytes` of dynamic shared memory per block (beyond
// the 48 KiB a kernel gets by default). Throws vq::Error where the device has less.
template <typename... Arguments>
void allow_dynamic_shared_memory(void (*kernel)(Arguments...), std::size_t bytes) {
    allow_dynamic_shared_memory_bytes(reinterpret_cast<const void*>(kernel), bytes);
}

}  // namespace vq::cuda
