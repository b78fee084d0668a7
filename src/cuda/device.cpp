// Device discovery and selection.
#include "cuda/device.hpp"

#include <fmt/format.h>

#include "cuda/check.hpp"
#include "cuda/cuda_backend.hpp"
#include "vq/error.hpp"

namespace vq::cuda {
namespace {

// The device's architecture in __CUDA_ARCH_LIST__ units, or 0 if it cannot be queried.
int architecture(int ordinal) noexcept {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return major * 100 + minor * 10;
}

int device_count() noexcept {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // no driver or no GPU: not an error of a later call
        return 0;
    }
    return count;
}

}  // namespace

int usable_device_count() noexcept {
    int usable = 0;
    for (int ordinal = 0, count = device_count(); ordinal < count; ++ordinal)
        usable += architecture(ordinal) >= built_architecture_floor();
    return usable;
}

void start_driver(int gpu) noexcept {
    if (gpu >= 0 && gpu < device_count() && cudaSetDevice(gpu) != cudaSuccess) cudaGetLastError();
}

Device::Device(int ordinal) : ordinal_(ordinal) {
    const int count = device_count();
    if (ordinal < 0 || ordinal >= count)
        throw usage_error(fmt::format("--gpu {}: no such CUDA device ({} found)", ordinal, count));
    cudaDeviceProp properties{};
    VQ_CUDA_CHECK(cudaGetDeviceProperties(&properties, ordinal));
    name_ = properties.name;
    const int arch = architecture(ordinal);
    const int needed = built_architecture_floor();
    if (arch < needed)
        throw usage_error(fmt::format(
            "--gpu {}: {} has compute capability {}.{}; this vq's CUDA kernels need {}.{} or newer",
            ordinal, name_, arch / 100, arch / 10 % 10, needed / 100, needed / 10 % 10));
    make_current();  // since CUDA 12 this also creates the context: now, not inside a frame
}

void Device::make_current() const { VQ_CUDA_CHECK(cudaSetDevice(ordinal_)); }

}  // namespace vq::cuda
