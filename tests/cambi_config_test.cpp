// CAMBI configuration: every option and configuration the reference rejects is rejected with a
// clear message naming it; output names (§12); effective options (§2); the cases outside the
// reference's contract (§16) run safely or are rejected; heatmaps (§13).

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cambi_test_support.hpp"
#include "feature/registry.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq::cambi::test {
namespace {

VideoFormat format(int width, int height, int bit_depth = 8,
                   ChromaFormat chroma = ChromaFormat::yuv420) {
    return {.width = width, .height = height, .bit_depth = bit_depth, .chroma = chroma};
}

// Options with a few fields set (designated initialisers would warn about the others).
template <typename F>
Options options(F&& set) {
    Options o;
    set(o);
    return o;
}

std::unique_ptr<CpuFeature> make_cambi(const std::string& text) {
    const FeatureRequest request = parse_feature_request(text);
    const FeatureDefinition& definition = *find_feature(request.name).definition;
    return definition.make_cpu(bind_options(request.name, definition.options, request.options));
}

// The message of the usage error `f` throws ("" if it throws nothing).
template <typename F>
std::string usage_message(F&& f) {
    try {
        f();
    } catch (const vq::Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::usage) << error.what();
        return error.what();
    }
    return "";
}

std::string init_error(const std::string& request, const VideoFormat& fmt) {
    return usage_message([&] { make_cambi(request)->init(fmt); });
}

// A banded picture of any size (a ramp of 2-code steps with a little noise, chroma zero): this
// file's own samples, which the checks below were written for, not the generator's banded content.
Picture banded(const VideoFormat& fmt) {
    return ::vq::test::make_picture(fmt, [&](int p, int y, int x) {
        const int v = 60 + 2 * ((x + y) * 40 / (fmt.width + fmt.height)) +
                      (example_hash(std::uint32_t(x), std::uint32_t(y)) % 23 == 0);
        return p == 0 ? v << (fmt.bit_depth - 8) : 0;
    });
}

std::vector<double> run_frame(const std::string& request, const Picture& distorted,
                              const Picture& reference = {}) {
    auto feature = make_cambi(request);
    feature->init(distorted.format());
    std::vector<std::byte> block(feature->block_bytes());
    std::vector<double> scores(feature->outputs().size());
    feature->compute({.reference = reference, .distorted = distorted}, block);
    feature->finish(block, scores);
    return scores;
}

// ---- Options out of range, unknown, malformed: rejected when bound ----

TEST(CambiOptions, OutOfRangeValuesAreRejectedNamingTheOption) {
    const std::vector<std::string> bad = {"window_size=14",
                                          "window_size=128",
                                          "topk=0",
                                          "topk=1.5",
                                          "cambi_topk=0.00001",
                                          "tvi_threshold=0",
                                          "tvi_threshold=2",
                                          "cambi_vis_lum_threshold=-1",
                                          "cambi_vis_lum_threshold=301",
                                          "max_log_contrast=-1",
                                          "max_log_contrast=6",
                                          "enc_width=179",
                                          "enc_width=7681",
                                          "enc_width=0",
                                          "enc_height=149",
                                          "enc_bitdepth=5",
                                          "enc_bitdepth=17",
                                          "src_width=319",
                                          "src_height=199",
                                          "src_height=4321",
                                          "eotf=hlg",
                                          "cambi_eotf=linear",
                                          "cambi_high_res_speedup=2161",
                                          "cambi_high_res_speedup=-1",
                                          "cambi_max_val=1001",
                                          "cambi_max_val=-0.5",
                                          "full_ref=1",
                                          "window_size=abc",
                                          "no_such_option=1"};
    for (const auto& option : bad) {
        const std::string key = option.substr(0, option.find('='));
        const std::string message = usage_message([&] { make_cambi("cambi=" + option); });
        EXPECT_NE(message.find(key), std::string::npos) << option << ": " << message;
    }
}

