// VMAF prediction against the worked examples of spec/vmaf.md §9.5, §9.6 and §9.3.
#include <array>
#include <vector>

#include <gtest/gtest.h>

#include "model/model.hpp"
#include "model_test_support.hpp"

namespace vq {
namespace {

using test::parse_builtin;
using Features = std::array<double, 6>;  // adm2, motion2, vif_scale0..3

double vmaf(std::string_view version, const Features& f, bool enable_transform = false) {
    const model::ModelSet set = parse_builtin(version, enable_transform);
    return model::predict(set.main, f);
}

TEST(ModelExample, BuiltInModelsHaveTheSpecsSvm) {  // §4.3
    const model::ModelSet v061 = parse_builtin("vmaf_v0.6.1");
    EXPECT_EQ(v061.main.svm.coefficients.size(), 211u);
    EXPECT_EQ(v061.main.svm.gamma, 0.04);
    EXPECT_EQ(v061.main.svm.rho, -1.33133);
    EXPECT_EQ(v061.main.svm.coefficients[0], -4);
    EXPECT_FALSE(v061.main.transform_enabled);  // no `enabled` key: off by default
    EXPECT_TRUE(v061.main.transform.out_gte_in);
    EXPECT_EQ(*v061.main.transform.p2, -0.00705305);
    EXPECT_TRUE(v061.main.clip);
    EXPECT_EQ(v061.main.clip_max, 100.0);
    EXPECT_TRUE(v061.collection.empty());

    const model::ModelSet k4 = parse_builtin("vmaf_4k_v0.6.1");
    EXPECT_EQ(k4.main.svm.coefficients.size(), 262u);
    EXPECT_EQ(k4.main.svm.rho, -2.30449);
    EXPECT_FALSE(k4.main.transform.p0 || k4.main.transform.p1 || k4.main.transform.p2);

    // The omitted index 5 of §4.2's example line reads as 0.
    const model::ModelSet neg = parse_builtin("vmaf_v0.6.1neg");
    EXPECT_EQ(neg.main.svm.vectors, v061.main.svm.vectors);
    EXPECT_EQ(neg.main.slopes, v061.main.slopes);
}

TEST(ModelExample, StandaloneVector) {  // §9.5
    const Features f = {0.93456, 4.5, 0.5, 0.85, 0.9, 0.93};
    EXPECT_EQ(vmaf("vmaf_v0.6.1", f), 79.211011943420701);
    EXPECT_EQ(vmaf("vmaf_4k_v0.6.1", f), 85.386319244556404);
    EXPECT_EQ(vmaf("vmaf_v0.6.1", f, true), 94.206135825600427);
    EXPECT_EQ(vmaf("vmaf_4k_v0.6.1", f, true), 85.386319244556404);  // no transform in the file
}

TEST(ModelExample, HighQualityVectorIsClippedAfterTheTransform) {  // §9.5
    const Features f = {0.999, 2.0, 0.98, 0.995, 0.997, 0.998};
    const model::ModelSet set = parse_builtin("vmaf_v0.6.1", true);
    EXPECT_EQ(model::predict_unfinished(set.main, f), 99.62593772268437);
    EXPECT_EQ(model::predict(set.main, f), 100.0);
    EXPECT_EQ(vmaf("vmaf_v0.6.1", f), 99.62593772268437);
}

TEST(ModelExample, TenBitSequence) {  // §9.5 with the VIF of §9.3
    const std::vector<Features> frames = {
        {0.86437883406685512, 0, 0.56529176235198975, 0.73128342628479004, 0.72400343418121338,
         0.7248803973197937},
        {0.85861220213768652, 2.7993860244750977, 0.5638241171836853, 0.72770547866821289,
         0.71980524063110352, 0.72164052724838257},
        {0.85516633465748693, 2.7993860244750977, 0.565024733543396, 0.72887039184570312,
         0.72006279230117798, 0.72017776966094971},
    };
    const std::vector<double> v061 = {40.377801187600909, 42.106265869231947, 41.343854105641228};
    const std::vector<double> k4 = {57.035954916492258, 57.78133485411, 57.140440428957092};
    for (std::size_t i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(vmaf("vmaf_v0.6.1", frames[i]), v061[i]) << "frame " << i;
        EXPECT_EQ(vmaf("vmaf_4k_v0.6.1", frames[i]), k4[i]) << "frame " << i;
    }
}

TEST(ModelExample, TenBitNegFrame0) {  // §9.5 NEG, with §9.3's NEG VIF
    const Features f = {0.84838532251140297, 0,
                        0.55406743288040161, 0.72088485956192017,
                        0.71625083684921265, 0.7195093035697937};
    EXPECT_EQ(vmaf("vmaf_v0.6.1neg", f), 36.953677732039374);
}

TEST(ModelExample, OddSizeSequence) {  // §9.6
    const std::vector<Features> frames = {
        {0.95168943708788811, 0, 0.71308737993240356, 0.96843177080154419, 0.98032033443450928,
         0.99905431270599365},
        {0.94537462584053389, 3.7208323625349489, 0.71054250001907349, 0.97049516439437866,
         0.98162347078323364, 0.99894064664840698},
        {0.92026780782224771, 3.7262202935694315, 0.71334981918334961, 0.97313249111175537,
         0.98291629552841187, 0.99811995029449463},
    };
    const std::vector<double> expected = {85.951924983161362, 89.354452679387393,
                                          83.952449237761869};
    for (std::size_t i = 0; i < frames.size(); ++i)
        EXPECT_EQ(vmaf("vmaf_v0.6.1", frames[i]), expected[i]) << "frame " << i;
}

TEST(ModelExample, DisableClipKeepsTheTransformedScore) {
    model::ModelRequest request = test::model_request("vmaf_v0.6.1", true);
    request.disable_clip = true;
    const model::ModelSet set =
        model::parse_models(model::builtin("vmaf_v0.6.1"), "vmaf_v0.6.1", request);
    const Features f = {0.999, 2.0, 0.98, 0.995, 0.997, 0.998};
    EXPECT_EQ(model::predict(set.main, f), 103.70096453348813);  // §9.5: clipped to 100 otherwise
}

TEST(ModelExample, OutputNameFollowsTheRequest) {
    model::ModelRequest request = test::model_request("vmaf_v0.6.1neg");
    EXPECT_EQ(
        model::output_names(model::parse_models(model::builtin("vmaf_v0.6.1neg"), "neg", request)),
        std::vector<std::string>{"vmaf"});  // §5: NEG is still "vmaf" unless renamed
    request.name = "vmaf_neg";
    EXPECT_EQ(
        model::output_names(model::parse_models(model::builtin("vmaf_v0.6.1neg"), "neg", request)),
        std::vector<std::string>{"vmaf_neg"});
}

}  // namespace
}  // namespace vq
