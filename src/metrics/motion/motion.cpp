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

// spec/vmaf-v1.md §3, which covers vmaf.md §3.3 and the five-frame window in one rule.
void Scorer::flush(std::span<std::vector<double>> columns) const {
    const std::vector<double>& s = sad_scores_;
    const std::size_t n = s.size();
    const std::size_t first = std::size_t(options_.lag());  // the first frame that has a SAD
    const auto min = [](double a, double b) { return a < b ? a : b; };
    const auto clip = [&](double x) {
        const double blended = x * options_.blend_factor +
                               (1.0 - options_.blend_factor) * min(options_.blend_offset, x);
        return min(blended, options_.max_value);
    };
    std::vector<double>& motion2 = columns[0];
    std::vector<double>& motion3 = columns[1];
    const double stamp = n > first ? clip(s[first]) : 0.0;
    double previous = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i < first)
            motion2[i] = 0;
        else if (i == n - 1)
            motion2[i] = s[i];
        else if (const std::size_t before = options_.five_frame_window ? i - 1 : i; before >= first)
            motion2[i] = min(s[before], s[i + 1]);
        else
            motion2[i] = s[i + 1];

        if (i < first) {
            motion3[i] = stamp;
            previous = stamp;
        } else {
            const double clipped = clip(motion2[i]);
            motion3[i] = options_.moving_average ? (clipped + previous) / 2.0 : clipped;
            previous = clipped;
        }
    }
}

}  // namespace vq::motion
