// SpEED on the device (spec/speed.md §3-§9): the residual images of a frame's planes, their block
// statistics and each channel's score, every stage in the CPU twin's order of operations. Shared
// by both CUDA twins (speed_cuda.cu); nvcc only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/memory.hpp"
#include "metrics/speed/speed.hpp"
#include "metrics/toolkit/ordered_sum.hpp"

namespace vq::speed {

inline constexpr int max_images = 4;  // speed_chroma: U and V, reference and distorted

// One residual image's input plane: a, or a ⊖ b (spec §11) when b is set; the config's plane size,
// samples of the run's depth.
struct ImageSource {
    const std::byte* a = nullptr;
    const std::byte* b = nullptr;
};

struct ImageSources {
    ImageSource image[max_images];
};

// Spec §9: one channel's score and whether either of its images failed.
struct DeviceChannel {
    float score;
    int failed;
};

class DevicePipeline {
public:
    // `channels` channels of two images each (reference, distorted), channel c's at 2c and 2c + 1.
    DevicePipeline(const Config& config, int bit_depth, int channels);

    // Scores every channel of one frame into `results` (device memory, `channels` entries).
    void enqueue(const ImageSources& sources, DeviceChannel* results, cudaStream_t stream);

private:
    Config config_;
    int bit_depth_;
    int channels_;
    int images_;
    int residual_width_, residual_height_;  // W_o x H_o
    int blocks_across_, blocks_down_;       // nbh, nbv
    int sub_width_, sub_height_;            // w_m x h_m: the terms of each §8.1-§8.2 sum
    int terms_bytes_;                       // §9's terms in shared memory (0: in terms_)
    cuda::DeviceArray<float> anti_alias_taps_, local_mean_taps_;
    cuda::DeviceArray<int> x_index_, y_index_;  // prescale tables (when it rescales)
    cuda::DeviceArray<float> x_weight_, y_weight_;
    int x_taps_ = 1, y_taps_ = 1;
    cuda::DeviceArray<float> source_;  // per image: the converted plane (when it rescales)
    cuda::DeviceArray<float> decimated_, residual_;  // per image: q, r
    cuda::DeviceArray<float> means_, covariance_, eigenvalues_, householder_, triangular_;
    cuda::DeviceArray<int> solve_failed_, failed_;
    cuda::DeviceArray<float> entropy_, variance_, terms_;
    // §8.1-§8.2's ordered sums (metrics/toolkit/ordered_sum.hpp): per accumulator, the running sum
    // before each chunk and the Grids of chunks, groups and super-groups.
    cuda::DeviceArray<double> sum_prefix_;
    cuda::DeviceArray<ordered::Grid> sum_chunks_, sum_groups_, sum_supers_;
};

}  // namespace vq::speed