TEST(CambiOptions, EveryOptionIsAccepted) {
    EXPECT_NO_THROW(make_cambi(
        "cambi=window_size=33:topk=0.5:cambi_topk=0.4:tvi_threshold=0.03:cambi_vis_lum_threshold=1:"
        "max_log_contrast=3:enc_width=960:enc_height=540:enc_bitdepth=8:src_width=1920:src_height="
        "1080:"
        "eotf=pq:cambi_eotf=pq:cambi_high_res_speedup=1080:cambi_max_val=50:full_ref=true:heatmaps_"
        "path=x"));
}

// ---- §3: configurations rejected at init ----

TEST(CambiInit, TooSmallPicturesAreRejected) {
    EXPECT_NE(init_error("cambi", format(200, 200)).find("216"), std::string::npos);
    EXPECT_NE(init_error("cambi=enc_width=200:enc_height=200", format(576, 324)).find("enc_width"),
              std::string::npos);
    EXPECT_EQ(init_error("cambi", format(216, 100)), "");  // one side of 216 is enough
    EXPECT_EQ(init_error("cambi", format(100, 216)), "");
}

TEST(CambiInit, SourceSizeCrossingTheEncodeSizeIsRejectedEvenWithoutFullRef) {
    const std::string message = init_error("cambi=src_width=640:src_height=300", format(576, 324));
    EXPECT_NE(message.find("src_width"), std::string::npos) << message;
    EXPECT_NE(init_error("cambi=src_width=400:src_height=400", format(576, 324)), "");
    EXPECT_EQ(init_error("cambi=src_width=640:src_height=360", format(576, 324)),
              "");  // larger in both
}

TEST(CambiInit, WindowsBeyondTheReciprocalTableAreRejected) {
    const std::string k8 = init_error("cambi", format(7680, 4320));
    EXPECT_NE(k8.find("window_size"), std::string::npos) << k8;
    EXPECT_NE(k8.find("131"), std::string::npos) << k8;
    // The reference picture's window is computed from the 8K input even without full_ref.
    EXPECT_NE(init_error("cambi=enc_width=3840:enc_height=2160", format(7680, 4320)), "");
    EXPECT_NE(init_error("cambi=window_size=66", format(3840, 2160)), "");
    EXPECT_NE(init_error("cambi=window_size=127", format(2560, 1440)), "");
    EXPECT_EQ(init_error("cambi=window_size=127", format(1920, 1080)), "");  // 63
    EXPECT_EQ(init_error("cambi=cambi_high_res_speedup=2160", format(7680, 4320)), "");
    EXPECT_EQ(init_error("cambi=window_size=32", format(7680, 4320)), "");
}

TEST(CambiInit, IndexMapsReadingPastTheInputAreRejected) {
    // §16.3: the float accumulation reaches `in` for 6236 -> 6118, and when the reference picture
    // is scaled up from 150 to 6612; the reference reads outside the plane there.
    ASSERT_EQ(source_index_map(6236, 6118).back(), 6236);
    const std::string down =
        init_error("cambi=window_size=15:enc_width=6118:enc_height=216", format(6236, 216));
    EXPECT_NE(down.find("enc_width"), std::string::npos) << down;
    ASSERT_EQ(source_index_map(150, 6612).back(), 150);
    const std::string up = init_error(
        "cambi=window_size=15:full_ref=true:src_width=6612:src_height=300", format(150, 300));
    EXPECT_NE(up.find("src_width"), std::string::npos) << up;
}

TEST(CambiInit, EncodeLargerThanTheInputIsResetToTheInput) {
    Scorer feature(options([](Options& o) {
        o.enc_width = 7000;
        o.enc_height = 100;
    }));
    feature.init(format(576, 324));
    EXPECT_EQ(feature.config().distorted.width, 576);
    EXPECT_EQ(feature.config().distorted.height, 324);
    EXPECT_FALSE(feature.config().distorted.resized());
}

