// Every CUDA runtime call goes through VQ_CUDA_CHECK, so a failure becomes a vq::Error (run time)
// that names the call, where it was made and what the driver said, instead of a silently wrong
// score or a hang on a later call.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vq::cuda {

// Throws vq::Error (run time) unless `status` is cudaSuccess.
void check(cudaError_t status, const char* call, const char* file, int line);

// As check(), for an allocation: an out-of-memory error also says how much was asked for.
void check_allocation(cudaError_t status, const char* call, std::size_t bytes, const char* file,
                      int line);

}  // namespace vq::cuda

#define VQ_CUDA_CHECK(call) ::vq::cuda::check((call), #call, __FILE__, __LINE__)

// After a kernel launch: a launch error (bad configuration, no kernel image for this device) is
// only visible through cudaGetLastError.
#define VQ_CUDA_CHECK_LAUNCH(kernel) \
    ::vq::cuda::check(cudaGetLastError(), "launch of " #kernel, __FILE__, __LINE__)
