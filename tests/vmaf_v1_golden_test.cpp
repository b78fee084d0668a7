// The VMAF v1.0.16 models end to end (spec/vmaf-v1.md): each v1 golden's every per-frame key and
// pooled value, bit for bit, through the session and through the CLI; CAMBI as a model feature,
// shared with --feature cambi and with other models of the run; the size limits of §8.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/model.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "vmaf_golden_support.hpp"
#include "vq/error.hpp"

namespace vq::test {
namespace {

namespace fs = std::filesystem;

// CAMBI, adm3 and motion3 with the v1.0.16 options, and a two-vector SVM: a model that needs no
// speed_chroma, written where the test can hand it to path=.
fs::path write_cambi_model(const fs::path& dir) {
    const nlohmann::ordered_json model = nlohmann::ordered_json::parse(R"({
      "model_dict": {
        "model_type": "LIBSVMNUSVR",
        "norm_type": "linear_rescale",
        "feature_names": ["Cambi_feature_cambi_score", "VMAF_integer_feature_adm3_score",
                          "VMAF_integer_feature_motion3_score"],
        "feature_opts_dicts": [
          {"cambi_high_res_speedup": 1080, "cambi_vis_lum_threshold": 0.06, "cambi_max_val": 17.0},
          {"adm_dlm_weight": 0.7, "adm_enhn_gain_limit": 1.0, "adm_noise_weight": 0.02,
           "adm_norm_view_dist": 3.0, "adm_ref_display_height": 1080, "adm_min_val": 0.5,
           "adm_csf_mode": 2},
          {"motion_max_val": 18.0}],
        "slopes": [0.012, 0.07, 4.0, 0.06],
        "intercepts": [-0.3, -0.0002, -3.0, -0.003],
        "score_clip": [0.0, 100.0],
        "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho -0.25\nSV\n1.5 1:0.2 2:0.9 3:0.1 \n-0.75 1:0.6 2:0.5\n"
      }
    })");
    const fs::path path = dir / "cambi_model.json";
    std::ofstream(path) << model.dump(2);
    return path;
}

const std::string v1_cambi =
    "cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06";
const std::string v1_cambi_key = "cambi_hrs_1080_cmxv_17_vlt_0.06";

std::size_t receipts_of(const ScoreTable& table, const std::string& feature) {
    std::size_t count = 0;
    for (const FeatureReceipt& receipt : table.receipts()) count += receipt.feature == feature;
    return count;
}

class VmafV1Golden : public ::testing::TestWithParam<GoldenCase> {
protected:
    void expect_golden(const SessionConfig& config, const std::string& what) {
        VQ_REQUIRE_FIXTURES(fixtures);
        const GoldenCase& c = GetParam();
        expect_matches(score_fixture(fixtures, c.fixture, {c.request}, config), read_golden(c),
                       c.golden + what);
    }
};

TEST_P(VmafV1Golden, EveryKeyEveryFrameAndPooled) { expect_golden({}, ""); }

TEST_P(VmafV1Golden, OneThreadGivesTheSameBits) { expect_golden({.threads = 1}, " --threads 1"); }

INSTANTIATE_TEST_SUITE_P(Models, VmafV1Golden, ::testing::ValuesIn(vmaf_v1_golden_cases()),
                         golden_case_name);

// The CLI's JSON at %.17g: the golden's keys in its order, every value, with version= and path=.
TEST(VmafV1Cli, JsonHasTheGoldensKeysInOrderAndItsValues) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const fs::path dir = scratch_dir("vmaf_v1_cli");
    const fs::path clip = fixtures / "testsrc_576x324_8b_420";
    const std::string io =
        "-r \"" + (clip / "ref.y4m").string() + "\" -d \"" + (clip / "dist.y4m").string() + "\"";
    const std::string model_file =
        (*shared_dir() / "models" / "vmaf_v1.0.16_hfr_3d0h.json").string();
    const std::pair<std::string, std::string> runs[] = {
        {"-m version=vmaf_v1.0.16_3d0h", "testsrc_576x324_8b_420__vmaf_v1_3d0h.json"},
        {"-m version=vmaf_v1.0.16_3d0h --threads 1", "testsrc_576x324_8b_420__vmaf_v1_3d0h.json"},
        {"-m version=vmaf_v1.0.16_hfr_3d0h", "testsrc_576x324_8b_420__vmaf_v1_hfr_3d0h.json"},
        {"-m \"path=" + model_file + "\"", "testsrc_576x324_8b_420__vmaf_v1_hfr_3d0h.json"},
        {"-m version=vmaf_v1.0.16_5d0h --threads 1", "testsrc_576x324_8b_420__vmaf_v1_5d0h.json"},
    };
    for (const auto& [flags, golden_name] : runs) {
        SCOPED_TRACE(flags);
        const fs::path out = dir / "out.json";
        const auto result =
            run_vq(io + " " + flags + " --json --precision max -q -o \"" + out.string() + "\"");
        ASSERT_EQ(result.exit_code, 0) << result.output;
        const auto ours = nlohmann::ordered_json::parse(read_file(out));
        const auto golden = nlohmann::ordered_json::parse(read_file(*golden_dir() / golden_name));
        ASSERT_EQ(ours["frames"].size(), golden["frames"].size());
        for (std::size_t f = 0; f < golden["frames"].size(); ++f) {
            std::vector<std::string> our_keys, golden_keys;
            for (const auto& [key, value] : ours["frames"][f]["metrics"].items())
                our_keys.push_back(key);
            for (const auto& [key, value] : golden["frames"][f]["metrics"].items())
                golden_keys.push_back(key);
            ASSERT_EQ(our_keys, golden_keys) << "frame " << f;
            for (const std::string& key : golden_keys)
                EXPECT_EQ(ours["frames"][f]["metrics"][key].get<double>(),
                          golden["frames"][f]["metrics"][key].get<double>())
                    << "frame " << f << " " << key;
        }
        for (const auto& [key, pooled] : golden["pooled_metrics"].items())
            for (const auto& [method, value] : pooled.items())
                EXPECT_EQ(ours["pooled_metrics"][key][method].get<double>(), value.get<double>())
                    << key << " " << method;
    }
}

