// PSNR (spec/psnr.md): per-plane sums of squared errors on the device or the CPU, turned into
// PSNR, MSE and APSNR on the host. Everything the twins share lives here.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/registry.hpp"

namespace vq {

FeatureDefinition psnr_definition();

// The per-frame result block: exact integer sums of squared differences, one per plane.
struct PsnrBlock {
    std::array<std::uint64_t, 3> sse;
};

struct PsnrOptions {
    bool enable_chroma = true;
    bool enable_mse = false;
    bool enable_apsnr = false;
    bool reduced_hbd_peak = false;
    double min_sse = 0;

    static PsnrOptions from(const OptionValues& values);
};

// Host side of both twins: validates the format, fixes peaks and caps (spec §3), turns a block
// into scores (§4) and accumulates APSNR (§5) in frame order.
class PsnrScorer {
public:
    explicit PsnrScorer(const PsnrOptions& options) : options_(options) {}

    void init(const VideoFormat& format);
    int plane_count() const { return planes_; }  // planes whose SSE the twins must compute
    std::vector<std::string> outputs() const;
    void finish(const PsnrBlock& block, std::span<double> scores);
    std::vector<std::pair<std::string, double>> aggregates() const;

private:
    PsnrOptions options_;
    int planes_ = 0;
    std::uint32_t peak_ = 0;
    std::array<std::uint64_t, 3> samples_{};  // per plane, per frame
    std::array<double, 3> cap_{};
    std::array<std::uint64_t, 3> total_sse_{};
    std::array<std::uint64_t, 3> total_samples_{};
};

}  // namespace vq
