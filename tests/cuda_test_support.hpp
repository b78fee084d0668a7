// Helpers for the CUDA tests: skipping without a GPU, and a twin harness that runs one feature
// through its backend's executor the way the session does (support/pictures.hpp makes the frames).
// The CUDA tests are .cu files: tests/CMakeLists.txt builds them only when vq is built with CUDA.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/cuda_backend.hpp"
#include "feature/feature.hpp"
#include "vq/picture.hpp"

// Skips the current test with a message when no GPU can run vq's kernels (always on CI).
#define VQ_REQUIRE_CUDA()                       \
    if (::vq::cuda::usable_device_count() == 0) \
    GTEST_SKIP() << "no usable CUDA device: GPU test skipped"

namespace vq::test {

// Runs an initialised feature through the executor of its own backend (CPU: every core; CUDA:
// GPU 0), frames pipelined as deep as the executor allows, and returns every frame's scores.
std::vector<std::vector<double>> run_twin(Feature& feature, const std::vector<FramePair>& frames);

// "1920x1080 10-bit 4:2:2" and the option string, for failure messages.
std::string describe_case(const VideoFormat& format, const std::string& request);

// One parity case: a format and the feature request both twins run on it.
struct TwinCase {
    VideoFormat format;
    std::string request;
};

inline void PrintTo(const TwinCase& c, std::ostream* out) {
    *out << describe_case(c.format, c.request);
}

}  // namespace vq::test
