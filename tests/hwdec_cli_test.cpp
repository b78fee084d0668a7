// --hwdec from the command line: its values and usage errors, the decoder each input's receipt
// names, auto's fallback to the CPU decoder (the log says why in one line), --hwdec cuda's error
// where the GPU cannot decode; and, on a GPU, scores that do not depend on which decoder ran.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "hwdec_test_support.hpp"
#if VQ_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::quoted;

bool gpu_present() {
#if VQ_WITH_CUDA
    return cuda::usable_device_count() > 0;
#else
    return false;
#endif
}

// The lines of `output` that name a decoder.
std::string decode_lines(const std::string& output) {
    std::string lines;
    for (std::size_t start = 0; start < output.size();) {
        const std::size_t end = std::min(output.find('\n', start), output.size());
        const std::string line = output.substr(start, end - start);
        if (line.rfind("vq: decode: ", 0) == 0) lines += line + "\n";
        start = end + 1;
    }
    return lines;
}

TEST(HwdecCli, FlagValuesAndUsageErrors) {
    const auto bad = test::run_vq("-r a.y4m -d b.y4m --feature psnr --hwdec vaapi");
    test::expect_one_line_error(bad, 2, {"--hwdec", "vaapi"});
    const auto cpu = test::run_vq("-r a.y4m -d b.y4m --feature psnr --backend cpu --hwdec cuda");
    test::expect_one_line_error(cpu, 2, {"--hwdec cuda", "--backend"});
    for (const char* mode : {"auto", "none"}) {
        const auto run = test::run_vq(std::string("--demo -q --hwdec ") + mode);
        EXPECT_EQ(run.exit_code, 0) << mode << "\n" << run.output;
    }
}

// A CPU run decodes its inputs on the CPU, quietly, by default (--hwdec auto) as with --hwdec
// none; the receipt names each input's decoder and why it is the CPU's.
TEST(HwdecCli, CpuBackendNamesTheCpuDecoderInTheReceipt) {
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const fs::path dir = test::scratch_dir("receipt");
    const std::string io = "-r " + quoted(clips / "h264_8bit.mp4") + " -d " +
                           quoted(clips / "hevc_8bit.mkv") + " --feature psnr --json -o ";
    for (const auto& [flag, reason] :
         {std::pair{"", "the backend is cpu"}, std::pair{" --hwdec none", "--hwdec none"}}) {
        const fs::path json_path = dir / (std::string(flag).empty() ? "auto.json" : "none.json");
        const auto run = test::run_vq(io + quoted(json_path) + flag);
        ASSERT_EQ(run.exit_code, 0) << run.output;
        EXPECT_EQ(decode_lines(run.output), "") << run.output;
        const auto json = nlohmann::json::parse(test::read_file(json_path));
        EXPECT_EQ(json["input_decoders"],
                  nlohmann::json({{"distorted", std::string("hevc (CPU, ") + reason + ")"},
                                  {"reference", std::string("h264 (CPU, ") + reason + ")"}}));
    }
}

// An H.264 reference against HEVC and VP9 encodes: the inputs of a run of several.
std::string several_inputs(const fs::path& clips) {
    return "-r " + quoted(clips / "h264_8bit.mp4") + " -d " + quoted(clips / "hevc_8bit.mkv") +
           " -d " + quoted(clips / "vp9_8bit.webm");
}

// A run of several distorted inputs decodes them all on the CPU; each input's output names its
// decoder and the reference's, as a run of its own does.
TEST(HwdecCli, SeveralInputsNameTheirDecodersInEachReceipt) {
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const fs::path dir = test::scratch_dir("receipt_many");
    const auto run = test::run_vq(several_inputs(clips) +
                                  " --feature psnr --backend cpu --json -o " + quoted(dir) + "/");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(decode_lines(run.output), "") << run.output;
    for (const auto& [stem, codec] :
         {std::pair{"hevc_8bit", "hevc"}, std::pair{"vp9_8bit", "vp9"}}) {
        const auto json =
            nlohmann::json::parse(test::read_file(dir / (std::string(stem) + ".json")));
        EXPECT_EQ(json["input_decoders"],
                  nlohmann::json({{"distorted", std::string(codec) + " (CPU, the backend is cpu)"},
                                  {"reference", "h264 (CPU, the backend is cpu)"}}))
            << stem;
    }
}

// Without a GPU, auto's backend is the CPU's: both containers are decoded on the CPU, quietly, as
// on any CPU run; --hwdec cuda cannot be done and fails with the reason.
TEST(HwdecCli, AutoFallsBackToTheCpuDecoderWithoutAGpu) {
    if (gpu_present()) GTEST_SKIP() << "a CUDA device is present";
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const fs::path dir = test::scratch_dir("auto");
    const std::string io = "-r " + quoted(clips / "h264_8bit.mp4") + " -d " +
                           quoted(clips / "vp9_8bit.webm") + " --feature psnr --backend auto -o " +
                           quoted(dir / "out.xml");
    const auto automatic = test::run_vq(io + " --hwdec auto");
    ASSERT_EQ(automatic.exit_code, 0) << automatic.output;
    EXPECT_EQ(decode_lines(automatic.output), "") << automatic.output;
    test::expect_one_line_error(test::run_vq(io + " --hwdec cuda"), 1,
                                {"--hwdec cuda", "vp9_8bit.webm", "the backend is cpu"});
}

