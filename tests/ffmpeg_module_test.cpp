// The FFmpeg module (src/io/ffmpeg_module.hpp): vq does not load FFmpeg to read Y4M, and loads
// the module only for an input that needs it (a container, --scale); a module that is missing or
// is not vq's is one line naming its path and the loader's reason, exit status 1.
#include <dlfcn.h>
#include <gnu/libc-version.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "ffmpeg_test_support.hpp"
#include "io_test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::quoted;

constexpr VideoFormat clip_format{64, 48, 8, ChromaFormat::yuv420};
const std::string clip_header = "YUV4MPEG2 W64 H48 F25:1 Ip C420";

fs::path y4m_clip(const fs::path& dir) {
    return test::write_file(dir / "clip.y4m", test::y4m_file(clip_header, clip_format, 2));
}

// vq run with `environment` ("NAME=value ..."), by the shell.
test::CommandResult run_vq_with(const std::string& environment, const std::string& arguments) {
    return test::run_shell(
        fmt::format("env {} {} {}", environment, quoted(test::vq_binary()), arguments));
}

std::size_t lines(const std::string& text) {
    return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

void expect_load_failure(const test::CommandResult& result, const std::string& module,
                         const std::string& reason) {
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_EQ(lines(result.output), 1u) << result.output;
    EXPECT_NE(result.output.find("FFmpeg module '" + module + "'"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find(reason), std::string::npos) << result.output;
}

TEST(FfmpegModule, VqDoesNotLinkFfmpeg) {
    // What ldd prints: every library the program loads at start.
    const auto loaded = run_vq_with("LD_TRACE_LOADED_OBJECTS=1", "");
    ASSERT_EQ(loaded.exit_code, 0) << loaded.output;
    EXPECT_NE(loaded.output.find("libc.so"), std::string::npos) << loaded.output;
    for (const char* library : {"libavformat", "libavcodec", "libavutil", "libswscale"})
        EXPECT_EQ(loaded.output.find(library), std::string::npos) << loaded.output;
}

TEST(FfmpegModule, Y4mNeverLoadsTheModule) {
    const fs::path dir = test::scratch_dir("ffmpeg_module_y4m");
    const fs::path clip = y4m_clip(dir);
    const auto result = run_vq_with("VQ_FFMPEG_MODULE=" + quoted(dir / "absent.so"),
                                    "-r " + quoted(clip) + " -d " + quoted(clip) +
                                        " --feature psnr -o " + quoted(dir / "scores.json"));
    EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST(FfmpegModule, MissingModuleIsOneLineForAContainer) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_module_missing");
    const fs::path clip = test::write_file(dir / "clip.mp4", "not read: the module is missing");
    const fs::path module = dir / "absent.so";
    expect_load_failure(run_vq_with("VQ_FFMPEG_MODULE=" + quoted(module),
                                    "-r " + quoted(clip) + " -d " + quoted(clip) +
                                        " --feature psnr -o " + quoted(dir / "scores.json")),
                        module.string(), "cannot open shared object file");
    EXPECT_FALSE(fs::exists(dir / "scores.json"));
}

TEST(FfmpegModule, MissingModuleIsOneLineForScale) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_module_scale");
    const fs::path clip = y4m_clip(dir);
    const fs::path module = dir / "absent.so";
    expect_load_failure(
        run_vq_with("VQ_FFMPEG_MODULE=" + quoted(module),
                    "-r " + quoted(clip) + " -d " + quoted(clip) +
                        " --scale 32x24 --feature psnr -o " + quoted(dir / "scores.json")),
        module.string(), "cannot open shared object file");
}

TEST(FfmpegModule, ModuleIsLookedForBesideTheProgram) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_module_beside");
    const fs::path program = dir / "vq";
    fs::copy_file(test::vq_binary(), program);  // without the module beside it
    const fs::path clip = test::write_file(dir / "clip.mkv", "not read: the module is missing");
    const auto result = test::run_shell(fmt::format("env -u VQ_FFMPEG_MODULE {} -r {} -d {}",
                                                    quoted(program), quoted(clip), quoted(clip)));
    expect_load_failure(result, (dir / "libvq_ffmpeg.so").string(),
                        "cannot open shared object file");
}

TEST(FfmpegModule, AFileThatIsNotALibraryIsRefused) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("ffmpeg_module_not_elf");
    const fs::path clip = test::write_file(dir / "clip.mp4", "not read");
    const fs::path module = test::write_file(dir / "libvq_ffmpeg.so", "not a shared library");
    const auto result = run_vq_with("VQ_FFMPEG_MODULE=" + quoted(module),
                                    "-r " + quoted(clip) + " -d " + quoted(clip));
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_EQ(lines(result.output), 1u) << result.output;
    EXPECT_NE(result.output.find(module.string()), std::string::npos) << result.output;
}

TEST(FfmpegModule, ALibraryThatIsNotTheModuleIsRefused) {
    VQ_REQUIRE_FFMPEG();
    // The C library: a real shared library, without the module's entry point.
    Dl_info info{};
    ASSERT_NE(dladdr(reinterpret_cast<void*>(&gnu_get_libc_version), &info), 0);
    const fs::path library = info.dli_fname;
    const fs::path dir = test::scratch_dir("ffmpeg_module_other");
    const fs::path clip = test::write_file(dir / "clip.mp4", "not read");
    const auto result = run_vq_with("VQ_FFMPEG_MODULE=" + quoted(library),
                                    "-r " + quoted(clip) + " -d " + quoted(clip));
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_EQ(lines(result.output), 1u) << result.output;
    EXPECT_NE(result.output.find("FFmpeg module '" + library.string() + "' is not vq's"),
              std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("vq_ffmpeg_module"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace vq