TEST(CambiInit, SpeedUpNeedsALargeEncode) {
    Scorer hd(options([](Options& o) { o.high_res_speedup = 1080; }));
    hd.init(format(1920, 1080));
    EXPECT_TRUE(hd.config().distorted.speedup);
    EXPECT_EQ(hd.config().distorted.window, 17);
    Scorer small(options([](Options& o) { o.high_res_speedup = 1080; }));
    small.init(format(1919, 1080));  // §3 step 7 compares pixel counts
    EXPECT_FALSE(small.config().distorted.speedup);
    Scorer other(options([](Options& o) { o.high_res_speedup = 1000; }));  // any other value: off
    other.init(format(3840, 2160));
    EXPECT_FALSE(other.config().distorted.speedup);
}

// ---- §2 effective options, §12 names ----

TEST(CambiNames, OutputNames) {
    const auto names = [](const std::string& request) {
        auto feature = make_cambi(request);
        feature->init(format(1280, 720));
        return feature->outputs();
    };
    using Names = std::vector<std::string>;
    EXPECT_EQ(names("cambi"), Names{"cambi"});
    EXPECT_EQ(names("cambi=topk=0.60:eotf=bt1886:heatmaps_path="), Names{"cambi"});
    EXPECT_EQ(names("cambi=window_size=33"), Names{"cambi_ws_33"});
    EXPECT_EQ(names("cambi=cambi_high_res_speedup=1080"), Names{"cambi_hrs_1080"});  // even on 720p
    EXPECT_EQ(names("cambi=enc_width=240:enc_height=180:full_ref=true"),
              (Names{"cambi_ench_180_encw_240", "cambi_source", "cambi_full_reference"}));
    EXPECT_EQ(
        names("cambi=topk=0.5:window_size=33:eotf=pq:cambi_max_val=10:cambi_vis_lum_threshold=0.1"),
        Names{"cambi_cmxv_10_vlt_0.1_eotf_pq_topk_0.5_ws_33"});
    EXPECT_EQ(
        names("cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06"),
        Names{"cambi_hrs_1080_cmxv_17_vlt_0.06"});
}

TEST(CambiEffective, TopkAndEotf) {
    Scorer a(options([](Options& o) { o.cambi_topk = 0.2; }));
    a.init(format(576, 324));
    EXPECT_EQ(a.config().topk, 0.2);  // topk is 0.6: cambi_topk decides
    Scorer b(options([](Options& o) {
        o.topk = 0.3;
        o.cambi_topk = 0.2;
    }));
    b.init(format(576, 324));
    EXPECT_EQ(b.config().topk, 0.3);
    Scorer c(options([](Options& o) { o.cambi_eotf = "pq"; }));
    c.init(format(576, 324));
    EXPECT_EQ(c.config().contrast.tvi[0], 233);  // pq at 0.019
    Scorer d(options([](Options& o) { o.eotf = "pq"; }));
    d.init(format(576, 324));
    EXPECT_EQ(d.config().contrast.tvi[0], 233);
}

TEST(CambiFeature, ReferenceIsUsedOnlyWithFullRef) {
    EXPECT_FALSE(make_cambi("cambi")->uses_reference());
    EXPECT_TRUE(make_cambi("cambi=full_ref=true")->uses_reference());
}

TEST(CambiFeature, MaxValClipsEveryOutput) {
    const Picture picture = banded(format(320, 240));
    const auto plain = run_frame("cambi", picture);
    ASSERT_GT(plain[0], 0.1);
    EXPECT_EQ(run_frame("cambi=cambi_max_val=0.1", picture)[0], 0.1);
    EXPECT_EQ(run_frame("cambi=cambi_max_val=0", picture)[0], 0.0);
    const Picture flat = Picture::allocate(format(320, 240));
    const auto full = run_frame("cambi=full_ref=true:cambi_max_val=0.1", picture, flat);
    EXPECT_EQ(full, (std::vector<double>{0.1, 0.0, 0.1}));
}