// CAMBI is a model feature like any other: the model's instance and a --feature request with the
// same options are one extractor run, whose column the model reads.
TEST(VmafV1Model, CambiRunsOnceForTheModelAndTheSameFeatureRequest) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const fs::path model_path = write_cambi_model(scratch_dir("vmaf_v1_cambi_model"));
    const GoldenCase golden_case{"testsrc_576x324_8b_420__vmaf_v1_3d0h.json",
                                 "testsrc_576x324_8b_420", ""};
    const auto golden = read_golden(golden_case);

    Session session;
    session.add_feature(v1_cambi);
    session.add_model("path=" + model_path.string());
    const auto frames = fixture_frames(fixtures, golden_case.fixture);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    const ScoreTable table = session.finish();

    EXPECT_EQ(receipts_of(table, "cambi"), 1u);
    const std::string adm3 = "integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02";
    const std::string motion3 = "integer_motion3_mmxv_18";
    for (const std::string& key : {v1_cambi_key, adm3, motion3})
        expect_column(table, key, golden, key, "cambi model");

    const model::ModelSet set =
        model::load(model::parse_model_request("path=" + model_path.string()));
    for (std::size_t f = 0; f < table.frame_count(); ++f) {
        const std::array<double, 3> features = {*table.value(*table.find(v1_cambi_key), f),
                                                *table.value(*table.find(adm3), f),
                                                *table.value(*table.find(motion3), f)};
        EXPECT_EQ(table.value(*table.find("vmaf"), f), model::predict(set.main, features))
            << "frame " << f;
    }
}

// Two models in one pass: each keeps its own score, and each distinct (feature, options) runs
// once (the default model's adm and motion beside the v1 options' adm and motion).
TEST(VmafV1Model, SeveralModelsInOnePass) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const std::string fixture = "testsrc_576x324_8b_420";
    const GoldenCase v061{fixture + "__vmaf.json", fixture, ""};
    const fs::path model_path = write_cambi_model(scratch_dir("vmaf_v1_several"));
    const ScoreTable table =
        score_fixture(fixtures, fixture,
                      {"version=vmaf_v0.6.1", "path=" + model_path.string() + ":name=vmaf_cambi"});
    expect_column(table, "vmaf", read_golden(v061), "vmaf", "v0.6.1 beside another model");
    EXPECT_TRUE(table.find("vmaf_cambi"));
    EXPECT_EQ(receipts_of(table, "adm"), 2u);     // default options, and the v1 options
    EXPECT_EQ(receipts_of(table, "motion"), 2u);  // likewise
    EXPECT_EQ(receipts_of(table, "cambi"), 1u);
    EXPECT_EQ(receipts_of(table, "vif"), 1u);
}

