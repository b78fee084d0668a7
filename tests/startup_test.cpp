// What a vq process loads (issue #24, start-up): a PSNR run on Y4M loads only the libraries every
// run needs (libfmt is compiled in, header-only); libpng (and zlib, which it brings) is loaded by
// the first PNG written (core/png.hpp), FFmpeg by the first container (ffmpeg_module_test.cpp).
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

fs::path y4m_clip(const fs::path& dir) {
    return test::write_file(dir / "clip.y4m",
                            test::y4m_file("YUV4MPEG2 W64 H48 F25:1 Ip C420", clip_format, 2));
}

// vq's run with the dynamic loader reporting every library it loads, at start or by dlopen
// ("file=NAME [0];  needed by ..." or "...;  dynamically loaded by ...").
test::CommandResult run_vq_reporting_loads(const std::string& arguments) {
    return test::run_shell(
        fmt::format("env LD_DEBUG=files {} {}", quoted(test::vq_binary()), arguments));
}

bool loaded(const test::CommandResult& result, const std::string& library) {
    return result.output.find("file=" + library) != std::string::npos;
}

TEST(Startup, PsnrOnY4mLoadsNeitherLibfmtNorLibpngNorZlib) {
    const fs::path dir = test::scratch_dir("startup_psnr");
    const fs::path clip = y4m_clip(dir);
    const auto result = run_vq_reporting_loads("-r " + quoted(clip) + " -d " + quoted(clip) +
                                               " --feature psnr -o " + quoted(dir / "s.json"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_TRUE(loaded(result, "libc.so")) << result.output;  // the report is there to read
    EXPECT_FALSE(loaded(result, "libfmt")) << result.output;
    EXPECT_FALSE(loaded(result, "libpng")) << result.output;
    EXPECT_FALSE(loaded(result, "libz.so")) << result.output;
}

TEST(Startup, TheFirstPngLoadsLibpng) {
    const fs::path dir = test::scratch_dir("startup_report");
    const fs::path clip = y4m_clip(dir);
    const auto result = run_vq_reporting_loads(
        "-r " + quoted(clip) + " -d " + quoted(clip) + " --feature psnr --report " +
        quoted(dir / "report.html") + " -o " + quoted(dir / "s.json"));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_TRUE(loaded(result, "libpng16.so.16")) << result.output;
    EXPECT_NE(test::read_file(dir / "report.html").find("data:image/png;base64,iVBORw0KGgo"),
              std::string::npos);  // "\x89PNG\r\n\x1a\n" in base64
}

}  // namespace
}  // namespace vq
