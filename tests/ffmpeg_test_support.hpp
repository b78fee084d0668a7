// Helpers for the FFmpeg input tests: clips made at test time with the ffmpeg binary, in the
// test's own scratch folder. Tests skip, saying why, when vq is built without FFmpeg or the
// binary (or one of its encoders) is missing.
#pragma once

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "vq/picture.hpp"

namespace vq::test {

inline std::string quoted(const std::filesystem::path& path) {
    return fmt::format("'{}'", path.string());
}

// Runs a shell command; returns its exit status and its output (stdout and stderr).
inline CommandResult run_shell(const std::string& command) {
    CommandResult result;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    std::size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

inline bool have_ffmpeg_binary() {
    static const bool present = run_shell("ffmpeg -hide_banner -version").exit_code == 0;
    return present;
}

inline bool have_encoder(const std::string& name) {
    return run_shell(fmt::format("ffmpeg -hide_banner -encoders | grep -q ' {} '", name))
               .exit_code == 0;
}

// Runs "ffmpeg -y <arguments>" quietly; the test fails (and the caller should stop) if it fails.
inline bool ffmpeg(const std::string& arguments) {
    const auto result = run_shell("ffmpeg -hide_banner -nostdin -loglevel error -y " + arguments);
    EXPECT_EQ(result.exit_code, 0) << "ffmpeg " << arguments << "\n" << result.output;
    return result.exit_code == 0;
}

// Frames in a keyframe_clip().
inline constexpr int keyframe_clip_frames = 90;

// A moving test pattern with noise (so that every frame differs from its neighbours), 96x64,
// keyframe_clip_frames frames, encoded with `codec_options` into `path`; empty if ffmpeg failed.
inline std::filesystem::path keyframe_clip(const std::filesystem::path& path,
                                           const std::string& codec_options) {
    const bool made =
        ffmpeg(fmt::format("-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v {} -vf "
                           "noise=alls=20:allf=t,format=yuv420p {} {}",
                           keyframe_clip_frames, codec_options, quoted(path)));
    return made ? path : std::filesystem::path();
}

// An encoder setting for keyframe_clip() that seeking and chunked decoding are tested on.
struct KeyframeCodec {
    const char* name;
    const char* encoder;
    const char* file;
    const char* options;
};

inline void PrintTo(const KeyframeCodec& codec, std::ostream* out) {
    *out << codec.name << ": " << codec.options;
}

// B-frames in a pyramid, keyframes every 12 frames and at scene cuts: MP4 (an edit list shifts
// its timestamps) and Matroska (timestamps in milliseconds); HEVC's open GOPs (pictures after a
// CRA keyframe in decoding order shown before it); VP9 with hidden frames; FFV1.
inline std::vector<KeyframeCodec> keyframe_codecs() {
    return {{"h264_mp4", "libx264", "a.mp4",
             "-c:v libx264 -g 12 -x264-params bframes=3:b-pyramid=normal"},
            {"h264_mkv", "libx264", "a.mkv",
             "-c:v libx264 -g 12 -x264-params bframes=3:b-pyramid=normal"},
            {"hevc_open_gop", "libx265", "a.mkv",
             "-c:v libx265 -x265-params keyint=12:min-keyint=12:open-gop=1:bframes=3:log-level=0"},
            {"vp9", "libvpx-vp9", "a.webm", "-c:v libvpx-vp9 -g 12 -lag-in-frames 16 -b:v 200k"},
            {"ffv1", "ffv1", "a.mkv", "-c:v ffv1 -g 5"}};
}

// The same format and the same bytes.
inline bool same_picture(const Picture& a, const Picture& b) {
    return a.format() == b.format() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

// A copy of `clip` beside it, named "damaged" with its extension, with the bytes of video packet
// `index` (decoding order) from a quarter of the way in overwritten by a pattern: the decoder
// reports that frame damaged.
inline std::filesystem::path damaged_copy(const std::filesystem::path& clip, int index) {
    const auto probe = run_shell(fmt::format(
        "ffprobe -v error -select_streams v:0 -show_entries packet=pos,size -of csv=p=0 {}",
        quoted(clip)));
    EXPECT_EQ(probe.exit_code, 0) << probe.output;
    std::istringstream lines(probe.output);
    std::string line;
    for (int i = 0; i <= index && std::getline(lines, line); ++i) {}
    const std::size_t comma = line.find(',');
    const std::size_t size = std::stoul(line.substr(0, comma));
    const std::size_t position = std::stoul(line.substr(comma + 1));
    const std::filesystem::path damaged =
        clip.parent_path() / ("damaged" + clip.extension().string());
    std::filesystem::copy_file(clip, damaged, std::filesystem::copy_options::overwrite_existing);
    std::fstream file(damaged, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(std::streamoff(position + size / 4));
    for (std::size_t i = size / 4; i < size; ++i) file.put(char(0x5a ^ i));
    return damaged;
}

}  // namespace vq::test

// Skips the test unless vq reads through FFmpeg and the ffmpeg binary can make clips.
#if VQ_WITH_FFMPEG
#define VQ_REQUIRE_FFMPEG()                                                                  \
    if (!::vq::test::have_ffmpeg_binary()) GTEST_SKIP() << "no ffmpeg binary to make clips"; \
    static_assert(true)
#else
#define VQ_REQUIRE_FFMPEG() \
    GTEST_SKIP() << "vq is built without FFmpeg (VQ_FFMPEG=OFF or not found)"
#endif
