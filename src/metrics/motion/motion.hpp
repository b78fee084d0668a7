// Integer motion (spec/vmaf.md §3, refined by spec/vmaf-v1.md §3): the SAD of the blurred
// difference between a reference frame and an earlier one, and the motion2/motion3 series that
// VMAF's models read, completed after the last frame. Everything both twins share lives here.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/planes.hpp"
#include "feature/registry.hpp"

namespace vq::motion {

FeatureDefinition definition();

// The 5-tap blur (sum 65536) applied to the difference image, on both axes, reflect-101 mirrored.
inline constexpr std::array<std::int32_t, 5> blur_taps = {3571, 16004, 26386, 16004, 3571};
inline constexpr int blur_radius = 2;
inline constexpr int min_dimension = blur_radius + 1;  // reflect-101 of radius 2 needs 3 samples

// The per-frame result block: the integer SAD against the frame `lag` frames back, if it exists.
struct Block {
    std::uint64_t sad;
    std::uint32_t has_previous;
};

struct Options {
    bool force_zero = false;
    double fps_weight = 1.0;
    double max_value = 10000.0;
    double blend_factor = 1.0;
    double blend_offset = 40.0;
    bool five_frame_window = false;
    bool moving_average = false;
    bool debug = false;
    std::string output_suffix;  // libvmaf's options-suffixed naming, e.g. "_mmxv_18"

    static Options from(const OptionValues& values);
    // Reference frames between the two frames a SAD compares (2 with the five-frame window).
    int lag() const { return five_frame_window ? 2 : 1; }
};

// Host side of both twins: SAD -> sad_score in frame order, then motion2/motion3 of each frame
// once the next frame is finished (the last frame's at the end of the run).
class Scorer {
public:
    using Block = motion::Block;

    explicit Scorer(const OptionValues& values) : options_(Options::from(values)) {}

    void init(const VideoFormat& format);
    const Options& options() const { return options_; }
    int history() const { return options_.lag(); }
    Planes planes() const { return Planes::luma; }
    ChunkContext chunk_context() const;
    bool every_frame() const { return true; }  // the series needs every frame, subsampled or not
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores);
    std::vector<std::string> flushed_outputs() const;
    // A frame's motion2 takes the next frame's SAD, and the first frames' motion3 the first SAD.
    std::size_t frames_settled(std::size_t finished) const;
    void flush(std::size_t first, bool end_of_run, std::span<std::vector<double>> columns) const;

private:
    double motion2(std::size_t frame, bool last) const;
    double clip(double motion) const;

    Options options_;
    double samples_ = 0;              // luma samples per frame
    std::vector<double> sad_scores_;  // s[i] of every finished frame, in order
};

// The SAD of one frame pair's blurred difference (spec/vmaf.md §3.2), on the luma planes of
// `previous` and `current`, with this CPU's best kernels or with the given ones.
struct Kernels;
std::uint64_t blurred_difference_sad(const Picture& previous, const Picture& current);
std::uint64_t blurred_difference_sad(const Picture& previous, const Picture& current,
                                     const Kernels& kernels);

}  // namespace vq::motion
