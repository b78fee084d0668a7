// libvmaf's test-condition presets (--aom_ctc VERSION, --nflx_ctc VERSION): named lists of models
// and features that expand in place on the command line (spec/cli-and-output.md §5.3).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vq::cli {

struct PresetExpansion {
    std::vector<std::string> models;    // --model strings, in order
    std::vector<std::string> features;  // --feature strings, in registration order
};

// The expansion of `--FLAG VERSION` (flag "aom_ctc" or "nflx_ctc"). Throws vq::Error (usage)
// naming the known versions for an unknown one.
PresetExpansion expand_preset(std::string_view flag, std::string_view version);

// One line per preset flag listing its versions, for --help.
std::string describe_preset_versions(std::string_view flag);

}  // namespace vq::cli
