#include "io/open_video.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "io/ffmpeg_module.hpp"
#include "io/input_file.hpp"
#include "io/y4m_header.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

constexpr std::string_view y4m_signature = "YUV4MPEG2";

std::string lower_extension(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return extension;
}

std::optional<std::size_t> file_bytes(const std::string& path) {
    std::error_code error;
    const auto bytes = std::filesystem::file_size(path, error);
    if (error) return std::nullopt;
    return std::size_t(bytes);
}

// A Y4M file's header line, if the file starts with the signature (an unreadable file or a bad
// header is left for the Y4M reader to report).
std::optional<Y4mHeader> peek_y4m(const std::string& path, bool& is_y4m) {
    InputFile file(path);  // reports a missing or unreadable file
    std::string line;
    file.read_line(line, max_y4m_header_bytes);
    is_y4m = line.starts_with(y4m_signature);
    if (!is_y4m) return std::nullopt;
    try {
        return parse_y4m_header(line);
    } catch (const Error&) {
        return std::nullopt;
    }
}

}  // namespace

bool ffmpeg_available() { return VQ_WITH_FFMPEG != 0; }

OpenedInput open_video(const std::string& path, const InputOptions& options) {
    OpenedInput input;
    input.path = path;
    if (options.raw) {
        input.source = open_yuv(path, *options.raw, options.on_trailing_bytes);
        input.reader = "raw";
        if (const auto bytes = file_bytes(path))
            input.frame_count = *bytes / options.raw->frame_bytes();
        return input;
    }
    // A pipe ("-" for standard input, or <(ffmpeg ... -f yuv4mpegpipe -)) cannot be peeked at
    // and then handed over: Y4M it must be.
    std::error_code error;
    if (path == "-" ||
        (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error) &&
         !std::filesystem::is_directory(path, error))) {
        input.source = open_y4m(path);
        input.reader = "y4m";
        return input;
    }
    bool is_y4m = false;
    const std::optional<Y4mHeader> header = peek_y4m(path, is_y4m);
    if (file_bytes(path) == std::size_t(0)) is_y4m = true;  // the Y4M reader says "is empty"
    if (!is_y4m && !ffmpeg_available()) {
        try {
            open_y4m(path);  // says what is wrong: an empty file, no Y4M signature
        } catch (const Error& e) {
            throw runtime_error(fmt::format(
                "{} (this vq was built without FFmpeg, so it reads Y4M and raw YUV only)",
                e.what()));
        }
    }
    if (is_y4m) {
        input.source = open_y4m(path);  // reports a bad header
        input.reader = "y4m";
        if (header) {
            input.rate_num = header->frame_rate.num;
            input.rate_den = header->frame_rate.den;
            // Each frame carries a 6-byte "FRAME\n" line.
            const std::size_t record =
                header->format.frame_bytes() + header->alpha_plane_bytes() + 6;
            if (const auto bytes = file_bytes(path)) input.frame_count = *bytes / record;
        }
        return input;
    }
    const std::string extension = lower_extension(path);
    if (extension == ".yuv" || extension == ".raw" || extension == ".nv12" || extension == ".rgb")
        throw usage_error(
            fmt::format("'{}' looks like raw video: give its format with -w, -h, -p and -b", path));
#if VQ_WITH_FFMPEG
    auto source = ffmpeg_module().open(path, options.decode);  // loads FFmpeg on first use
    const StreamInfo& info = source->info();
    input.rate_num = info.rate_num;
    input.rate_den = info.rate_den;
    input.frame_count = info.frame_count;
    input.stream_bit_rate = info.stream_bit_rate;
    input.container_bit_rate = info.container_bit_rate;
    input.reader = "ffmpeg: " + info.description;
    input.source = std::move(source);
#endif
    return input;
}

OpenedInput open_input(const InputSpec& spec, const std::function<void(std::string)>& note,
                       const InputUse& use) {
    InputOptions options;
    options.decode.threads = spec.decode_threads;
    options.decode.sessions = spec.decode_sessions;
    options.decode.await_decoder_choice = use.await_decoder_choice;
    options.decode.frames_read = use.frames_read;
    if (spec.raw) {
        validate(*spec.raw);
        options.raw = spec.raw;
        // As the reference does: score the whole frames, and say what was left over.
        options.on_trailing_bytes = [note, path = spec.path,
                                     frame_bytes = spec.raw->frame_bytes()](std::size_t bytes) {
            note(
                fmt::format("warning: '{}' ends with {} bytes that are not a whole frame ({} "
                            "bytes); scoring the whole frames before them",
                            one_line(path), bytes, frame_bytes));
        };
    }
    return open_video(spec.path, options);
}

std::string frame_rate_warning(const OpenedInput& reference, const OpenedInput& distorted) {
    if (reference.rate_den <= 0 || distorted.rate_den <= 0) return {};
    // Compare as ratios: 30000/1001 and 60000/2002 are the same rate.
    if (reference.rate_num * distorted.rate_den == distorted.rate_num * reference.rate_den)
        return {};
    const auto rate = [](const OpenedInput& input) {
        return fmt::format("{:.6g}", double(input.rate_num) / double(input.rate_den));
    };
    return fmt::format(
        "warning: frame rates differ ('{}' {} frames/s, '{}' {} frames/s); frames are paired by "
        "position, not by time",
        one_line(reference.path), rate(reference), one_line(distorted.path), rate(distorted));
}

}  // namespace vq
