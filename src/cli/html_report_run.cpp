#include "cli/html_report_run.hpp"

#include <filesystem>

#include "io/scale.hpp"
#include "report/html_report.hpp"

namespace vq::cli {
namespace {

constexpr std::size_t worst_frame_count = 4;
constexpr int thumbnail_width = 256;  // two side by side, four per input: a small page

bool readable_twice(const std::string& path) {
    std::error_code error;
    return path != "-" && std::filesystem::is_regular_file(path, error);
}

// File size x 8 / duration, the duration from the input's frame count and frame rate.
std::optional<double> bits_per_second(const OpenedInput& input) {
    std::error_code error;
    const auto bytes = std::filesystem::file_size(input.path, error);
    if (error || !input.frame_count || *input.frame_count == 0 || input.rate_num <= 0 ||
        input.rate_den <= 0)
        return std::nullopt;
    const double seconds =
        double(*input.frame_count) * double(input.rate_den) / double(input.rate_num);
    return double(bytes) * 8.0 / seconds;
}

}  // namespace

void publish_html_report(OutputFile& page, const Arguments& args, const ScoreTable& table,
                         const ExtraPooling& pooling, const InputOpener& open) {
    report::ReportInput input{
        args.demo ? "demo (synthetic)" : args.distorted, &table, pooling, std::nullopt, {}, {}};
    const bool with_reference = !args.reference.empty();
    if (readable_twice(args.distorted) && (!with_reference || readable_twice(args.reference))) {
        OpenedInput distorted = open(args.distorted);
        input.bits_per_second = bits_per_second(distorted);
        if (args.scale) distorted.source = scale_frames(std::move(distorted.source), *args.scale);
        std::unique_ptr<FrameSource> reference;
        if (with_reference) reference = open(args.reference).source;
        // The run's frame 0 is after the skips.
        for (std::size_t i = 0; i < args.loop.skip_distorted && distorted.source->skip(); ++i) {}
        for (std::size_t i = 0; reference && i < args.loop.skip_reference && reference->skip();
             ++i) {}
        if (const auto column = report::ranking_column(table))
            input.worst = report::read_thumbnails(
                reference.get(), *distorted.source,
                report::worst_frames(table, *column, worst_frame_count), thumbnail_width);
    } else if (args.demo) {
        input.thumbnail_note = "no thumbnails: the demo's frames are made, not read";
    } else {
        input.thumbnail_note =
            "no thumbnails: the inputs cannot be read a second time (standard input or a pipe)";
    }
    page.publish([&](std::ostream& out) {
        report::write_html_report(out,
                                  args.demo                ? "demo (synthetic)"
                                  : args.reference.empty() ? "(none)"
                                                           : args.reference,
                                  std::span(&input, 1));
    });
}

}  // namespace vq::cli
