// vq's command line: a thin shell over the library (include/vq/session.hpp).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "cli/args.hpp"
#include "cli/interrupt.hpp"
#include "cli/output_file.hpp"
#include "cli/progress.hpp"
#include "engine/driver.hpp"
#include "io/frame_source.hpp"
#include "io/open_video.hpp"
#include "io/scale.hpp"
#include "model/model.hpp"
#include "vq/demo.hpp"
#include "vq/error.hpp"

namespace vq::cli {
namespace {

constexpr int exit_runtime = 1;
constexpr int exit_usage = 2;

// Y4M, raw YUV (-w -h -p -b), "-" (Y4M on standard input) or, through FFmpeg, any container.
OpenedInput open_input(const Arguments& args, const std::string& path) {
    InputOptions options;
    options.decode.threads = args.decode_threads;
    if (args.raw_input()) {
        static const std::pair<const char*, ChromaFormat> formats[] = {
            {"420", ChromaFormat::yuv420},
            {"422", ChromaFormat::yuv422},
            {"444", ChromaFormat::yuv444},
            {"400", ChromaFormat::yuv400}};
        VideoFormat format{args.width, args.height, args.bit_depth, ChromaFormat::yuv420};
        for (const auto& [name, chroma] : formats)
            if (args.pixel_format == name) format.chroma = chroma;
        validate(format);
        options.raw = format;
        // As the reference does: score the whole frames, and say what was left over.
        options.on_trailing_bytes = [path, frame_bytes = format.frame_bytes()](std::size_t bytes) {
            std::cerr << fmt::format(
                "vq: warning: '{}' ends with {} bytes that are not a whole frame ({} bytes); "
                "scoring the whole frames before them\n",
                one_line(path), bytes, frame_bytes);
        };
    }
    return open_video(path, options);
}

// The pooled scores, model scores first (the VMAF a user looks for), then every feature's with
// the backend that computed it.
void print_summary(std::ostream& out, const ScoreTable& table, const NumberStyle& style) {
    const auto backend_of = [&](std::size_t column) -> std::optional<std::string> {
        for (const auto& receipt : table.receipts())
            if (std::find(receipt.outputs.begin(), receipt.outputs.end(), table.name(column)) !=
                receipt.outputs.end())
                return receipt.backend;
        return std::nullopt;  // no feature wrote it: a model's score
    };
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < table.column_count(); ++c)
        if (!backend_of(c)) order.push_back(c);
    for (std::size_t c = 0; c < table.column_count(); ++c)
        if (backend_of(c)) order.push_back(c);

