// The GPU a run computes on (--gpu N): one per CUDA executor, owning nothing but the choice.
// CUDA's runtime keeps one context per device and process (the primary context); the current
// device is per host thread, so every entry point that may run on another thread (the session's
// caller, the readers' allocator, a destructor) calls make_current() first.
#pragma once

#include <string>

namespace vq::cuda {

class Device {
public:
    // Throws vq::Error (usage) for an ordinal that names no usable GPU, and (run time) when its
    // context cannot be created.
    explicit Device(int ordinal);

    int ordinal() const { return ordinal_; }
    const std::string& name() const { return name_; }
    void make_current() const;

private:
    int ordinal_;
    std::string name_;
};

// The oldest architecture (major * 100 + minor * 10) this build has kernels for; a device at least
// that new runs them, as machine code or by JIT from the embedded PTX.
int built_architecture_floor();

}  // namespace vq::cuda
