// Helpers for the CUDA tests: skipping without a GPU, adversarial pictures, and a twin harness
// that runs one feature through its backend's executor the way the session does. The CUDA tests
// are .cu files: tests/CMakeLists.txt builds them only when vq is built with CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/cuda_backend.hpp"
#include "engine/feature.hpp"
#include "vq/picture.hpp"

// Skips the current test with a message when no GPU can run vq's kernels (always on CI).
#define VQ_REQUIRE_CUDA()                                       \
    if (::vq::cuda::usable_device_count() == 0)                 \
    GTEST_SKIP() << "no usable CUDA device: GPU test skipped"

namespace vq::test {

// What a picture holds. The extremes catch overflow (every sample 2^bpc - 1 or 0), the ramps catch
// indexing mistakes that uniform noise averages away.
enum class Content { noise, zeros, maxima, ramp };

Picture content_picture(const VideoFormat& format, Content content, std::uint32_t seed);

// Frames that cover the interesting cases in turn: noise against noise, identical pictures, the
// extremes against each other, ramps against noise; `count` frames in all.
std::vector<FramePair> adversarial_frames(const VideoFormat& format, int count, std::uint32_t seed);

// Runs an initialised feature through the executor of its own backend (CPU: every core; CUDA:
// GPU 0), frames pipelined as deep as the executor allows, and returns every frame's scores.
std::vector<std::vector<double>> run_twin(Feature& feature, const std::vector<FramePair>& frames);

// "1920x1080 10-bit 4:2:2" and the option string, for failure messages.
std::string describe_case(const VideoFormat& format, const std::string& request);

}  // namespace vq::test
