#include "io/y4m_header.hpp"

#include <charconv>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {
namespace {

constexpr std::string_view signature = "YUV4MPEG2";

// A token as it may appear in a one-line message: bounded, printable ASCII only, because the
// header of a damaged file can hold anything.
std::string printable(std::string_view token) {
    constexpr std::size_t max_shown = 32;
    std::string out;
    for (const char c : token.substr(0, max_shown)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (token.size() > max_shown) out += "...";
    return out;
}

[[noreturn]] void reject(std::string_view token, std::string_view problem) {
    throw runtime_error(fmt::format("{}: {}", printable(token), problem));
}

// Plain decimal digits, no sign or spaces; nullopt if malformed or too large for long long.
std::optional<long long> parse_decimal(std::string_view text) {
    if (text.empty()) return std::nullopt;
    for (const char c : text)
        if (c < '0' || c > '9') return std::nullopt;
    long long value = 0;
    if (std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc{})
        return std::nullopt;
    return value;
}

// "<n>:<d>" with both terms at least `min_term`.
std::optional<Y4mRatio> parse_ratio(std::string_view text, long long min_term) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const auto num = parse_decimal(text.substr(0, colon));
    const auto den = parse_decimal(text.substr(colon + 1));
    if (!num || !den || *num < min_term || *den < min_term) return std::nullopt;
    return Y4mRatio{*num, *den};
}

int parse_dimension(std::string_view token, std::string_view what) {
    const auto value = parse_decimal(token.substr(1));
    if (!value || *value < 1 || *value > max_dimension)
        reject(token, fmt::format("{} must be an integer 1..{}", what, max_dimension));
    return static_cast<int>(*value);
}

void check_interlacing(std::string_view token) {
    const std::string_view mode = token.substr(1);
    // '?' (unknown) is read as progressive, as every common tool does.
    if (mode == "p" || mode == "?") return;
    if (mode == "t" || mode == "b" || mode == "m")
        reject(token, "interlaced video is not supported (only progressive frames, Ip)");
    reject(token, "unknown interlacing mode");
}

struct ChromaTag {
    ChromaFormat chroma;
    int bit_depth;
    bool alpha;
};

// The C tag. Chroma siting (420jpeg, 420mpeg2, 420paldv) says where chroma samples sit, not how
// many there are; vq compares planes as stored, so every 4:2:0 variant reads the same way.
ChromaTag parse_chroma(std::string_view token) {
    const std::string_view value = token.substr(1);
    if (value == "420" || value == "420jpeg" || value == "420mpeg2" || value == "420paldv")
        return {ChromaFormat::yuv420, 8, false};
    if (value == "422") return {ChromaFormat::yuv422, 8, false};
    if (value == "444") return {ChromaFormat::yuv444, 8, false};
    if (value == "444alpha") return {ChromaFormat::yuv444, 8, true};
    if (value == "mono") return {ChromaFormat::yuv400, 8, false};
    if (value == "411") reject(token, "4:1:1 chroma is not supported");

    // More than 8 bits: "420p10", "444p16", and "mono10" (what ffmpeg writes for gray10).
    static constexpr std::pair<std::string_view, ChromaFormat> deep_layouts[] = {
        {"420p", ChromaFormat::yuv420},
        {"422p", ChromaFormat::yuv422},
        {"444p", ChromaFormat::yuv444},
        {"mono", ChromaFormat::yuv400},
    };
    for (const auto& [prefix, chroma] : deep_layouts) {
        if (!value.starts_with(prefix)) continue;
        const auto depth = parse_decimal(value.substr(prefix.size()));
        if (!depth) break;
        if (*depth < 9 || *depth > 16) reject(token, "bit depth must be 9..16");
        return {chroma, static_cast<int>(*depth), false};
    }
    reject(token, "unknown chroma format");
}

}  // namespace

bool has_y4m_signature(std::string_view line) {
    return line.starts_with(signature) &&
           (line.size() == signature.size() || line[signature.size()] == ' ');
}

Y4mHeader parse_y4m_header(std::string_view line) {
    if (line.size() > max_y4m_header_bytes)
        throw runtime_error(fmt::format("header is longer than {} bytes", max_y4m_header_bytes));
    if (!has_y4m_signature(line)) throw runtime_error("missing YUV4MPEG2 signature");
    // Files written on Windows end the header in CRLF; the reference accepts them.
    if (line.ends_with('\r')) line.remove_suffix(1);

    Y4mHeader header;
    std::optional<int> width;
    std::optional<int> height;
    std::optional<Y4mRatio> frame_rate;
    ChromaTag chroma{ChromaFormat::yuv420, 8, false};  // no C tag means 8-bit 4:2:0

    std::string_view rest = line.substr(signature.size());
    while (!rest.empty()) {
        const std::size_t space = rest.find(' ');
        const std::string_view token = rest.substr(0, space);
        rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
        if (token.empty()) continue;  // tolerate repeated spaces
        switch (token[0]) {
        case 'W': width = parse_dimension(token, "width"); break;
        case 'H': height = parse_dimension(token, "height"); break;
        case 'F':
            frame_rate = parse_ratio(token.substr(1), 1);
            if (!frame_rate) reject(token, "frame rate must be <n>:<d> with positive integers");
            break;
        case 'A': {
            // 0:0 is the conventional "unknown" aspect, so zero terms are legal here.
            const auto aspect = parse_ratio(token.substr(1), 0);
            if (!aspect) reject(token, "pixel aspect must be <n>:<d> with integers");
            header.pixel_aspect = *aspect;
            break;
        }
        case 'I': check_interlacing(token); break;
        case 'C': chroma = parse_chroma(token); break;
        default: break;  // X extensions and tags of later versions carry nothing vq uses
        }
    }

    if (!width) throw runtime_error("missing W (width) tag");
    if (!height) throw runtime_error("missing H (height) tag");
    if (!frame_rate) throw runtime_error("missing F (frame rate) tag");
    header.format = VideoFormat{*width, *height, chroma.bit_depth, chroma.chroma};
    header.frame_rate = *frame_rate;
    header.has_alpha_plane = chroma.alpha;
    return header;
}

}  // namespace vq
