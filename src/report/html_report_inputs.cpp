// vq::write_html_report: each input's worst-frame thumbnails (with CAMBI's banding map where
// CAMBI ran) and bitrate gathered by reading its job's inputs again after the run
// (vq/html_report.hpp says why), then the page written.
#include "vq/html_report.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "io/open_video.hpp"
#include "io/scale.hpp"
#include "report/banding_map.hpp"
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

// What the container says of the video stream's bitrate, else of the whole file's (audio and
// the container's own bytes too), else the file size x 8 / duration, the duration from the
// input's frame count and frame rate (Y4M, raw YUV, a container that gives neither).
std::optional<report::Bitrate> bitrate_of(const OpenedInput& input) {
    if (input.stream_bit_rate > 0)
        return report::Bitrate{double(input.stream_bit_rate), "container: video stream"};
    if (input.container_bit_rate > 0)
        return report::Bitrate{double(input.container_bit_rate), "container: whole file"};
    std::error_code error;
    const auto bytes = std::filesystem::file_size(input.path, error);
    if (error || !input.frame_count || *input.frame_count == 0 || input.rate_num <= 0 ||
        input.rate_den <= 0)
        return std::nullopt;
    const double seconds =
        double(*input.frame_count) * double(input.rate_den) / double(input.rate_num);
    return report::Bitrate{double(bytes) * 8.0 / seconds, "file size / duration"};
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
    gathered.bitrate = bitrate_of(distorted);
    if (job->scale) distorted.source = scale_frames(std::move(distorted.source), *job->scale);
    std::unique_ptr<FrameSource> reference;
    if (with_reference) reference = open_input(job->reference, silent).source;
    // The run's frame 0 is after the skips.
    distorted.source->skip_frames(job->frames.skip_distorted);
    if (reference) reference->skip_frames(job->frames.skip_reference);
    const std::optional<report::BandingMap> banding = report::BandingMap::of(*job);
    if (const auto column = report::ranking_column(*input.table))
        gathered.worst =
            report::read_thumbnails(reference.get(), *distorted.source,
                                    report::worst_frames(*input.table, *column, worst_frame_count),
                                    thumbnail_width, banding ? &*banding : nullptr);
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
