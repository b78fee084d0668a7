// Bootstrap collections (spec/vmaf.md §8): loading by member keys, output names, and every
// per-frame output against the spec's formulas written out here independently.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/model.hpp"
#include "model_test_support.hpp"

namespace vq {
namespace {

using Json = nlohmann::ordered_json;

// The tiny model with its own rho, and optionally its own clip and an enabled transform.
Json member(double rho, double clip_max, bool transform) {
    Json m = test::tiny_model_json();
    auto& d = m["model_dict"];
    d["model_type"] = "BOOTSTRAP_LIBSVMNUSVR";
    d["score_clip"] = {0.0, clip_max};
    d["score_transform"]["enabled"] = transform;
    d["model"] = "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho " +
                 std::to_string(rho) + "\nSV\n1.5 1:0.2 \n-0.75 1:0.6\n";
    return m;
}

// §5 for the one-feature tiny model, straight from the spec's text.
double spec_prediction(double rho, double f) {
    const double x = 0.05 * f + 0.1;
    double s = 0.0;
    const double alpha[] = {1.5, -0.75}, sv[] = {0.2, 0.6};
    for (int j = 0; j < 2; ++j) {
        double d = 0.0;
        const double e = x - sv[j];
        d += e * e;
        s += alpha[j] * std::exp(-0.5 * d);
    }
    return (s - rho - -0.3) / 0.01;
}

double spec_finish(double y, double clip_max, bool transform) {
    if (transform) {
        double z = 0;
        z += 1.5;
        z += 1.1 * y;
        z += (-0.002 * y) * y;
        y = std::max(z, y);  // out_gte_in
    }
    return std::min(std::max(y, 0.0), clip_max);
}

TEST(ModelCollection, SyntheticCollectionMatchesTheFormulas) {
    const double rhos[] = {0.60, 0.55, 0.62, 0.5, 0.58};
    const double clips[] = {100, 100, 100, 40,
                            100};  // member 3's written score is clipped, its u_k is not
    const bool transforms[] = {false, true, false, false, true};
    Json file;
    file["note"] = "not a member";
    for (int k = 0; k < 5; ++k) {
        if (k == 2) file["x"] = {1, 2};  // skipped unread
        file[std::to_string(k)] = member(rhos[k], clips[k], transforms[k]);
    }
    file["9"] = 42;  // not the next index: skipped unread

    model::ModelRequest request = test::model_request("");
    request.path = "synthetic.json";
    request.name = "b";
    const model::ModelSet set = model::parse_models(file.dump(), "synthetic.json", request);
    ASSERT_EQ(set.collection.size(), 4u);
    const std::vector<std::string> names = {"b",        "b_0001",      "b_0002",
                                            "b_0003",   "b_0004",      "b_bagging",
                                            "b_stddev", "b_ci_p95_lo", "b_ci_p95_hi"};
    EXPECT_EQ(model::output_names(set), names);

    const double f = 3.0;
    std::vector<double> out(names.size());
    model::predict_frame(set, std::span(&f, 1), out);

    EXPECT_EQ(out[0], spec_finish(spec_prediction(rhos[0], f), clips[0], transforms[0]));
    std::vector<double> u;
    for (int k = 1; k <= 4; ++k) {
        u.push_back(spec_prediction(rhos[k], f));
        EXPECT_EQ(out[k], spec_finish(u.back(), clips[k], transforms[k])) << names[k];
    }
    ASSERT_GT(u[2], clips[3]);  // the case the spec singles out

    double sum = 0;
    for (double v : u) sum += v;
    const double mean = sum / 4;
    double ssd = 0;
    for (double v : u) ssd += std::pow(v - mean, 2);
    const double stddev = std::sqrt(ssd / 4);
    std::sort(u.begin(), u.end());
    const auto percentile = [&](double P) {
        const double p = P * 3 / 100.;
        const double l = std::floor(p), r = std::ceil(p);
        return l == r ? u[std::size_t(l)]
                      : u[std::size_t(l)] * (r - p) + u[std::size_t(r)] * (p - l);
    };
    const auto T = [&](double x) {
        return spec_finish(x, clips[1], transforms[1]);
    };  // member "1"'s
    const double slope = (T(mean + 0.01) - T(mean - 0.01)) / (2.0 * 0.01);
    EXPECT_EQ(out[5], T(mean));
    EXPECT_EQ(out[6], stddev * slope);
    EXPECT_EQ(out[7], T(percentile(2.5)));
    EXPECT_EQ(out[8], T(percentile(97.5)));
    EXPECT_NE(slope, 1.0);  // the transform is really in play
}

TEST(ModelCollection, ClippedMeanGivesZeroStddev) {  // §8 step 4
    Json file;
    file["0"] = member(0.6, 100, false);
    file["1"] = member(-5.0, 100, false);  // far above 100
    file["2"] = member(-5.5, 100, false);
    const model::ModelSet set =
        model::parse_models(file.dump(), "high.json", test::model_request(""));
    std::vector<double> out(model::output_names(set).size());
    const double f = 3.0;
    model::predict_frame(set, std::span(&f, 1), out);
    EXPECT_EQ(out[3], 100.0);  // bagging
    EXPECT_EQ(out[4], 0.0);    // stddev
}

TEST(ModelCollection, RequestSettingsApplyToEveryMember) {
    Json file;
    for (int k = 0; k < 3; ++k) file[std::to_string(k)] = member(-5.0, 100, false);
    model::ModelRequest request = test::model_request("");
    request.disable_clip = true;
    request.enable_transform = true;
    request.overrides.push_back({"motion", "motion_force_zero", "true"});
    const model::ModelSet set = model::parse_models(file.dump(), "c.json", request);
    for (const model::Model* m : {&set.main, &set.collection[0], &set.collection[1]}) {
        EXPECT_FALSE(m->clip) << m->name;
        EXPECT_TRUE(m->transform_enabled) << m->name;
        EXPECT_EQ(
            m->features[0].options,
            (std::vector<std::pair<std::string, std::string>>{{"motion_force_zero", "true"}}));
    }
}

TEST(ModelCollection, VmafB063) {
    const model::ModelSet set = test::parse_builtin("vmaf_b_v0.6.3");
    ASSERT_EQ(set.collection.size(), 20u);
    const std::vector<std::string> names = model::output_names(set);
    ASSERT_EQ(names.size(), 25u);
    EXPECT_EQ(names[0], "vmaf");
    EXPECT_EQ(names[1], "vmaf_0001");
    EXPECT_EQ(names[20], "vmaf_0020");
    EXPECT_EQ(std::vector<std::string>(names.begin() + 21, names.end()),
              (std::vector<std::string>{"vmaf_bagging", "vmaf_stddev", "vmaf_ci_p95_lo",
                                        "vmaf_ci_p95_hi"}));
    EXPECT_EQ(set.main.svm.coefficients.size(), 210u);
    EXPECT_EQ(set.collection[0].svm.coefficients.size(), 214u);

    // A frame of grad_576x324_8b_420 (adm2, motion2, vif_scale0..3).
    const std::array<double, 6> f = {0.8964223296545727,  0,
                                     0.49195265769958496, 0.999990701675415,
                                     0.9999902844429016,  0.9999897480010986};
    std::vector<double> out(names.size());
    model::predict_frame(set, f, out);
    EXPECT_EQ(out[0], model::predict(set.main, f));
    for (std::size_t k = 0; k < 20; ++k)
        EXPECT_EQ(out[1 + k], model::predict(set.collection[k], f)) << names[1 + k];
    EXPECT_LE(out[23], out[21]);  // lo <= bagging <= hi
    EXPECT_LE(out[21], out[24]);
    EXPECT_GT(out[22], 0.0);
}

}  // namespace
}  // namespace vq
