#include "distorted_list.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq::cli {
namespace {

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

std::vector<DistortedArgument> parse_distorted_list(std::string_view text,
                                                    const std::string& path) {
    constexpr std::string_view scale_flag = " --scale ";
    std::vector<DistortedArgument> inputs;
    std::size_t line_number = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = trim(text.substr(start, end - start));
        start = end + 1;
        ++line_number;
        if (line.empty() || line.front() == '#') continue;
        const auto fail = [&](const std::string& what) {
            return usage_error(
                fmt::format("--distorted_list {} line {}: {}", path, line_number, what));
        };
        DistortedArgument input;
        const std::size_t flag = line.find(scale_flag);
        input.path = std::string(trim(line.substr(0, flag)));
        if (flag != std::string_view::npos) {
            try {
                input.scale = parse_scale(trim(line.substr(flag + scale_flag.size())));
            } catch (const Error& error) {
                throw fail(error.what());
            }
        }
        if (input.path.empty()) throw fail("no path before --scale");
        if (input.path == "-") throw fail("standard input ('-') cannot be one of several inputs");
        inputs.push_back(std::move(input));
    }
    if (inputs.empty()) throw usage_error(fmt::format("--distorted_list {}: no inputs", path));
    return inputs;
}

std::vector<DistortedArgument> read_distorted_list(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::string text;
    if (file && !std::filesystem::is_directory(path))
        text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (!file || std::filesystem::is_directory(path))
        throw usage_error(fmt::format("--distorted_list {}: cannot read it", path));
    return parse_distorted_list(text, path);
}

}  // namespace vq::cli