TEST(VmafV1Model, DefaultAndV1ModelsInOnePassMatchBothGoldens) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const std::string fixture = "testsrc_576x324_8b_420";
    const ScoreTable table = score_fixture(
        fixtures, fixture, {"version=vmaf_v0.6.1", "version=vmaf_v1.0.16_3d0h:name=vmaf_v1"});
    const auto v061 = read_golden({fixture + "__vmaf.json", fixture, ""});
    const auto v1 = read_golden({fixture + "__vmaf_v1_3d0h.json", fixture, ""});
    for (const auto& [key, value] : v061["frames"][0]["metrics"].items())
        expect_column(table, key, v061, key, "v0.6.1 with v1");
    for (const auto& [key, value] : v1["frames"][0]["metrics"].items())
        expect_column(table, key == "vmaf" ? "vmaf_v1" : key, v1, key, "v1 with v0.6.1");
    EXPECT_EQ(receipts_of(table, "cambi"), 1u);
    EXPECT_EQ(receipts_of(table, "speed_chroma"), 1u);
}

// §2.4: an override reaches the extractor and renames its outputs.
TEST(VmafV1Model, CambiOverridesRenameTheModelsCambiColumn) {
    const model::ModelSet set = model::load(model::parse_model_request(
        "version=vmaf_v1.0.16_3d0h:cambi.enc_width=1280:cambi.enc_height=720:"
        "cambi.enc_bitdepth=8:speed_chroma.speed_max_val=5"));
    EXPECT_EQ(set.main.features[0].column,
              "cambi_hrs_1080_cmxv_17_vlt_0.06_encbd_8_ench_720_encw_1280");
    EXPECT_EQ(set.main.features[1].column, "speed_chroma_uv_mxv_5_nnf_0.1_snn_0.19_wvm_5");
    EXPECT_EQ(set.extractors.size(), 4u);
}

// §8: an input a model's extractor cannot score is a one-line usage error naming the extractor.
void expect_refused(const std::string& model, const VideoFormat& format, const std::string& what) {
    SCOPED_TRACE(model + " " + describe(format));
    Session session;
    session.add_model(model);
    try {
        session.start(format);
        session.push(
            {make_picture(format, Content::texture, 1), make_picture(format, Content::texture, 2)});
        (void)session.finish();
        FAIL() << "accepted";
    } catch (const Error& e) {
        const std::string message = e.what();
        EXPECT_EQ(e.kind(), ErrorKind::usage) << message;
        EXPECT_NE(message.find(what), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

void expect_scored(const std::string& model, const VideoFormat& format) {
    SCOPED_TRACE(model + " " + describe(format));
    Session session;
    session.add_model(model);
    session.start(format);
    session.push(
        {make_picture(format, Content::texture, 1), make_picture(format, Content::texture, 2)});
    const ScoreTable table = session.finish();
    EXPECT_TRUE(table.value(*table.find("vmaf"), 0).has_value());
}

TEST(VmafV1Limits, TooSmallForCambi) {
    expect_refused("version=vmaf_v1.0.16_3d0h", {160, 160, 8, ChromaFormat::yuv420}, "cambi");
    expect_refused("version=vmaf_v1.0.16_1d5h_2160", {200, 200, 8, ChromaFormat::yuv420}, "216");
}

// After the prescale the chroma plane must hold 5 blocks of 16 each way (speed.md §1.4).
TEST(VmafV1Limits, TooSmallForSpeedChromaAfterItsPrescale) {
    expect_refused("version=vmaf_v1.0.16_5d0h", {264, 264, 8, ChromaFormat::yuv420},
                   "speed_chroma");
    expect_scored("version=vmaf_v1.0.16_5d0h", {266, 266, 8, ChromaFormat::yuv420});
    expect_refused("version=vmaf_v1.0.16_hfr_3d0h_2160", {316, 316, 8, ChromaFormat::yuv420},
                   "speed_chroma");
    expect_scored("version=vmaf_v1.0.16_3d0h_2160", {318, 318, 8, ChromaFormat::yuv420});
    expect_refused("version=vmaf_v1.0.16_3d0h", {400, 400, 8, ChromaFormat::yuv400},
                   "speed_chroma");
}

TEST(VmafV1Cli, ListModelsGivesEveryBuiltInModelWithItsUse) {
    const auto list = run_vq("--list-models");
    ASSERT_EQ(list.exit_code, 0) << list.output;
    for (const std::string_view name : model::builtin_names()) {
        const std::size_t line = list.output.find(std::string(name) + " ");
        ASSERT_NE(line, std::string::npos) << name;
        EXPECT_NE(list.output.find(model::builtin_use(name), line), std::string::npos) << name;
    }
    EXPECT_NE(run_vq("--help").output.find("--list-models"), std::string::npos);
}

}  // namespace
}  // namespace vq::test