TEST(CambiFeature, EveryBitDepthAndChromaFormat) {
    double eight_bit = 0;
    for (const int bit_depth : {8, 9, 10, 11, 12, 16})
        for (const auto chroma : {ChromaFormat::yuv420, ChromaFormat::yuv422, ChromaFormat::yuv444,
                                  ChromaFormat::yuv400}) {
            const double score = run_frame("cambi", banded(format(320, 240, bit_depth, chroma)))[0];
            EXPECT_TRUE(std::isfinite(score) && score > 0) << bit_depth;
            if (bit_depth != 8) continue;
            if (chroma == ChromaFormat::yuv420) eight_bit = score;
            EXPECT_EQ(score, eight_bit) << "chroma must not matter";
        }
}

TEST(CambiFeature, SampleAboveTheBitDepthFailsTheFrame) {
    Picture picture = banded(format(320, 240, 12));
    picture.plane_data<std::uint16_t>(0)[100] = 4096;
    auto feature = make_cambi("cambi");
    feature->init(picture.format());
    std::vector<std::byte> block(feature->block_bytes());
    try {
        feature->compute({.reference = {}, .distorted = picture}, block);
        FAIL() << "no error";
    } catch (const vq::Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::runtime);
        EXPECT_NE(std::string(error.what()).find("4096"), std::string::npos) << error.what();
    }
}

// ---- §16: outside the reference's contract ----

TEST(CambiOutsideContract, ExtremeAspectRatiosRunOnTheClippedWindowDefinition) {
    // §16.1: the window exceeds the last scale; the reference corrupts its heap (3000×216,
    // 2560×216) or reads stale columns (216×2560). vq computes the clipped-window definition,
    // which the stage tests check against direct counting, including windows larger than the plane.
    for (const auto& [w, h] :
         std::vector<std::pair<int, int>>{{3000, 216}, {2560, 216}, {216, 2560}, {2400, 216}}) {
        const double score = run_frame("cambi", banded(format(w, h)))[0];
        EXPECT_TRUE(std::isfinite(score) && score >= 0) << w << "x" << h;
    }
}

TEST(CambiOutsideContract, VisLumThresholdThatCrashesTheReferenceScoresZero) {
    // §16.2: defaults plus cambi_vis_lum_threshold=100 segfault the reference CLI.
    const Picture picture = banded(format(576, 324));
    EXPECT_EQ(run_frame("cambi=cambi_vis_lum_threshold=100", picture)[0], 0.0);
    EXPECT_EQ(run_frame("cambi=cambi_vis_lum_threshold=300", picture)[0], 0.0);
    EXPECT_EQ(run_frame("cambi=max_log_contrast=0:cambi_vis_lum_threshold=3", picture)[0], 0.0);
}

TEST(CambiOutsideContract, TenBitPassThroughIsNotGarbledByTheSourceSize) {
    // §16.4: with full_ref and a src_width rounding to another stride the reference garbles the
    // distorted 10-bit plane (example C's clip: 21.779666 alone, 0.008121 with 336×240). vq's
    // distorted score does not depend on the reference's processing size.
    const Picture distorted =
        ::vq::test::make_picture(format(320, 240, 10), [](int p, int y, int x) {
            const int r = 100 + (3 * x + 2 * y) / 8;
            if (p > 0) return 0;
            return x >= 280 ? 300 + int(example_hash(std::uint32_t(x), std::uint32_t(y)) % 64)
                            : 4 * (r / 4);
        });
    const double alone = run_frame("cambi", distorted)[0];
    EXPECT_NEAR(alone, 21.779666, 5e-7);
    EXPECT_EQ(
        run_frame("cambi=full_ref=true:src_width=336:src_height=240", distorted, distorted)[0],
        alone);
    EXPECT_EQ(
        run_frame("cambi=full_ref=true:src_width=640:src_height=480", distorted, distorted)[0],
        alone);
}

