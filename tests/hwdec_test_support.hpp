// The clips of the GPU-decoding tests (scripts/make_hwdec_clips.sh): made once per test process
// with the ffmpeg binary, or taken from $VQ_HWDEC_CLIPS where there is no binary (the GPU machine).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "ffmpeg_test_support.hpp"

namespace vq::test {

// The folder holding ref_8b.y4m, ref_10b.y4m, h264_8b.mp4, hevc_10b.mp4, vp9_8b.webm, av1_8b.mkv
// and h264_444.mp4; nullopt when neither $VQ_HWDEC_CLIPS nor the ffmpeg binary is there.
inline std::optional<std::filesystem::path> hwdec_clips() {
    static const std::optional<std::filesystem::path> clips =
        []() -> std::optional<std::filesystem::path> {
        if (const char* given = std::getenv("VQ_HWDEC_CLIPS"); given && *given)
            return std::filesystem::path(given);
        if (!have_ffmpeg_binary()) return std::nullopt;
        const std::filesystem::path dir = scratch_dir("hwdec_clips");
        const auto made =
            run_shell(std::string(VQ_SOURCE_DIR) + "/scripts/make_hwdec_clips.sh " + quoted(dir));
        EXPECT_EQ(made.exit_code, 0) << made.output;
        if (made.exit_code != 0) return std::nullopt;
        return dir;
    }();
    return clips;
}

}  // namespace vq::test

// Skips the test unless vq reads through FFmpeg and the clips are there.
#if VQ_WITH_FFMPEG
#define VQ_REQUIRE_HWDEC_CLIPS(var)                                                     \
    const auto var##_opt = ::vq::test::hwdec_clips();                                   \
    if (!var##_opt) GTEST_SKIP() << "no ffmpeg binary and no $VQ_HWDEC_CLIPS: skipped"; \
    const std::filesystem::path var = *var##_opt
#else
#define VQ_REQUIRE_HWDEC_CLIPS(var) \
    GTEST_SKIP() << "vq is built without FFmpeg (VQ_FFMPEG=OFF or not found)"
#endif