// Several distorted inputs share one device reference, which takes host pictures: they are decoded
// on the CPU, and asking for the GPU's decoder is a usage error.
TEST(HwdecCli, SeveralDistortedInputsRefuseHwdecCuda) {
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const fs::path dir = test::scratch_dir("many");
    const auto result =
        test::run_vq(several_inputs(clips) + " --feature psnr --backend auto --hwdec cuda -q -o " +
                     quoted(dir / "out/"));
    test::expect_one_line_error(result, 2, {"--hwdec cuda", "several distorted inputs"});
}

// On a GPU: VMAF's scores are the same bits whichever decoder read the inputs, and the pictures
// decoded on the GPU are read by the kernels where they are (no upload). Every clip is an input of
// a pair, and every codec but AV1 of a pair without AV1 (the H200's NVDEC does not decode AV1).
struct CodecPair {
    const char* name;
    const char* reference;
    const char* distorted;
};

void PrintTo(const CodecPair& pair, std::ostream* out) { *out << pair.name; }

class HwdecCliOnGpu : public testing::TestWithParam<CodecPair> {};

TEST_P(HwdecCliOnGpu, VmafScoresEqualWithAndWithoutGpuDecoding) {
    if (!gpu_present()) GTEST_SKIP() << "no usable CUDA device: GPU test skipped";
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const CodecPair pair = GetParam();
    const fs::path dir = test::scratch_dir("vmaf");
    const std::string io = "-r " + quoted(clips / pair.reference) + " -d " +
                           quoted(clips / pair.distorted) +
                           " -m version=vmaf_v0.6.1 --backend cuda --csv --precision max -o ";
    const auto cpu = test::run_vq(io + quoted(dir / "cpu.csv") + " --hwdec none");
    ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
    setenv("VQ_DEBUG_TRANSFERS", "1", 1);
    const auto gpu = test::run_vq(io + quoted(dir / "gpu.csv") + " --hwdec cuda");
    unsetenv("VQ_DEBUG_TRANSFERS");
    if (gpu.exit_code != 0 && test::nvdec_lacks_capability(gpu.output))
        GTEST_SKIP() << "this GPU's NVDEC does not decode an input: " << gpu.output;
    ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
    const std::string lines = decode_lines(gpu.output);
    EXPECT_NE(lines.find("vq: decode: distorted: "), std::string::npos) << gpu.output;
    EXPECT_NE(lines.find("vq: decode: reference: "), std::string::npos) << gpu.output;
    EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2) << gpu.output;
    EXPECT_EQ(lines.find("(CPU"), std::string::npos) << gpu.output;
    // 24 frames of each input, none uploaded.
    EXPECT_NE(gpu.output.find(" 0 uploads (0 bytes)"), std::string::npos) << gpu.output;
    EXPECT_NE(gpu.output.find("48 device pictures read in place"), std::string::npos) << gpu.output;
    EXPECT_EQ(test::read_file(dir / "gpu.csv"), test::read_file(dir / "cpu.csv"));
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, HwdecCliOnGpu,
    testing::Values(CodecPair{"h264_hevc_8bit", "h264_8bit.mp4", "hevc_8bit.mkv"},
                    CodecPair{"vp9_h264_8bit", "vp9_8bit.webm", "h264_8bit.mp4"},
                    CodecPair{"vp9_av1_8bit", "vp9_8bit.webm", "av1_8bit.mkv"},
                    CodecPair{"hevc_vp9_10bit", "hevc_10bit.mkv", "vp9_10bit.webm"},
                    CodecPair{"av1_hevc_10bit", "av1_10bit.mkv", "hevc_10bit.mkv"}),
    [](const auto& info) { return std::string(info.param.name); });

// H.264's 4:4:4 profile is beyond NVDEC: auto decodes it on the CPU, saying so; cuda fails.
TEST(HwdecCli, NvdecRefusalFallsBackUnderAutoAndFailsUnderCuda) {
    if (!gpu_present()) GTEST_SKIP() << "no usable CUDA device: GPU test skipped";
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const fs::path dir = test::scratch_dir("refusal");
    const std::string io = "-r " + quoted(clips / "h264_444.mp4") + " -d " +
                           quoted(clips / "h264_444.mp4") + " --feature psnr --backend cuda -o " +
                           quoted(dir / "out.xml");
    const auto automatic = test::run_vq(io + " --hwdec auto");
    ASSERT_EQ(automatic.exit_code, 0) << automatic.output;
    EXPECT_NE(decode_lines(automatic.output)
                  .find("vq: decode: distorted: h264 (CPU, NVDEC does not decode it"),
              std::string::npos)
        << automatic.output;
    test::expect_one_line_error(test::run_vq(io + " --hwdec cuda"), 1,
                                {"--hwdec cuda", "h264_444.mp4", "NVDEC does not decode it"});
}

}  // namespace
}  // namespace vq