TEST(CambiOutsideContract, HeatmapSamplesWrapAboveFullScale) {
    // §16.5 / §13: mlc=0 and ws=5 give cmax = 25/4 = 6, but c can reach 6.24.
    const ContrastParams contrast = contrast_params(Eotf::bt1886, 0.019, 0.0, 0);
    EXPECT_EQ(heatmap_full_scale(contrast, 5), 6);
    EXPECT_EQ(heatmap_sample(6.24f, 6), std::uint16_t(std::int64_t(double(6.24f) * 65535.0 / 6.0)));
    EXPECT_EQ(heatmap_sample(6.24f, 6), 2620);
    EXPECT_EQ(heatmap_sample(3.0f, 6), 32767);
    EXPECT_EQ(heatmap_full_scale(default_contrast(), 1), 1);  // ws 1: every c is 0
}

// ---- §13: heatmaps ----

TEST(CambiHeatmaps, RawFilesAndPngsPerFrameAndScale) {
    const auto dir = vq::test::scratch_dir("cambi_heatmaps") / "nested" / "dir";
    auto feature = make_cambi("cambi=heatmaps_path=" + dir.string());
    const Picture picture = banded(format(257, 145));
    feature->init(picture.format());
    std::vector<std::byte> block(feature->block_bytes());
    std::vector<double> scores(1);
    for (std::size_t frame = 0; frame < 2; ++frame) {
        feature->compute({.reference = {}, .distorted = picture, .index = frame}, block);
        feature->finish(block, scores);
    }
    const Config config = resolve_config(Options{}, picture.format());
    const auto sizes = scale_sizes(257, 145, false);
    for (int s = 0; s < num_scales; ++s) {
        const auto [w, h] = sizes[std::size_t(s)];
        const auto raw = dir / ("cambi_heatmap_scale_" + std::to_string(s) + "_" +
                                std::to_string(w) + "x" + std::to_string(h) + "_16b.gray");
        ASSERT_TRUE(std::filesystem::exists(raw)) << raw;
        EXPECT_EQ(std::filesystem::file_size(raw), std::uintmax_t(2 * w * h * 2)) << raw;
        for (int frame = 0; frame < 2; ++frame) {
            const auto png =
                dir / ("cambi_heatmap_scale_" + std::to_string(s) + "_" + std::to_string(w) + "x" +
                       std::to_string(h) + "_frame_" + std::to_string(frame) + ".png");
            std::ifstream in(png, std::ios::binary);
            char signature[8] = {};
            in.read(signature, 8);
            EXPECT_EQ(std::string(signature + 1, 3), "PNG") << png;
        }
    }
    // Frame 1 of scale 0 holds §13's samples of the picture's c-values.
    HeatmapFrame frame;
    score_picture(picture, config, config.distorted, &frame);
    std::ifstream in(dir / "cambi_heatmap_scale_0_257x145_16b.gray", std::ios::binary);
    std::vector<std::uint16_t> samples(257 * 145);
    in.seekg(257 * 145 * 2);
    in.read(reinterpret_cast<char*>(samples.data()), std::streamsize(samples.size() * 2));
    const int full_scale = heatmap_full_scale(config.contrast, config.distorted.window);
    long nonzero = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        ASSERT_EQ(samples[i], heatmap_sample(frame.c_values[0][i], full_scale)) << i;
        nonzero += samples[i] != 0;
    }
    EXPECT_GT(nonzero, 0);
}

TEST(CambiHeatmaps, UnusablePathIsRejected) {
    const auto file = vq::test::scratch_dir("cambi_heatmaps_file") / "plain_file";
    std::ofstream(file) << "x";
    const std::string message =
        init_error("cambi=heatmaps_path=" + file.string(), format(320, 240));
    EXPECT_NE(message.find("heatmaps_path"), std::string::npos) << message;
}

}  // namespace
}  // namespace vq::cambi::test
