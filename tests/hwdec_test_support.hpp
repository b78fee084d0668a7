// The clips of the GPU-decoding tests: scripts/make_codec_clips.sh's parity/ folder (576x324, 24
// frames: H.264 8-bit, HEVC, VP9 and AV1 8 and 10-bit, and H.264 4:4:4, which NVDEC cannot
// decode), made once per test process with the ffmpeg binary, or taken from $VQ_HWDEC_CLIPS where
// there is none (the GPU machine: .device/clips/parity, packed by prepare_device.sh --clips).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "ffmpeg_test_support.hpp"

namespace vq::test {

// The folder holding h264_8bit.mp4, h264_444.mp4, hevc_8bit.mkv, hevc_10bit.mkv, vp9_8bit.webm,
// vp9_10bit.webm, av1_8bit.mkv and av1_10bit.mkv; nullopt when neither $VQ_HWDEC_CLIPS nor the
// ffmpeg binary is there.
inline std::optional<std::filesystem::path> hwdec_clips() {
    static const std::optional<std::filesystem::path> clips =
        []() -> std::optional<std::filesystem::path> {
        if (const char* given = std::getenv("VQ_HWDEC_CLIPS"); given && *given)
            return std::filesystem::path(given);
        if (!have_ffmpeg_binary()) return std::nullopt;
        const std::filesystem::path dir = scratch_dir("hwdec_clips");
        const auto made = run_shell(std::string(VQ_SOURCE_DIR) + "/scripts/make_codec_clips.sh " +
                                    quoted(dir) + " --no-bench");
        EXPECT_EQ(made.exit_code, 0) << made.output;
        if (made.exit_code != 0) return std::nullopt;
        return dir / "parity";
    }();
    return clips;
}

// Whether a refusal is NVDEC's own capability check (FFmpeg's "Hardware is lacking required
// capabilities"): what it decodes differs between GPUs (the H200 decodes no AV1), so a test of a
// codec the GPU lacks skips instead of failing; vq's part, falling back or failing with the
// reason, is tested on H.264 4:4:4, which no NVDEC decodes.
inline bool nvdec_lacks_capability(const std::string& message) {
    return message.find("Hardware is lacking required capabilities") != std::string::npos;
}

}  // namespace vq::test

// Skips the test unless vq reads through FFmpeg and the clips are there. Without FFmpeg `var` is
// still declared (after the skip's return), so that the test's body compiles.
#if VQ_WITH_FFMPEG
#define VQ_REQUIRE_HWDEC_CLIPS(var)                                                     \
    const auto var##_opt = ::vq::test::hwdec_clips();                                   \
    if (!var##_opt) GTEST_SKIP() << "no ffmpeg binary and no $VQ_HWDEC_CLIPS: skipped"; \
    const std::filesystem::path var = *var##_opt
#else
#define VQ_REQUIRE_HWDEC_CLIPS(var)                                                 \
    GTEST_SKIP() << "vq is built without FFmpeg (VQ_FFMPEG=OFF or not found)"; \
    const std::filesystem::path var
#endif
