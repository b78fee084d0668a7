// Lookup of the model files compiled into vq (builtin_data.hpp), and what each is meant for.
#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "model/builtin_data.hpp"
#include "model/diagnostics.hpp"
#include "model/model.hpp"
#include "vq/error.hpp"

namespace vq::model {
namespace {

// The display, viewing distance (in display heights, H) and frame rate each model was trained for
// (spec/vmaf-v1.md §1 for v1.0.16). Every file in models/ needs a line here (a test checks).
constexpr std::array<std::pair<std::string_view, std::string_view>, 13> uses = {{
    {"vmaf_v0.6.1", "1080p display viewed at 3H, standard frame rates (libvmaf's default)"},
    {"vmaf_v0.6.1neg", "as vmaf_v0.6.1, no credit for enhancement gain (NEG: codec comparisons)"},
    {"vmaf_4k_v0.6.1", "2160p (4K) display viewed at 1.5H, standard frame rates"},
    {"vmaf_4k_v0.6.1neg", "as vmaf_4k_v0.6.1, no credit for enhancement gain (NEG)"},
    {"vmaf_b_v0.6.3",
     "1080p display viewed at 3H; bootstrap collection of 20 models with a 95% confidence "
     "interval"},
    {"vmaf_v1.0.16_3d0h", "1080p display viewed at 3H, standard frame rates"},
    {"vmaf_v1.0.16_5d0h", "1080p display viewed at 5H (phone), standard frame rates"},
    {"vmaf_v1.0.16_1d5h_2160", "2160p display viewed at 1.5H (default 4K), standard frame rates"},
    {"vmaf_v1.0.16_3d0h_2160",
     "2160p display viewed at 3H (consumer TV), standard frame rates; scores 0..110"},
    {"vmaf_v1.0.16_hfr_3d0h", "1080p display viewed at 3H, high frame rate (~50/60 fps)"},
    {"vmaf_v1.0.16_hfr_5d0h", "1080p display viewed at 5H (phone), high frame rate (~50/60 fps)"},
    {"vmaf_v1.0.16_hfr_1d5h_2160",
     "2160p display viewed at 1.5H (default 4K), high frame rate (~50/60 fps)"},
    {"vmaf_v1.0.16_hfr_3d0h_2160",
     "2160p display viewed at 3H (consumer TV), high frame rate (~50/60 fps); scores 0..110"},
}};

}  // namespace

std::vector<std::string_view> builtin_names() {
    std::vector<std::string_view> names;
    for (const detail::BuiltinFile& file : detail::builtin_files()) names.push_back(file.name);
    std::sort(names.begin(), names.end());
    return names;
}

std::string_view builtin(std::string_view version) {
    for (const detail::BuiltinFile& file : detail::builtin_files())
        if (file.name == version) return file.text;
    throw usage_error(fmt::format("unknown model version '{}' (built in: {})",
                                  detail::printable(version), fmt::join(builtin_names(), ", ")));
}

std::string_view builtin_use(std::string_view version) {
    for (const auto& [name, use] : uses)
        if (name == version) return use;
    return {};
}

std::string describe_models() {
    std::size_t width = 0;
    for (const std::string_view name : builtin_names()) width = std::max(width, name.size());
    std::string text;
    for (const std::string_view name : builtin_names())
        text += fmt::format("{:<{}}  {}\n", name, width, builtin_use(name));
    return text;
}

}  // namespace vq::model
