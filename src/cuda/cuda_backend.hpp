// The CUDA backend's entry points, as the engine sees them. Defined only in CUDA builds.
#pragma once

#include <memory>
#include <vector>

#include "feature/executor.hpp"

namespace vq::cuda {

class SharedDeviceReference;

// Number of CUDA devices that can run this build's kernels; 0 without a driver or a GPU.
int usable_device_count() noexcept;

// Starts the driver and device `gpu`'s context: what a process's first CUDA call costs (about
// 0.4 s on an H100), for a thread to pay while another opens the inputs. Failures are left to the
// calls that need the device, which meet them again and report them.
void start_driver(int gpu) noexcept;

// An executor running CUDA twins (features whose backend() is Backend::cuda) on device `gpu`.
// The reference is uploaded only if `reference_available` (the session's frame pairs carry one)
// and one of `features` uses it, into `shared_reference` when given (a many-input run's: one
// upload per frame for all its executors). Throws vq::Error when the device cannot be used. Its
// allocator() hands out pinned memory.
std::unique_ptr<Executor> make_executor(
    std::vector<Feature*> features, int gpu, const VideoFormat& format, bool reference_available,
    std::shared_ptr<SharedDeviceReference> shared_reference = nullptr);

// A SharedDeviceReference for the executors of one many-input run
// (cuda/shared_device_reference.hpp).
std::shared_ptr<SharedDeviceReference> make_shared_device_reference();

}  // namespace vq::cuda
