// vq::write_html_report: each input's worst-frame thumbnails and bitrate gathered by reading its
// job's inputs again after the run (vq/html_report.hpp says why), then the page written.
#include "vq/html_report.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "io/open_video.hpp"
#include "io/scale.hpp"
#include "report/html_report.hpp"
#include "report/thumbnails.hpp"

namespace vq {
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

// The input's part of the page: its job's inputs read again, up to its worst frames.
report::ReportInput gather(const HtmlReportInput& input) {
    report::ReportInput gathered{input.name, input.table, input.pooling, std::nullopt, {}, {}};
    const Job* job = input.job;
    if (!job) {
        gathered.thumbnail_note = input.no_thumbnails_reason;
        return gathered;
    }
    const bool with_reference = !job->reference.path.empty();
    if (!readable_twice(job->distorted.path) ||
        (with_reference && !readable_twice(job->reference.path))) {
        gathered.thumbnail_note =
            "no thumbnails: the inputs cannot be read a second time (standard input or a pipe)";
        return gathered;
    }
    // The run said whatever there was to say about the inputs; the second reading is silent.
    const auto silent = [](const std::string&) {};
    OpenedInput distorted = open_input(job->distorted, silent);
    gathered.bits_per_second = bits_per_second(distorted);
    if (job->scale) distorted.source = scale_frames(std::move(distorted.source), *job->scale);
    std::unique_ptr<FrameSource> reference;
    if (with_reference) reference = open_input(job->reference, silent).source;
    // The run's frame 0 is after the skips.
    for (std::size_t i = 0; i < job->frames.skip_distorted && distorted.source->skip(); ++i) {}
    for (std::size_t i = 0; reference && i < job->frames.skip_reference && reference->skip(); ++i) {
    }
    if (const auto column = report::ranking_column(*input.table))
        gathered.worst = report::read_thumbnails(
            reference.get(), *distorted.source,
            report::worst_frames(*input.table, *column, worst_frame_count), thumbnail_width);
    return gathered;
}

}  // namespace

void write_html_report(std::ostream& out, const std::string& reference,
                       std::span<const HtmlReportInput> inputs) {
    std::vector<report::ReportInput> gathered;
    gathered.reserve(inputs.size());
    for (const HtmlReportInput& input : inputs) gathered.push_back(gather(input));
    report::write_html_page(out, reference, gathered);
}

}  // namespace vq
