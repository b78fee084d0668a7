// CAMBI twins stage by stage: the device pipeline's planes of one frame against the CPU twin's
// stage functions run on the same input: converted and anti-dithered plane, mask, each scale's
// filtered image, counting plane and c-values (all bit-exact), the exact top-k sums (exact), and
// the pooled means and score (bit-exact where the CPU's double sum is exact, within a few ulp
// where it follows the reference's summation order instead).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/check.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "cambi_cuda_test_support.hpp"
#include "cuda_test_support.hpp"
#include "metrics/cambi/cambi_cuda_pipeline.hpp"
#include "metrics/cambi/cambi_cpu.hpp"

namespace vq::cambi::test {
namespace {

using ::vq::test::Content;
using ::vq::test::ulp_distance;
using u128 = unsigned __int128;

// The largest pooled-mean difference allowed where the CPU sums in the reference's order; the
// tests print the largest seen.
constexpr std::uint64_t max_order_ulps = 64;

struct Case {
    int width;
    int height;
    int bit_depth;
    std::string request;
    Content scene;
};

std::string describe(const Case& c) {
    return std::to_string(c.width) + "x" + std::to_string(c.height) + " " +
           std::to_string(c.bit_depth) + "-bit " + to_string(c.scene) + " " + c.request;
}

void PrintTo(const Case& c, std::ostream* out) { *out << describe(c); }

// Σ·2^24 of the k largest values, and whether the reference's double sum of them is exact in any
// order (§15.3: every partial sum is a multiple of the smallest non-zero value's grid, below 2^53
// grid steps).
struct ExactTopK {
    u128 sum = 0;
    bool order_independent = true;
};

ExactTopK exact_top_k(std::vector<float> c, std::size_t k) {
    std::nth_element(c.begin(), c.begin() + std::ptrdiff_t(k - 1), c.end(), std::greater<float>());
    ExactTopK result;
    float smallest = 0.0f;
    for (std::size_t i = 0; i < k; ++i) {
        result.sum += u128(std::int64_t(double(c[i]) * 0x1p24));
        if (c[i] > 0.0f && (smallest == 0.0f || c[i] < smallest)) smallest = c[i];
    }
    if (smallest > 0.0f) {
        const int e = int(std::bit_cast<std::uint32_t>(smallest) >> 23) - 127;
        result.order_independent = 54 + e >= 128 || result.sum < (u128(1) << (54 + e));
    }
    return result;
}

// One picture through the CPU twin's stage functions, every intermediate plane kept.
struct ScaleTrace {
    std::size_t width = 0;
    std::vector<std::uint16_t> filtered;
    std::vector<std::uint16_t> counted;
    std::vector<float> c;
    std::size_t k = 0;
    ExactTopK exact;
    double pooled = 0;  // the CPU twin's
};

struct PictureTrace {
    std::vector<std::uint16_t> converted;
    std::vector<std::uint8_t> mask;
    std::array<ScaleTrace, num_scales> scales;
    double score = 0;
};

PictureTrace trace_picture(const Picture& picture, const Config& config, const PictureGeometry& g) {
    PictureTrace trace;
    std::vector<std::uint16_t> image(std::size_t(g.width) * std::size_t(g.height));
    convert_luma(picture, g, image.data());
    if (config.anti_dither) anti_dither(image.data(), g.width, g.height);
    trace.converted = image;
    std::vector<std::uint8_t> mask(image.size());
    spatial_mask(image.data(), g.width, g.height, g.mask_threshold, mask.data());
    trace.mask = mask;

    const auto sizes = scale_sizes(g.width, g.height, g.speedup);
    std::array<double, num_scales> pooled{};
    int w = g.width, h = g.height;
    for (int s = 0; s < num_scales; ++s) {
        ScaleTrace& t = trace.scales[std::size_t(s)];
        if (s > 0 || g.speedup) {
            decimate(image.data(), w, h, image.data());
            decimate(mask.data(), w, h, mask.data());
        }
        w = sizes[std::size_t(s)][0];
        h = sizes[std::size_t(s)][1];
        const std::size_t n = std::size_t(w) * std::size_t(h);
        t.width = std::size_t(w);
        mode_filter(image.data(), w, h);
        t.filtered.assign(image.begin(), image.begin() + std::ptrdiff_t(n));
        t.counted.resize(n);
        for (std::size_t i = 0; i < n; ++i) t.counted[i] = mask[i] ? t.filtered[i] : gpu::unmasked;
        t.c.resize(n);
        c_values(image.data(), mask.data(), w, h, g.window, config.contrast, t.c.data());
        t.k = top_k_count(n, config.topk);
        t.exact = exact_top_k(t.c, t.k);
        std::vector<float> pooling = t.c;
        t.pooled = top_k_mean(pooling, config.topk);
        pooled[std::size_t(s)] = t.pooled;
    }
    trace.score = combine_scales(pooled, g.window);
    return trace;
}

std::uint64_t largest_ulps_seen = 0;

void expect_close(double gpu, double cpu, bool exact, const std::string& what) {
    if (exact)
        EXPECT_EQ(gpu, cpu) << what;
    else
        EXPECT_LE(ulp_distance(gpu, cpu), max_order_ulps) << what;
    largest_ulps_seen = std::max(largest_ulps_seen, ulp_distance(gpu, cpu));
}

class CudaCambiStages : public testing::TestWithParam<Case> {};

TEST_P(CudaCambiStages, EveryPlaneMatchesTheCpuTwin) {
    const Case& c = GetParam();
    const VideoFormat format{c.width, c.height, c.bit_depth, ChromaFormat::yuv420};
    const Options options = Options::from(cambi_options(c.request));
    const Config config = resolve_config(options, format);
    const std::uint32_t seed = std::uint32_t(c.width * 31 + c.height + c.bit_depth);
    const FramePair pair{make_picture(format, Content::grainy, seed + 1),
                         make_picture(format, c.scene, seed)};
    const int pictures = config.full_ref ? 2 : 1;
    std::array<PictureTrace, gpu::max_pictures> traces;
    for (int p = 0; p < pictures; ++p)
        traces[std::size_t(p)] = trace_picture(p == 0 ? pair.distorted : pair.reference, config,
                                               p == 0 ? config.distorted : config.reference);
    // Host arithmetic first (runs without a GPU): the exact mean is the CPU twin's wherever the
    // CPU's sum is exact.
    for (int p = 0; p < pictures; ++p)
        for (int s = 0; s < num_scales; ++s) {
            const ScaleTrace& t = traces[std::size_t(p)].scales[std::size_t(s)];
            expect_close(exact_top_k_mean(t.exact.sum, t.k), t.pooled, t.exact.order_independent,
                         describe(c) + " picture " + std::to_string(p) + " scale " +
                             std::to_string(s) + ": pooled mean");
        }

    VQ_REQUIRE_CUDA();
    // The frame on the device, as the executor leaves it.
    cuda::DeviceBuffer distorted(format.frame_bytes()), reference(format.frame_bytes());
    cuda::copy(distorted.data(), pair.distorted.data(), format.frame_bytes());
    cuda::copy(reference.data(), pair.reference.data(), format.frame_bytes());
    const cuda::DeviceFrame frame{format, config.full_ref ? reference.data() : nullptr,
                                  distorted.data()};
    const cuda::Stream stream;
    CudaPipeline pipeline(config, format, stream.get());
    const cuda::DeviceArray<CudaBlock> device_block(1);
    pipeline.enqueue(frame, device_block.data(), stream.get());
    stream.synchronize();
    const CudaBlock block = cuda::to_host(device_block.data(), 1).front();

    ASSERT_EQ(pipeline.pictures(), pictures);
    for (int p = 0; p < pictures; ++p) {
        const std::string what = describe(c) + (p == 0 ? " distorted" : " reference");
        const PictureTrace& trace = traces[std::size_t(p)];
        ASSERT_EQ(pipeline.converted(p), trace.converted) << what;
        ASSERT_EQ(pipeline.mask(p), trace.mask) << what;
        bool exact = true;
        for (int s = 0; s < num_scales; ++s) {
            const std::string at = what + " scale " + std::to_string(s);
            const ScaleTrace& t = trace.scales[std::size_t(s)];
            ASSERT_EQ(pipeline.filtered(p, s), t.filtered) << at;
            ASSERT_EQ(pipeline.counted(p, s), t.counted) << at;
            const std::vector<float> gpu_c = pipeline.c_values(p, s);
            for (std::size_t i = 0; i < t.c.size(); ++i)
                ASSERT_EQ(std::bit_cast<std::uint32_t>(gpu_c[i]),
                          std::bit_cast<std::uint32_t>(t.c[i]))
                    << at << ": c-value at row " << i / t.width << ", column " << i % t.width;
            const auto& words = block.top_k_sums[p][s];
            ASSERT_TRUE((u128(words[1]) << 64 | words[0]) == t.exact.sum) << at << ": top-k sum";
            exact = exact && t.exact.order_independent;
        }
        expect_close(picture_score(block, p, config), trace.score, exact, what + ": score");
    }
    std::printf("largest pooled/score difference so far: %llu ulp\n",
                (unsigned long long)largest_ulps_seen);
}

std::vector<Case> cases() {
    std::vector<Case> all;
    // Sizes: the smallest accepted side, odd sizes, one side below 216, 1080p, 4K.
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{
             {216, 216}, {217, 301}, {641, 359}, {400, 150}, {1920, 1080}})
        for (const int depth : {8, 10})
            for (const Content scene : {Content::banded, Content::patchwork, Content::staircase})
                all.push_back({w, h, depth, "cambi", scene});
    all.push_back({3840, 2160, 8, "cambi", Content::banded});
    all.push_back({3840, 2160, 10, "cambi", Content::staircase});
    all.push_back({3840, 2160, 10, "cambi=cambi_high_res_speedup=2160", Content::patchwork});
    all.push_back({1920, 1080, 8, "cambi=cambi_high_res_speedup=1080", Content::banded});
    all.push_back({300, 240, 12, "cambi", Content::extremes});
    all.push_back({300, 240, 16, "cambi", Content::patchwork});
    all.push_back({300, 240, 9, "cambi", Content::staircase});
    // Every option.
    const std::vector<std::string> requests = {
        "cambi=window_size=15",
        "cambi=window_size=127",
        "cambi=topk=0.0001",
        "cambi=topk=1.0",
        "cambi=cambi_topk=0.2",
        "cambi=max_log_contrast=0",
        "cambi=max_log_contrast=3",
        "cambi=max_log_contrast=5",
        "cambi=max_log_contrast=5:tvi_threshold=1.0",
        "cambi=tvi_threshold=0.05",
        "cambi=eotf=pq",
        "cambi=cambi_eotf=pq:tvi_threshold=0.03",
        "cambi=cambi_vis_lum_threshold=5",
        "cambi=cambi_vis_lum_threshold=100",
        "cambi=enc_width=480:enc_height=270",
        "cambi=enc_width=320:enc_height=240:full_ref=true",
        "cambi=full_ref=true",
        "cambi=full_ref=true:src_width=960:src_height=540:enc_width=640:enc_height=360",
        "cambi=enc_bitdepth=8",
        "cambi=cambi_max_val=5",
    };
    for (const std::string& request : requests)
        for (const Content scene : {Content::banded, Content::staircase})
            all.push_back({641, 359, 10, request, scene});
    all.push_back(
        {1280, 720, 8, "cambi=full_ref=true:src_width=1920:src_height=1080", Content::patchwork});
    all.push_back({960, 540, 10, "cambi=max_log_contrast=5:window_size=127", Content::patchwork});
    return all;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
    std::string name = std::to_string(info.index) + "_" + describe(info.param);
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Cambi, CudaCambiStages, testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace vq::cambi::test
