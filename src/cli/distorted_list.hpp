// --distorted_list FILE: the distorted inputs of a many-input run, one per line, each optionally
// with its own --scale:
//
//   # a ladder of one source
//   encodes/1080p.mp4
//   encodes/720p.mp4 --scale 1920x1080
//   encodes/540p.mp4 --scale 1920x1080:lanczos
//
// Blank lines and lines starting with '#' are skipped; a path is the line up to " --scale ", so
// it may hold spaces.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vq/input.hpp"

namespace vq::cli {

struct DistortedArgument {
    std::string path;
    std::optional<ScaleSpec> scale;  // its own --scale (from a list file), else the run's
};

// Parses a list file's text. Throws vq::Error (usage) "--distorted_list PATH line N: ..." for a
// bad line, and "--distorted_list PATH: no inputs" for a file without one.
std::vector<DistortedArgument> parse_distorted_list(std::string_view text, const std::string& path);

// The same from the file, and "--distorted_list PATH: cannot read it" when it cannot be read.
std::vector<DistortedArgument> read_distorted_list(const std::string& path);

}  // namespace vq::cli
