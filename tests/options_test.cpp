// Option strings (libvmaf's NAME=key=val:key=val) and typed option binding.
#include <gtest/gtest.h>

#include "vq/error.hpp"
#include "feature/options.hpp"

namespace vq {
namespace {

const std::vector<OptionSpec> table = {
    {"flag", OptionType::boolean, false, 0, 0, {}, "", "a switch"},
    {"size", OptionType::integer, std::int64_t(65), 15, 127, {}, "ws", "a window"},
    {"ratio", OptionType::real, 0.6, 0.0001, 1.0, {}, "topk", "a fraction"},
    {"curve", OptionType::text, std::string("bt1886"), 0, 0, {"bt1886", "pq"}, "eotf", "a choice"},
};

TEST(OptionString, SplitsNameAndOptions) {
    const auto request = parse_feature_request("cambi=window_size=33:topk=0.2");
    EXPECT_EQ(request.name, "cambi");
    ASSERT_EQ(request.options.size(), 2u);
    EXPECT_EQ(request.options[0], (std::pair<std::string, std::string>{"window_size", "33"}));
    EXPECT_EQ(request.options[1], (std::pair<std::string, std::string>{"topk", "0.2"}));
    EXPECT_TRUE(parse_feature_request("psnr").options.empty());
}

TEST(OptionString, RejectsMalformedText) {
    for (const char* text :
         {"", "=x=1", "psnr=enable_mse", "psnr=a=1=2", "psnr=a=1:", "psnr=:a=1", "psnr==1"})
        EXPECT_THROW(parse_feature_request(text), Error) << text;
}

TEST(OptionBinding, DefaultsAndParsedValues) {
    const auto values = bind_options(
        "f", table, {{"size", "33"}, {"ratio", "0.2"}, {"flag", "true"}, {"curve", "pq"}});
    EXPECT_EQ(values.get_int("size"), 33);
    EXPECT_EQ(values.get_double("ratio"), 0.2);
    EXPECT_TRUE(values.get_bool("flag"));
    EXPECT_EQ(values.get_string("curve"), "pq");
    const auto defaults = bind_options("f", table, {});
    EXPECT_EQ(defaults.get_int("size"), 65);
    EXPECT_TRUE(defaults.is_default("ratio"));
}

TEST(OptionBinding, LaterValueWins) {
    EXPECT_EQ(bind_options("f", table, {{"size", "20"}, {"size", "30"}}).get_int("size"), 30);
}

TEST(OptionBinding, NormalisesNumbersLikeLibvmaf) {
    // libvmaf reads numbers as floats and reprints them with %g before parsing.
    EXPECT_EQ(bind_options("f", table, {{"ratio", "0.1234567"}}).get_double("ratio"), 0.123457);
}

TEST(OptionBinding, RejectsUnknownKeysAndBadValues) {
    const std::vector<std::pair<std::string, std::string>> bad[] = {
        {{"nope", "1"}},    {{"flag", "1"}},    {{"flag", "yes"}}, {{"size", "14"}},
        {{"size", "128"}},  {{"size", "3.5"}},  {{"size", "abc"}}, {{"size", ""}},
        {{"ratio", "0"}},   {{"ratio", "1.5"}}, {{"ratio", "x"}},  {{"ratio", "nan"}},
        {{"curve", "srgb"}}};
    for (const auto& options : bad) {
        try {
            bind_options("f", table, options);
            ADD_FAILURE() << options[0].first << "=" << options[0].second << " accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::usage);
            EXPECT_NE(std::string(e.what()).find(options[0].first), std::string::npos) << e.what();
        }
    }
}

TEST(OptionBinding, OutputSuffixSortsByKeyAndSkipsDefaults) {
    EXPECT_EQ(bind_options("f", table, {}).output_suffix(), "");
    EXPECT_EQ(bind_options("f", table, {{"ratio", "0.60"}}).output_suffix(), "");
    EXPECT_EQ(
        bind_options("f", table,
                     {{"size", "33"}, {"curve", "pq"}, {"ratio", "0.2"}, {"flag", "true"}})
            .output_suffix(),
        "_eotf_pq_topk_0.2_ws_33");  // keys in byte order: curve, flag (no alias), ratio, size
}

}  // namespace
}  // namespace vq
