// The numbers through vq.h are the C++ library's: fixture clips pushed from padded caller memory,
// or read by vq_run_files, against the reference's goldens bit for bit (8-bit and 10-bit, VMAF
// v0.6.1 and PSNR); and a running session's settled frames read as the finished result says.
#include <memory>

#include "capi_test_support.hpp"
#include "test_support.hpp"

namespace vq::test {
namespace {

struct CapiGolden {
    std::string fixture;
    std::string golden;  // file in shared/golden
    const char* feature = nullptr;
    const char* model = nullptr;
    std::vector<std::string> keys;  // empty: every per-frame key of the golden
};

void PrintTo(const CapiGolden& c, std::ostream* out) { *out << c.golden; }

const CapiGolden cases[] = {
    {"grad_576x324_8b_420", "grad_576x324_8b_420__vmaf.json", nullptr, "version=vmaf_v0.6.1", {}},
    {"grad_576x324_10b_420", "grad_576x324_10b_420__vmaf.json", nullptr, "version=vmaf_v0.6.1",
     {}},
    {"grad_576x324_8b_420", "grad_576x324_8b_420__feat.json", "psnr", nullptr,
     {"psnr_y", "psnr_cb", "psnr_cr"}},
    {"grad_576x324_10b_420", "grad_576x324_10b_420__psnr_opts.json",
     "psnr=enable_mse=true:enable_apsnr=true", nullptr, {}},
};

using ResultPtr = std::unique_ptr<vq_result, decltype(&vq_result_destroy)>;
using SessionPtr = std::unique_ptr<vq_session, decltype(&vq_session_destroy)>;

class CapiGoldenRun : public ::testing::TestWithParam<CapiGolden> {};

// Pushes the fixture's frames from padded caller memory on `backend`, reading the settled frames
// while the run goes; the result matches the golden and the settled reads.
void score_pushed(const std::filesystem::path& fixtures, const CapiGolden& c,
                  vq_backend backend) {
    const Clip clip = read_y4m(fixtures / c.fixture / "ref.y4m");
    const Clip distorted = read_y4m(fixtures / c.fixture / "dist.y4m");
    vq_config config = vq_config_default();
    config.threads = 2;
    config.backend = backend;
    vq_session* created = nullptr;
    ASSERT_EQ(vq_session_create(&config, &created), VQ_OK);
    SessionPtr session(created, &vq_session_destroy);
    if (c.feature) {
        ASSERT_EQ(vq_session_add_feature(created, c.feature), VQ_OK);
    }
    if (c.model) {
        ASSERT_EQ(vq_session_add_model(created, c.model), VQ_OK);
    }
    const vq_status started = vq_session_start(created, &clip.format);
    if (backend == VQ_BACKEND_CUDA && started != VQ_OK)
        GTEST_SKIP() << "no CUDA backend here: " << vq_session_last_error(created);
    ASSERT_EQ(started, VQ_OK) << vq_session_last_error(created);

    // While the run goes, every settled frame's scores, as the session tells them.
    std::vector<std::vector<double>> settled;  // [frame][score]
    std::size_t ready = 0;
    for (std::size_t f = 0; f < clip.frames.size(); ++f) {
        const CallerPicture reference = clip.picture(f, 24);
        const CallerPicture dist = distorted.picture(f, 40);
        ASSERT_EQ(vq_session_push(created, &reference.picture, &dist.picture), VQ_OK)
            << vq_session_last_error(created);
        std::size_t now = 0;
        ASSERT_EQ(vq_session_frames_ready(created, &now), VQ_OK);
        EXPECT_GE(now, ready);
        EXPECT_LE(now, f + 1);
        std::size_t scores = 0;
        ASSERT_EQ(vq_session_score_count(created, &scores), VQ_OK);
        for (; ready < now; ++ready) {
            settled.emplace_back();
            for (std::size_t s = 0; s < scores; ++s) {
                double value = 0;
                int present = 0;
                ASSERT_EQ(vq_session_frame_value(created, s, ready, &value, &present), VQ_OK);
                EXPECT_TRUE(present);
                settled.back().push_back(value);
            }
        }
    }
    vq_result* finished = nullptr;
    ASSERT_EQ(vq_session_finish(created, &finished), VQ_OK) << vq_session_last_error(created);
    session.reset();
    ResultPtr result(finished, &vq_result_destroy);
    const auto golden = nlohmann::json::parse(read_file(*golden_dir() / c.golden));
    expect_matches_golden(finished, golden, c.keys, c.golden + " (pushed)");

    EXPECT_GT(settled.size(), 0u) << "no frame was ready before finish";
    for (std::size_t f = 0; f < settled.size(); ++f)
        for (std::size_t s = 0; s < settled[f].size(); ++s) {
            double value = 0;
            int present = 0;
            ASSERT_EQ(vq_result_frame_value(finished, s, f, &value, &present), VQ_OK);
            EXPECT_EQ(settled[f][s], value) << "score " << s << " frame " << f;
        }
    const char* used = nullptr;
    ASSERT_EQ(vq_result_backend_used(finished, &used), VQ_OK);
    if (backend == VQ_BACKEND_CPU) EXPECT_STREQ(used, "cpu");
    if (backend == VQ_BACKEND_CUDA) EXPECT_NE(std::string(used).find("cuda"), std::string::npos);
}

TEST_P(CapiGoldenRun, PushedFromCallerMemory) {
    VQ_REQUIRE_FIXTURES(fixtures);
    score_pushed(fixtures, GetParam(), VQ_BACKEND_CPU);
}

// The session's pinned staging buffers (Session::buffer_allocator) take the caller's copies.
TEST_P(CapiGoldenRun, PushedFromCallerMemoryOnCuda) {
    VQ_REQUIRE_FIXTURES(fixtures);
    score_pushed(fixtures, GetParam(), VQ_BACKEND_CUDA);
}

TEST_P(CapiGoldenRun, ReadFromFiles) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const CapiGolden& c = GetParam();
    const char* const features[] = {c.feature, nullptr};
    const char* const models[] = {c.model, nullptr};
    vq_result* finished = nullptr;
    ASSERT_EQ(vq_run_files((fixtures / c.fixture / "ref.y4m").c_str(),
                           (fixtures / c.fixture / "dist.y4m").c_str(), features, models, nullptr,
                           &finished),
              VQ_OK)
        << vq_last_error();
    ResultPtr result(finished, &vq_result_destroy);
    const auto golden = nlohmann::json::parse(read_file(*golden_dir() / c.golden));
    expect_matches_golden(finished, golden, c.keys, c.golden + " (files)");
    const char* backend = nullptr;
    ASSERT_EQ(vq_result_backend_used(finished, &backend), VQ_OK);
    EXPECT_STREQ(backend, "cpu");
}

INSTANTIATE_TEST_SUITE_P(Goldens, CapiGoldenRun, ::testing::ValuesIn(cases),
                         [](const auto& info) {
                             std::string name = info.param.golden.substr(
                                 0, info.param.golden.size() - std::string(".json").size());
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

}  // namespace
}  // namespace vq::test
