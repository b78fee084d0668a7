// The CUDA backend's entry points, as the engine sees them. Defined only in CUDA builds.
#pragma once

#include <memory>
#include <vector>

#include "engine/executor.hpp"

namespace vq::cuda {

// Number of usable CUDA devices; 0 without a driver or a GPU (never throws).
int usable_device_count();

// An executor running CUDA twins (features whose backend() is Backend::cuda) on device `gpu`.
// Throws vq::Error when the device cannot be used.
std::unique_ptr<Executor> make_executor(std::vector<Feature*> features, int gpu,
                                        const VideoFormat& format, bool uses_reference);

}  // namespace vq::cuda
