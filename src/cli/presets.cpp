#include "presets.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq::cli {
namespace {

struct Preset {
    std::string_view flag;
    std::string_view version;
    std::vector<std::string_view> models;
    std::vector<std::string_view> features;
};

constexpr std::string_view aom_models[] = {"version=vmaf_v0.6.1:name=vmaf",
                                           "version=vmaf_v0.6.1neg:name=vmaf_neg"};
constexpr std::string_view aom_psnr = "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5";
constexpr std::string_view aom_ssim = "float_ssim=enable_db=true:clip_db=true";
constexpr std::string_view aom_ms_ssim = "float_ms_ssim=enable_db=true:clip_db=true";

// The table of spec §5.3. v6.0 and later also allow inputs of different bit depths in libvmaf
// ("common bit depth"); vq reads each input at its own depth and refuses a mismatch, as for every
// run (README: where vq differs). v7.0 scores SSIM at full resolution (scale=1).
const std::vector<Preset>& presets() {
    static const std::vector<Preset> table = [] {
        const std::vector<std::string_view> aom{std::begin(aom_models), std::end(aom_models)};
        const std::vector<std::string_view> v1{aom_psnr, "ciede", aom_ssim, aom_ms_ssim,
                                               "psnr_hvs"};
        std::vector<std::string_view> v3 = v1;
        v3.push_back("cambi");
        std::vector<std::string_view> v7 = v3;
        std::replace(v7.begin(), v7.end(), aom_ssim,
                     std::string_view("float_ssim=scale=1:enable_db=true:clip_db=true"));
        return std::vector<Preset>{
            {"aom_ctc", "v1.0", aom, v1},
            {"aom_ctc", "v2.0", aom, v1},
            {"aom_ctc", "v3.0", aom, v3},
            {"aom_ctc", "v4.0", aom, v3},
            {"aom_ctc", "v5.0", aom, v3},
            {"aom_ctc", "v6.0", aom, v3},
            {"aom_ctc", "v7.0", aom, v7},
            {"nflx_ctc",
             "v1.0",
             {"version=vmaf_4k_v0.6.1:name=vmaf", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg"},
             {"psnr=enable_chroma=true:enable_apsnr=true", aom_ssim, "cambi"}},
        };
    }();
    return table;
}

std::vector<std::string_view> versions_of(std::string_view flag) {
    std::vector<std::string_view> versions;
    for (const Preset& preset : presets())
        if (preset.flag == flag) versions.push_back(preset.version);
    return versions;
}

}  // namespace

PresetExpansion expand_preset(std::string_view flag, std::string_view version) {
    for (const Preset& preset : presets())
        if (preset.flag == flag && preset.version == version)
            return {{preset.models.begin(), preset.models.end()},
                    {preset.features.begin(), preset.features.end()}};
    throw usage_error(fmt::format("--{}: unknown version '{}' (known: {})", flag, version,
                                  fmt::join(versions_of(flag), ", ")));
}

std::string describe_preset_versions(std::string_view flag) {
    return fmt::format("{}", fmt::join(versions_of(flag), ", "));
}

}  // namespace vq::cli
