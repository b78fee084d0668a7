#include "cuda/check.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq::cuda {
namespace {

std::string describe(cudaError_t status, const char* call, const char* file, int line) {
    return fmt::format("CUDA error: {} failed at {}:{}: {} ({})", call,
                       std::filesystem::path(file).filename().string(), line,
                       cudaGetErrorString(status), cudaGetErrorName(status));
}

}  // namespace

void check(cudaError_t status, const char* call, const char* file, int line) {
    if (status != cudaSuccess) throw runtime_error(describe(status, call, file, line));
}

void check_allocation(cudaError_t status, const char* call, std::size_t bytes, const char* file,
                      int line) {
    if (status == cudaSuccess) return;
    if (status == cudaErrorMemoryAllocation)
        throw runtime_error(fmt::format("{} (asked for {} bytes, {:.1f} MiB)",
                                        describe(status, call, file, line), bytes,
                                        double(bytes) / (1024.0 * 1024.0)));
    throw runtime_error(describe(status, call, file, line));
}

}  // namespace vq::cuda
