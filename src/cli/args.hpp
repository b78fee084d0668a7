// The command line: libvmaf's flags plus vq's own (--backend, --gpu, --precision, ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distorted_list.hpp"
#include "vq/input.hpp"
#include "vq/report.hpp"
#include "vq/run.hpp"
#include "vq/session.hpp"

namespace vq::cli {

// What `vq -r REF -d DIST` computes, as libvmaf's CLI does.
inline constexpr std::string_view default_model = "version=vmaf_v0.6.1";

struct Arguments {
    std::string reference;
    // -d (repeatable), then --distorted_list's lines. Several: one output per input (-o FOLDER/).
    std::vector<DistortedArgument> distorted;
    int width = 0;
    int height = 0;
    std::string pixel_format;        // raw YUV: 420, 422, 444, 400
    int bit_depth = 0;               // raw YUV
    std::optional<ScaleSpec> scale;  // --scale: the distorted videos' pictures are scaled to this
    unsigned decode_threads = 0;     // FFmpeg decoder threads per input; 0: FFmpeg's choice
    unsigned decode_sessions = 0;    // FFmpeg decoders per input; 0: automatic
    HardwareDecoding hwdec = HardwareDecoding::automatic;  // --hwdec
    // --feature and the presets' features, in order (a preset's features yield to an earlier
    // request writing the same outputs, as in libvmaf)
    std::vector<JobFeature> features;
    std::vector<std::string> models;  // --model strings and the presets' models, in order (the
                                      // default model when none is asked for)
    std::string output;
    PoolingRequest pooling;  // --pool and --shots (the shot file is read by parse_arguments)
    std::string report;      // --report: the HTML report's path
    OutputFormat format = OutputFormat::xml;  // libvmaf's default when -o is given
    NumberStyle number_style;
    SessionConfig session;
    FrameRange loop;
    bool no_prediction = false;  // -n: the models' features are computed, their scores are not
    bool quiet = false;
    bool list_features = false;
    bool list_models = false;
    bool demo = false;
    bool version = false;
    bool help = false;
    std::string help_text;  // formatted only with --help

    bool raw_input() const { return width || height || !pixel_format.empty() || bit_depth; }
};

// Parses argv. Throws vq::Error (usage) with a one-line message for any bad flag or value.
Arguments parse_arguments(int argc, char** argv);

}  // namespace vq::cli