    std::size_t width = 8;
    for (std::size_t c = 0; c < table.column_count(); ++c)
        width = std::max(width, table.name(c).size());
    out << fmt::format("{:<{}}  {:>12} {:>12} {:>12}   backend\n", "feature", width, "mean", "min",
                       "max");
    for (const std::size_t c : order) {
        const auto cell = [&](PoolingMethod m) {
            const auto v = table.pooled(c, m);
            return v ? format_number(*v, style) : std::string("-");
        };
        out << fmt::format("{:<{}}  {:>12} {:>12} {:>12}   {}\n", table.name(c), width,
                           cell(PoolingMethod::mean), cell(PoolingMethod::min),
                           cell(PoolingMethod::max), backend_of(c).value_or("model"));
    }
    for (const auto& [name, value] : table.aggregates())
        out << fmt::format("{:<{}}  {:>12}\n", name, width, format_number(value, style));
}

void announce_fallbacks(const Session& session, const Arguments& args) {
    if (args.session.backend == Backend::cpu) return;
    for (const auto& receipt : session.receipts())
        if (receipt.backend == "cpu")
            std::cerr << fmt::format("vq: feature '{}' has no CUDA twin; it runs on the CPU\n",
                                     receipt.feature);
}

// Once per run, what a feature's receipt says about how it computed its scores (e.g. the CUDA
// CAMBI's frames whose score may differ from the reference's in the last digits).
void announce_receipt_notes(const ScoreTable& table) {
    for (const auto& receipt : table.receipts())
        for (const auto& note : receipt.notes)
            if (note.count > 0 && !note.message.empty())
                std::cerr << fmt::format("vq: {}: {}\n", receipt.feature, note.message);
}

ScoreTable run_demo(const Arguments& args, bool progress_enabled) {
    const VideoFormat format = demo_format();
    const int frames = demo_frame_count;
    Session session(args.session);
    for (const auto& model : args.models) session.add_model(model);
    for (const char* feature : {"psnr", "ciede", "cambi"}) session.add_feature(feature);
    for (const auto& feature : args.features)
        session.add_feature(feature.request, feature.on_collision);
    session.start(format);
    announce_fallbacks(session, args);
    if (!args.quiet)
        std::cerr << fmt::format(
            "vq demo: {} frames of a synthetic {} clip (banded gradient over texture)\n", frames,
            describe(format));
    ProgressLine progress(std::cerr, progress_enabled, frames);
    for (int i = 0; i < frames; ++i) {
        session.push(demo_frame(i));
        progress.update(std::size_t(i + 1));
    }
    progress.finish();
    return session.finish();
}

ScoreTable run_files(const Arguments& args, bool progress_enabled) {
    Session session(args.session);
    // The models' features first, then the --feature requests: libvmaf's registration order.
    for (const auto& model : args.models)
        args.no_prediction ? session.add_model_features(model) : session.add_model(model);
    for (const auto& feature : args.features)
        session.add_feature(feature.request, feature.on_collision);
    const bool needs_reference = session.needs_reference();
    if (needs_reference && args.reference.empty())
        throw usage_error("-r/--reference is required by the requested features");

    OpenedInput distorted_input = open_input(args, args.distorted);
    auto distorted = std::move(distorted_input.source);
    if (args.scale) distorted = scale_frames(std::move(distorted), *args.scale);
    std::unique_ptr<FrameSource> reference;
    if (needs_reference) {
        OpenedInput reference_input = open_input(args, args.reference);
        reference = std::move(reference_input.source);
        check_compatible(*reference, *distorted);
        report_frame_rates(reference_input, distorted_input, std::cerr);
    }
    session.start(distorted->format());
    announce_fallbacks(session, args);
    if (const auto allocator = session.buffer_allocator()) {
        distorted->set_allocator(allocator);
        if (reference) reference->set_allocator(allocator);
    }
    // As many frames ahead as the backends need to stay busy, no more: each costs its size.
    const ReadAheadPlan plan = session.read_ahead_plan();
    distorted = read_ahead(std::move(distorted), plan.frames, plan.threads);
    if (reference) reference = read_ahead(std::move(reference), plan.frames, plan.threads);

    ProgressLine progress(std::cerr, progress_enabled, distorted_input.frame_count);
    ScoreTable table = run_frame_loop(session, reference.get(), *distorted, args.loop, std::cerr,
                                      [&](std::size_t frames) { progress.update(frames); });
    progress.finish();
    return table;
}

int run(int argc, char** argv) {
    const Arguments args = parse_arguments(argc, argv);
    if (args.help) {
        std::cout << args.help_text;
        return 0;
    }
    if (args.version) {
        std::cerr << "vq " << VQ_VERSION << "\n";
        return 0;
    }
    if (args.list_features) {
        std::cout << describe_features();
        return 0;
    }
    if (args.list_models) {
        std::cout << model::describe_models();
        return 0;
    }
    const bool terminal = isatty(STDERR_FILENO);
    exit_cleanly_on_interrupt();
    // Checked and opened before any work, so that a bad path fails at once, not after the run.
    std::optional<OutputFile> output;
    if (!args.output.empty()) output.emplace(args.output);

    ScoreTable table = args.demo ? run_demo(args, terminal && !args.quiet)
                                 : run_files(args, terminal && !args.quiet);
    announce_receipt_notes(table);
    if (output)
        output->publish([&](std::ostream& out) {
            write_report(out, table, args.format, args.number_style, {VQ_VERSION});
        });
    if ((terminal && !args.quiet) || !output) print_summary(std::cerr, table, args.number_style);
    return 0;
}

}  // namespace
}  // namespace vq::cli

int main(int argc, char** argv) {
    using vq::one_line;
    try {
        return vq::cli::run(argc, argv);
    } catch (const vq::Error& e) {
        std::cerr << "vq: " << e.what() << "\n";
        return e.kind() == vq::ErrorKind::usage ? vq::cli::exit_usage : vq::cli::exit_runtime;
    } catch (const std::bad_alloc&) {
        std::cerr << "vq: out of memory (the machine or a limit such as ulimit -v gave no more)\n";
        return vq::cli::exit_runtime;
    } catch (const std::system_error& e) {
        std::cerr << "vq: the system refused a resource: " << one_line(e.what()) << "\n";
        return vq::cli::exit_runtime;
    } catch (const std::exception& e) {
        std::cerr << "vq: " << one_line(e.what()) << "\n";
        return vq::cli::exit_runtime;
    }
}
