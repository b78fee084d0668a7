// Which GPUs this build can run on. A .cu file of its own because only nvcc defines
// __CUDA_ARCH_LIST__, the architectures the kernels were compiled for (CMAKE_CUDA_ARCHITECTURES).
#include <algorithm>
#include <initializer_list>

#include "cuda/device.hpp"

namespace vq::cuda {

int built_architecture_floor() { return std::min({__CUDA_ARCH_LIST__}); }

}  // namespace vq::cuda
