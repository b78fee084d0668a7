// vq's command line: a thin shell over the library's public API (include/vq/), which it alone
// builds against.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "args.hpp"
#include "interrupt.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "vq/demo.hpp"
#include "vq/error.hpp"
#include "vq/html_report.hpp"
#include "vq/pooling.hpp"
#include "vq/report.hpp"
#include "vq/run.hpp"
#include "vq/session.hpp"

namespace vq::cli {
namespace {

constexpr int exit_runtime = 1;
constexpr int exit_usage = 2;

// The raw YUV format of -w -h -p -b, when given.
std::optional<VideoFormat> raw_format(const Arguments& args) {
    if (!args.raw_input()) return std::nullopt;
    static const std::pair<const char*, ChromaFormat> formats[] = {{"420", ChromaFormat::yuv420},
                                                                   {"422", ChromaFormat::yuv422},
                                                                   {"444", ChromaFormat::yuv444},
                                                                   {"400", ChromaFormat::yuv400}};
    VideoFormat format{args.width, args.height, args.bit_depth, ChromaFormat::yuv420};
    for (const auto& [name, chroma] : formats)
        if (args.pixel_format == name) format.chroma = chroma;
    return format;
}

// The value of `method` in a pooled set, as the summary prints it ("-" when absent).
std::string summary_cell(const PoolSet& set, const std::string& method, const NumberStyle& style) {
    for (const PooledValue& v : set)
        if (v.method == method) return format_number(v.value, style);
    return "-";
}

// With --shots: each shot's pooled values of the summary's first score (the first model's).
void print_shot_summary(std::ostream& out, const ScoreTable& table, std::size_t column,
                        const ExtraPooling& extra, const NumberStyle& style) {
    if (extra.shots.empty()) return;
    std::vector<std::string> methods = {"mean", "min", "max"};
    methods.insert(methods.end(), extra.percentile_names.begin(), extra.percentile_names.end());
    out << fmt::format("\n{:<16}", "shot (" + table.name(column) + ")");
    for (const std::string& method : methods) out << fmt::format(" {:>12}", method);
    out << '\n';
    for (const ShotPooling& shot : extra.shots) {
        out << fmt::format("{:<16}", fmt::format("{}-{}", shot.first, shot.last));
        for (const std::string& method : methods)
            out << fmt::format(" {:>12}", summary_cell(shot.columns[column], method, style));
        out << '\n';
    }
}

// The pooled scores, model scores first (the VMAF a user looks for), then every feature's with
// the backend that computed it; with --pool, a column per percentile; with --shots, the shots.
void print_summary(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
                   const ExtraPooling& extra) {
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
    std::string percentile_header;
    for (const std::string& name : extra.percentile_names)
        percentile_header += fmt::format(" {:>12}", name);
    out << fmt::format("{:<{}}  {:>12} {:>12} {:>12}{}   backend\n", "feature", width, "mean",
                       "min", "max", percentile_header);
    for (const std::size_t c : order) {
        const PoolSet set = full_pool_set(table, c, extra);
        std::string percentiles;
        for (const std::string& name : extra.percentile_names)
            percentiles += fmt::format(" {:>12}", summary_cell(set, name, style));
        out << fmt::format("{:<{}}  {:>12} {:>12} {:>12}{}   {}\n", table.name(c), width,
                           summary_cell(set, "mean", style), summary_cell(set, "min", style),
                           summary_cell(set, "max", style), percentiles,
                           backend_of(c).value_or("model"));
    }
    for (const auto& [name, value] : table.aggregates())
        out << fmt::format("{:<{}}  {:>12}\n", name, width, format_number(value, style));
    if (!order.empty()) print_shot_summary(out, table, order.front(), extra, style);
}

// What runs on the CPU though the run asked for CUDA where it can be had: everything, said once,
// where --backend auto found no device; otherwise each feature without a CUDA twin.
void announce_fallbacks(const std::vector<FeatureReceipt>& receipts, const Arguments& args) {
    if (args.session.backend == Backend::cpu) return;
    if (resolve(args.session.backend) == Backend::cpu) {
        std::cerr << "vq: --backend auto: no usable CUDA device; every feature runs on the CPU\n";
        return;
    }
    for (const auto& receipt : receipts)
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
    announce_fallbacks(session.receipts(), args);
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

// What a file run tells the terminal: notes and warnings, the CPU fallbacks, the progress line
// (in a many-input run, with each input's progress, named as `input_names` say).
class TerminalObserver : public RunObserver {
public:
    TerminalObserver(const Arguments& args, bool progress_enabled,
                     std::vector<std::string> input_names = {})
        : args_(args), progress_enabled_(progress_enabled), input_names_(std::move(input_names)) {}

    void started(const std::vector<FeatureReceipt>& receipts,
                 std::optional<std::size_t> expected_frames) override {
        announce_fallbacks(receipts, args_);
        progress_.emplace(std::cerr, progress_enabled_, expected_frames, stderr_columns);
    }
    void note(const std::string& line) override { std::cerr << "vq: " << line << "\n"; }
    bool progress(std::size_t frames) override {
        progress_->update(frames);
        return true;  // Ctrl-C is the signal handlers' (interrupt.hpp)
    }
    bool inputs_progress(std::size_t frames, const std::vector<InputProgress>& inputs) override {
        progress_->update(frames, input_names_, inputs);
        return true;
    }
    void finish() {
        if (progress_) progress_->finish();
    }

private:
    const Arguments& args_;
    bool progress_enabled_;
    std::vector<std::string> input_names_;
    std::optional<ProgressLine> progress_;
};

// What `vq -r REF -d DIST ...` asks the library to do, for one of the distorted inputs.
Job file_job(const Arguments& args, const DistortedArgument& distorted) {
    Job job;
    job.reference = {args.reference, raw_format(args), args.decode_threads, args.decode_sessions};
    job.distorted = {distorted.path, raw_format(args), args.decode_threads, args.decode_sessions};
    job.scale = distorted.scale ? distorted.scale : args.scale;
    job.hwdec = args.hwdec;
    job.frames = args.loop;
    job.models = args.models;
    job.predict_models = !args.no_prediction;
    job.features = args.features;
    job.session = args.session;
    return job;
}

ScoreTable run_files(const Job& job, const Arguments& args, bool progress_enabled) {
    TerminalObserver observer(args, progress_enabled);
    ScoreTable table = vq::run(job, observer);
    observer.finish();
    return table;
}

std::string reference_name(const Arguments& args) {
    return args.demo ? "demo (synthetic)" : args.reference.empty() ? "(none)" : args.reference;
}

// --report: the run's page, its thumbnails read again from the job's inputs (none for the demo).
void write_html_page(std::ostream& out, const Arguments& args, const ScoreTable& table,
                     const ExtraPooling& pooling, const Job* job) {
    const HtmlReportInput input{args.demo ? "demo (synthetic)" : args.distorted.front().path,
                                &table, pooling, job,
                                "no thumbnails: the demo's frames are made, not read"};
    write_html_report(out, reference_name(args), std::span(&input, 1));
}

// A missing folder can be made when its nearest existing ancestor is a folder vq may write in.
bool can_be_made(const std::filesystem::path& folder) {
    std::filesystem::path ancestor = folder;
    std::error_code error;
    while (!ancestor.empty() && !std::filesystem::exists(ancestor, error))
        ancestor = ancestor.parent_path();
    if (ancestor.empty()) ancestor = ".";
    return std::filesystem::is_directory(ancestor, error) &&
           ::access(ancestor.c_str(), W_OK | X_OK) == 0;
}

// With several distorted inputs, -o names a folder, made when it ends with '/': each input's
// scores go to FOLDER/<its file name's stem>.<format>, a stem taken before getting -2, -3 ...
struct OutputFolder {
    std::filesystem::path folder;
    std::vector<std::string> paths;  // one per input
    // The folder is missing: it is made only once some input has scores, so that a run that is
    // interrupted or fails leaves no empty folder behind.
    bool to_make = false;
};

OutputFolder output_folder(const Arguments& args) {
    namespace fs = std::filesystem;
    OutputFolder out{args.output, {}, false};
    std::error_code error;
    out.to_make = args.output.ends_with('/') && !fs::exists(out.folder, error);
    if (out.to_make ? !can_be_made(out.folder) : !fs::is_directory(out.folder, error))
        throw usage_error(fmt::format(
            "-o/--output '{}': with several distorted inputs -o names a folder (end it with '/' "
            "to have it made){}",
            args.output, out.to_make ? ": it cannot be made there" : ""));
    static constexpr const char* extensions[] = {"xml", "json", "csv", "sub"};
    const char* extension = extensions[static_cast<int>(args.format)];
    std::set<std::string> taken;
    for (const DistortedArgument& input : args.distorted) {
        const std::string stem = fs::path(input.path).stem().string();
        std::string name = stem;
        for (int n = 2; !taken.insert(name).second; ++n) name = fmt::format("{}-{}", stem, n);
        out.paths.push_back((out.folder / fmt::format("{}.{}", name, extension)).string());
    }
    return out;
}

// The output files of an existing folder are opened, hence checked, before the run; those of a
// folder to be made, after it (what could fail there is the making, said then).
std::vector<std::optional<OutputFile>> open_outputs(const OutputFolder& out) {
    if (out.to_make) {
        std::error_code error;
        std::filesystem::create_directories(out.folder, error);
        if (error)
            throw runtime_error(fmt::format("-o/--output '{}': cannot make the folder: {}",
                                            out.folder.string(), error.message()));
    }
    std::vector<std::optional<OutputFile>> outputs(out.paths.size());
    for (std::size_t i = 0; i < out.paths.size(); ++i) outputs[i].emplace(out.paths[i]);
    return outputs;
}

// `vq -r REF -d A -d B ...`: the reference read once (vq::run_many); each input's outputs and
// summary as a run of its own would give them, an input that failed named with its error.
// Returns the exit status: 0, or that of the worst failure.
int run_many_files(const Arguments& args, bool progress_enabled) {
    std::optional<OutputFolder> folder;
    std::vector<std::optional<OutputFile>> outputs(args.distorted.size());
    if (!args.output.empty()) {
        folder = output_folder(args);
        if (!folder->to_make) outputs = open_outputs(*folder);
    }
    std::optional<OutputFile> report_page;
    if (!args.report.empty()) report_page.emplace(args.report);

    std::vector<Job> jobs;  // one per input, as its own run would be: the report reads them again
    std::vector<DistortedInput> inputs;
    std::vector<std::string> paths;
    for (const DistortedArgument& distorted : args.distorted) {
        jobs.push_back(file_job(args, distorted));
        inputs.push_back({jobs.back().distorted, jobs.back().scale});
        paths.push_back(distorted.path);
    }
    TerminalObserver observer(args, progress_enabled, progress_names(paths));
    std::vector<InputOutcome> outcomes = vq::run_many(jobs.front(), inputs, observer);
    observer.finish();
    if (folder && folder->to_make &&
        std::any_of(outcomes.begin(), outcomes.end(),
                    [](const InputOutcome& outcome) { return outcome.scores.has_value(); }))
        outputs = open_outputs(*folder);

    int status = 0;
    const auto fail = [&](const std::string& input, const Error& error) {
        std::cerr << fmt::format("vq: {}: {}\n", one_line(input), error.what());
        status = std::max(status, error.kind() == ErrorKind::usage ? exit_usage : exit_runtime);
    };
    std::vector<HtmlReportInput> pages;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const std::string& name = args.distorted[i].path;
        if (outcomes[i].error) {
            fail(name, *outcomes[i].error);
            continue;
        }
        const ScoreTable& table = *outcomes[i].scores;
        announce_receipt_notes(table);
        ReportInfo info{VQ_VERSION, {}};
        try {
            info.pooling = pool_extra(table, args.pooling);
        } catch (const Error& error) {
            fail(name, error);
            continue;
        }
        if (outputs[i])
            outputs[i]->publish([&](std::ostream& out) {
                write_report(out, table, args.format, args.number_style, info);
            });
        if (progress_enabled || args.output.empty()) {
            std::cerr << fmt::format("\n{}:\n", one_line(name));
            print_summary(std::cerr, table, args.number_style, info.pooling);
        }
        pages.push_back({name, &table, std::move(info.pooling), &jobs[i], {}});
    }
    if (report_page)
        report_page->publish(
            [&](std::ostream& out) { write_html_report(out, reference_name(args), pages); });
    return status;
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
        std::cout << describe_models();
        return 0;
    }
    const bool terminal = isatty(STDERR_FILENO);
    exit_cleanly_on_interrupt();
    if (args.distorted.size() > 1) return run_many_files(args, terminal && !args.quiet);
    // Checked and opened before any work, so that a bad path fails at once, not after the run.
    std::optional<OutputFile> output;
    if (!args.output.empty()) output.emplace(args.output);
    std::optional<OutputFile> report_page;
    if (!args.report.empty()) report_page.emplace(args.report);

    const std::optional<Job> job =
        args.demo ? std::nullopt : std::optional(file_job(args, args.distorted.front()));
    ScoreTable table = job ? run_files(*job, args, terminal && !args.quiet)
                           : run_demo(args, terminal && !args.quiet);
    announce_receipt_notes(table);
    const ReportInfo info{VQ_VERSION, pool_extra(table, args.pooling)};
    if (output)
        output->publish([&](std::ostream& out) {
            write_report(out, table, args.format, args.number_style, info);
        });
    if (report_page)
        report_page->publish([&](std::ostream& out) {
            write_html_page(out, args, table, info.pooling, job ? &*job : nullptr);
        });
    if ((terminal && !args.quiet) || !output)
        print_summary(std::cerr, table, args.number_style, info.pooling);
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
