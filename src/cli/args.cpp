#include "args.hpp"

#include <algorithm>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "presets.hpp"
#include "vq/error.hpp"

namespace vq::cli {
namespace {

NumberStyle parse_precision(const std::string& text) {
    if (text == "max" || text == "full") return NumberStyle::significant(17);
    if (text == "legacy" || text == "libvmaf") return NumberStyle::libvmaf_default();
    int digits = 0;
    try {
        std::size_t used = 0;
        digits = std::stoi(text, &used);
        if (used != text.size()) digits = 0;
    } catch (const std::exception&) {
        digits = 0;
    }
    if (digits < 1 || digits > 17)
        throw usage_error(
            fmt::format("--precision: expected max, legacy or 1..17, got '{}'", text));
    return NumberStyle::significant(digits);
}

Backend parse_backend(const std::string& text) {
    if (text == "cpu") return Backend::cpu;
    if (text == "cuda") return Backend::cuda;
    if (text == "auto") return Backend::automatic;
    throw usage_error(fmt::format("--backend: expected cpu, cuda or auto, got '{}'", text));
}

HardwareDecoding parse_hwdec(const std::string& text, Backend backend) {
    if (text == "auto") return HardwareDecoding::automatic;
    if (text == "none") return HardwareDecoding::none;
    if (text != "cuda")
        throw usage_error(fmt::format("--hwdec: expected auto, cuda or none, got '{}'", text));
    if (backend == Backend::cpu)
        throw usage_error(
            "--hwdec cuda needs --backend cuda or auto: the CPU backend takes no "
            "pictures decoded on the GPU");
    return HardwareDecoding::cuda;
}

// --feature, --model and the presets in command-line order: a preset expands where it stands
// (spec/cli-and-output.md §5.3).
void collect_requests(const CLI::App& app, const std::vector<std::string>& features,
                      const std::vector<std::string>& models,
                      const std::vector<std::string>& aom_ctc,
                      const std::vector<std::string>& nflx_ctc, Arguments& args) {
    std::size_t next_feature = 0, next_model = 0, next_aom = 0, next_nflx = 0;
    const auto expand = [&](std::string_view flag, const std::string& version) {
        PresetExpansion preset = expand_preset(flag, version);
        args.models.insert(args.models.end(), preset.models.begin(), preset.models.end());
        for (std::string& feature : preset.features)
            args.features.push_back({std::move(feature), Session::OnCollision::keep_first});
    };
    for (const CLI::Option* option : app.parse_order()) {
        const std::string name = option->get_name();
        if (name == "--feature") args.features.push_back({features.at(next_feature++)});
        if (name == "--model") args.models.push_back(models.at(next_model++));
        if (name == "--aom_ctc") expand("aom_ctc", aom_ctc.at(next_aom++));
        if (name == "--nflx_ctc") expand("nflx_ctc", nflx_ctc.at(next_nflx++));
    }
}

// Decoder sessions per input: a GPU has a handful of decoding engines, and each session holds
// its own surfaces and a chunk of decoded pictures.
constexpr unsigned max_decode_sessions = 16;

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// CLI11 explains failures over several lines; vq's errors are one line.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

Arguments parse_arguments(int argc, char** argv) {
    Arguments args;
    CLI::App app{
        "vq: video quality metrics (VMAF, PSNR, CAMBI, CIEDE2000) on the CPU and CUDA, "
        "with libvmaf's flags and output formats",
        "vq"};
    app.set_help_flag();  // -h is --height, as in libvmaf
    app.add_flag("--help", args.help, "print this help and exit");

    unsigned threads = 0, subsample = 1, frame_cnt = 0, skip_ref = 0, skip_dist = 0;
    std::string precision = "legacy", backend = "cpu", hwdec = "auto";
    int gpu = 0;
    bool json = false, xml = false, csv = false, sub = false;
    bool& no_prediction = args.no_prediction;

    app.add_option(
        "-r,--reference", args.reference,
        "reference video: .y4m, raw .yuv with -w -h -p -b, any container FFmpeg reads (mp4, mkv, "
        "webm, mov ...), or - for a Y4M stream on standard input");
    std::vector<std::string> distorted;
    app.add_option("-d,--distorted", distorted,
                   "distorted video (as -r); repeat it to score several against the reference, "
                   "which is read once (then -o names a folder: one output per input)")
        ->allow_extra_args(false);
    std::string distorted_list;
    app.add_option("--distorted_list", distorted_list,
                   "text file of distorted videos, one per line, each optionally followed by "
                   "--scale WxH[:filter] (scored as more -d)");
    app.add_option("-w,--width", args.width, "raw YUV width")->check(CLI::PositiveNumber);
    app.add_option("-h,--height", args.height, "raw YUV height")->check(CLI::PositiveNumber);
    app.add_option("-p,--pixel_format", args.pixel_format, "raw YUV layout")
        ->check(CLI::IsMember({"420", "422", "444", "400"}));
    app.add_option("-b,--bitdepth", args.bit_depth, "raw YUV bit depth")->check(CLI::Range(8, 16));
    std::string scale;
    app.add_option("--scale", scale,
                   "scale the distorted video to WxH (the reference's size) with libswscale: WxH "
                   "or WxH:filter "
                   "(bicubic by default; bilinear, lanczos, neighbor, area, spline ...)");
    app.add_option("--decode-threads", args.decode_threads,
                   "FFmpeg decoder threads per input (default: FFmpeg's choice, about one per "
                   "core; at most one per core)");
    app.add_option("--decode-sessions", args.decode_sessions,
                   "FFmpeg decoders per input, each on its own chunks from one keyframe to the "
                   "next (default 0: automatic, three NVDEC sessions for a video of 400 frames "
                   "or more decoded on the GPU, else one)")
        ->check(CLI::Range(0u, max_decode_sessions));
    std::vector<std::string> features, models, aom_ctc, nflx_ctc;
    app.add_option("--feature", features,
                   "feature to compute: NAME or NAME=key=val:key=val (repeatable)");
    app.add_option(
        "-m,--model", models,
        "VMAF model (repeatable): version=NAME or path=FILE.json, then :name=N, :enable_transform, "
        ":disable_clip, :FEATURE.OPTION=VALUE; default version=vmaf_v0.6.1 when no --feature is "
        "given");
    app.add_option("--aom_ctc", aom_ctc,
                   "AOM common test conditions: the models and features of this version (" +
                       describe_preset_versions("aom_ctc") + ")");
    app.add_option("--nflx_ctc", nflx_ctc,
                   "Netflix common test conditions: the models and features of this version (" +
                       describe_preset_versions("nflx_ctc") + ")");
    app.add_option("-o,--output", args.output, "write the scores to this file");
    std::string pool, shots;
    app.add_option("--pool", pool,
                   "also pool these percentiles, e.g. p1,p5,p50 (linear interpolation, as "
                   "numpy's default), in every output and the summary");
    app.add_option("--shots", shots,
                   "text file of the frame numbers where shots start, one per line, sorted: "
                   "every score is also pooled per shot");
    app.add_option("--report", args.report,
                   "write a self-contained HTML report here: per-frame curves, pooled table, "
                   "worst frames");
    app.add_flag("--xml", xml, "output format XML (default)");
    app.add_flag("--json", json, "output format JSON");
    app.add_flag("--csv", csv, "output format CSV");
    app.add_flag("--sub", sub, "output format SUB (MicroDVD subtitles)");
    app.add_option("--threads", threads,
                   "CPU worker threads (default: every core; more than one per core is capped)")
        ->check(CLI::PositiveNumber);
    app.add_option("--subsample", subsample, "score only every Nth frame")
        ->check(CLI::PositiveNumber);
    app.add_option("--frame_cnt", frame_cnt, "stop after N frame pairs")
        ->check(CLI::PositiveNumber);
    app.add_option("--frame_skip_ref", skip_ref, "skip the first N reference frames");
    app.add_option("--frame_skip_dist", skip_dist, "skip the first N distorted frames");
    app.add_flag("-n,--no_prediction", no_prediction,
                 "compute no VMAF model, only the --feature requests");
    app.add_flag("-q,--quiet", args.quiet, "no progress line and no summary");
    app.add_flag("-v,--version", args.version, "print the version and exit");
    app.add_option("--backend", backend, "cpu, cuda or auto (cuda when a usable GPU is present)");
    app.add_option("--gpu", gpu, "CUDA device ordinal")->check(CLI::NonNegativeNumber);
    app.add_option("--hwdec", hwdec,
                   "decode H.264, HEVC, VP9 and AV1 inputs on the GPU (NVDEC) for the CUDA "
                   "backend: auto (where it can; the default), cuda (or fail) or none");
    app.add_option("--precision", precision,
                   "number format: legacy (libvmaf's), max (%.17g) or N (%.Ng)");
    app.add_flag("--list-features", args.list_features,
                 "list the features, their backends and options");
    app.add_flag("--list-models", args.list_models,
                 "list the built-in models (for -m version=NAME), each with its intended display, "
                 "viewing distance and frame rate");
    app.add_flag("--demo", args.demo, "score a built-in synthetic clip (no input files needed)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        throw usage_error(first_line(e.what()));
    }
    if (args.help) args.help_text = app.help();  // formatting it costs every run ~0.2 ms
    if (args.help || args.version || args.list_features || args.list_models) return args;
    if (app.count("--output") > 0 && args.output.empty())
        throw usage_error("-o/--output: empty file name");
    if (app.count("--report") > 0 && args.report.empty())
        throw usage_error("--report: empty file name");
    if (app.count("--pool") > 0) args.pooling.percentiles = parse_pool_list(pool);
    if (app.count("--shots") > 0) args.pooling.shots = read_shot_file(shots);
    if (no_prediction && !models.empty())
        throw usage_error("--no_prediction and --model contradict each other");

    // The last output-format flag on the command line wins, as in libvmaf.
    for (const CLI::Option* option : app.parse_order()) {
        const std::string name = option->get_name();
        if (name == "--xml") args.format = OutputFormat::xml;
        if (name == "--json") args.format = OutputFormat::json;
        if (name == "--csv") args.format = OutputFormat::csv;
        if (name == "--sub") args.format = OutputFormat::sub;
    }
    collect_requests(app, features, models, aom_ctc, nflx_ctc, args);
    args.number_style = parse_precision(precision);
    args.session.backend = parse_backend(backend);
    args.hwdec = parse_hwdec(hwdec, args.session.backend);
    args.session.threads = threads;
    // More decoder threads than cores only take turns on them (and each holds frames).
    args.decode_threads = std::min(args.decode_threads, hardware_threads());
    args.session.subsample = subsample;
    args.session.gpu = gpu;
    args.loop = {frame_cnt, skip_ref, skip_dist};

    if (!scale.empty()) args.scale = parse_scale(scale);
    // libvmaf's default model. vq adds it only when no --feature is given either, so that
    // `--feature cambi` stays a CAMBI run (README: differences).
    if (args.models.empty() && args.features.empty() && !no_prediction)
        args.models.push_back(std::string(default_model));
    if (args.demo) return args;
    for (std::string& path : distorted) args.distorted.push_back({std::move(path), std::nullopt});
    if (!distorted_list.empty()) {
        std::vector<DistortedArgument> listed = read_distorted_list(distorted_list);
        args.distorted.insert(args.distorted.end(), listed.begin(), listed.end());
    }
    if (args.distorted.empty())
        throw usage_error("-d/--distorted is required (or --distorted_list, or --demo)");
    const bool reads_standard_input =
        std::any_of(args.distorted.begin(), args.distorted.end(),
                    [](const DistortedArgument& input) { return input.path == "-"; });
    if (args.reference == "-" && reads_standard_input)
        throw usage_error("-r and -d cannot both read standard input ('-')");
    if (args.distorted.size() > 1 && reads_standard_input)
        throw usage_error("-d -: standard input cannot be one of several distorted inputs");
    if (args.raw_input() &&
        (!args.width || !args.height || args.pixel_format.empty() || !args.bit_depth))
        throw usage_error(
            "raw YUV input needs all of -w/--width, -h/--height, -p/--pixel_format, -b/--bitdepth");
    if (args.models.empty() && args.features.empty())
        throw usage_error(
            "nothing to compute: --no_prediction needs at least one --feature NAME (vq "
            "--list-features)");
    return args;
}

}  // namespace vq::cli
