// PSNR (spec/psnr.md): per-plane sums of squared errors on the device or the CPU, turned into
// PSNR, MSE and APSNR on the host. Everything the twins share lives here.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "feature/registry.hpp"

namespace vq::psnr {

FeatureDefinition definition();

// The per-frame result block: exact integer sums of squared differences, one per plane.
struct Block {
    std::array<std::uint64_t, 3> sse;
};

struct Options {
    bool enable_chroma = true;
    bool enable_mse = false;
    bool enable_apsnr = false;
    bool reduced_hbd_peak = false;
    double min_sse = 0;

    static Options from(const OptionValues& values);
};

// Host side of both twins: validates the format, fixes peaks and caps (spec §3), turns a block
// into scores (§4) and accumulates APSNR (§5) in frame order.
class Scorer {
public:
    using Block = psnr::Block;

    explicit Scorer(const OptionValues& values) : options_(Options::from(values)) {}

    void init(const VideoFormat& format);
    int plane_count() const { return planes_; }         // planes whose SSE the twins must compute
    bool every_frame() const { return true; }           // APSNR sums every frame, as libvmaf's does
    bool outputs_listed_first() const { return true; }  // libvmaf's temporal extractor
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores);
    std::vector<std::pair<std::string, double>> aggregates() const;
    // No state between frames but the sums enable_apsnr writes, which need the whole run.
    ChunkContext chunk_context() const;

private:
    Options options_;
    int planes_ = 0;
    std::uint32_t peak_ = 0;
    std::array<std::uint64_t, 3> samples_{};  // per plane, per frame
    std::array<double, 3> cap_{};
    std::array<std::uint64_t, 3> total_sse_{};
    std::array<std::uint64_t, 3> total_samples_{};
};

}  // namespace vq::psnr
