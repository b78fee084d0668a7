// Motion's options and the host-side scoring shared by both twins.
#include "metrics/motion/motion.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "metrics/toolkit/definition.hpp"
#include "vq/error.hpp"

namespace vq::motion {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_cuda(const OptionValues& values);

FeatureDefinition definition() {
    return {
        .name = "motion",
        .description =
            "integer motion (VMAF): VMAF_integer_feature_motion_sad_score, "
            "integer_motion2, integer_motion3",
        .options =
            {
                boolean_option("motion_force_zero", false, "force_0", "report zero motion"),
                real_option("motion_fps_weight", 1.0, 0, 5, "mfw",
                            "multiply each SAD score by this"),
                real_option("motion_max_val", 10000.0, 0, 10000, "mmxv",
                            "clip SAD scores and motion3 to this"),
                real_option("motion_blend_factor", 1.0, 0, 1, "mbf",
                            "motion3 blend: x*mbf + (1-mbf)*min(mbo, x)"),
                real_option("motion_blend_offset", 40.0, 0, 1000, "mbo", "motion3 blend offset"),
                boolean_option("motion_five_frame_window", false, "mffw",
                               "compare each frame with the one two frames back"),
                boolean_option("motion_moving_average", false, "mma",
                               "motion3 is the mean of this and the previous frame's value"),
                boolean_option("debug", false, "", "also emit integer_motion (= the SAD score)"),
            },
        .make_cpu = make_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_cuda),
    };
}

Options Options::from(const OptionValues& values) {
    return {values.get_bool("motion_force_zero"),
            values.get_double("motion_fps_weight"),
            values.get_double("motion_max_val"),
            values.get_double("motion_blend_factor"),
            values.get_double("motion_blend_offset"),
            values.get_bool("motion_five_frame_window"),
            values.get_bool("motion_moving_average"),
            values.get_bool("debug"),
            values.output_suffix()};
}

void Scorer::init(const VideoFormat& format) {
    if (format.width < min_dimension || format.height < min_dimension)
        throw usage_error(
            fmt::format("motion needs frames of at least {0}x{0}; this video is {1}x{2}",
                        min_dimension, format.width, format.height));
    samples_ = double(format.width) * double(format.height);
}

std::vector<std::string> Scorer::outputs() const {
    std::vector<std::string> names = {"VMAF_integer_feature_motion_sad_score" +
                                      options_.output_suffix};
    if (options_.debug) names.push_back("integer_motion" + options_.output_suffix);
    return names;
}

void Scorer::finish(const Block& block, std::span<double> scores) {
    double score = 0;
    if (block.has_previous && !options_.force_zero)
        score = std::min(double(block.sad) / 256.0 / samples_ * options_.fps_weight,
                         options_.max_value);
    sad_scores_.push_back(score);
    std::fill(scores.begin(), scores.end(), score);
}

std::vector<std::string> Scorer::flushed_outputs() const {
    return {"integer_motion2" + options_.output_suffix, "integer_motion3" + options_.output_suffix};
}

// spec/vmaf-v1.md §3, which covers vmaf.md §3.3 and the five-frame window in one rule: the
// frames before the first SAD get 0 (motion2) and the first SAD, clipped (motion3); the last frame
// keeps its own SAD; every other frame takes the smaller of its neighbours' (the five-frame window:
// the previous and the next frame's) or the next frame's alone where it has no earlier SAD.
namespace {
// The reference's MIN(a, b): b when a is not the smaller (std::min returns a on a tie).
double smaller(double a, double b) { return a < b ? a : b; }
}  // namespace

double Scorer::motion2(std::size_t frame, bool last) const {
    const std::vector<double>& s = sad_scores_;
    const std::size_t first_sad = std::size_t(options_.lag());
    if (frame < first_sad) return 0;
    if (last) return s[frame];
    const std::size_t before = options_.five_frame_window ? frame - 1 : frame;
    return before >= first_sad ? smaller(s[before], s[frame + 1]) : s[frame + 1];
}

double Scorer::clip(double motion) const {
    const double blended = motion * options_.blend_factor +
                           (1.0 - options_.blend_factor) * smaller(options_.blend_offset, motion);
    return smaller(blended, options_.max_value);
}

// Counted in frames of the chunk's run, whose first `before` frames are read only: frames below
// lag() have no SAD (the whole run's frames there have one), so an emitted frame needs lag() frames
// before it for its own SAD, one more for the previous SAD motion2 takes with the five-frame
// window, and one more for the previous frame's motion2 that motion3's moving average takes.
// After: motion2 takes the next frame's SAD (the run's last frame keeps its own, and a chunk that
// ends there reads no further), and the frames below lag() take motion3's stamp, clip(s[lag]),
// from frame lag(): lag() frames after covers both.
ChunkContext Scorer::chunk_context() const {
    const std::size_t lag = std::size_t(options_.lag());
    return {lag + (options_.five_frame_window ? 1 : 0) + (options_.moving_average ? 1 : 0), lag};
}

std::size_t Scorer::frames_settled(std::size_t finished) const {
    return finished > std::size_t(options_.lag()) ? finished - 1 : 0;
}

void Scorer::flush(std::size_t first, bool end_of_run,
                   std::span<std::vector<double>> columns) const {
    const std::size_t n = sad_scores_.size();
    const std::size_t first_sad = std::size_t(options_.lag());
    const double stamp = n > first_sad ? clip(sad_scores_[first_sad]) : 0.0;
    std::vector<double>& motion2_column = columns[0];
    std::vector<double>& motion3_column = columns[1];
    // motion3 averages with the previous frame's clipped motion2 (the stamp before the first SAD).
    double previous = first == 0 || first - 1 < first_sad ? stamp : clip(motion2(first - 1, false));
    for (std::size_t i = 0; i < motion2_column.size(); ++i) {
        const std::size_t frame = first + i;
        const double m2 = motion2(frame, end_of_run && frame == n - 1);
        motion2_column[i] = m2;
        if (frame < first_sad) {
            motion3_column[i] = stamp;
            previous = stamp;
        } else {
            const double clipped = clip(m2);
            motion3_column[i] = options_.moving_average ? (clipped + previous) / 2.0 : clipped;
            previous = clipped;
        }
    }
}

}  // namespace vq::motion
