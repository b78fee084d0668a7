// vq's "feature_notes" JSON member: the counts a feature reports about its run (the CUDA CAMBI's
// order-dependent frames, spec/cambi.md §15.3), after "feature_backends", under the same keys,
// only for features that have notes; absent otherwise, so that reports without notes are unchanged.
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/score_table_filler.hpp"
#include "vq/report.hpp"

namespace vq {
namespace {

std::string json_of(const ScoreTable& table) {
    std::ostringstream out;
    write_report(out, table, OutputFormat::json, NumberStyle::libvmaf_default(),
                 ReportInfo{"3.2.0", {}});
    return out.str();
}

ScoreTable one_frame() {
    ScoreTable table;
    table.set(table.add_column("cambi"), 0, 1.5);
    table.set(table.add_column("psnr_y"), 0, 40.0);
    table.set_frame_count(1);
    vq::detail::ScoreTableFiller::set_backend_used(table, "cuda");
    return table;
}

TEST(ReportJsonNotes, FollowTheBackendsUnderTheSameKeys) {
    ScoreTable table = one_frame();
    vq::detail::ScoreTableFiller::set_receipts(
        table, {FeatureReceipt{.feature = "cambi",
                               .backend = "cuda",
                               .outputs = {"cambi"},
                               .notes = {{"order_dependent_frames", 4, "a message"},
                                         {"order_dependent_scales", 5, ""}}},
                FeatureReceipt{.feature = "psnr", .backend = "cuda", .outputs = {"psnr_y"}}});
    const std::string json = json_of(table);
    EXPECT_EQ(json.substr(json.find("\"feature_notes\"")),
              "\"feature_notes\": {\n"
              "    \"cambi\": {\n"
              "      \"order_dependent_frames\": 4,\n"
              "      \"order_dependent_scales\": 5\n"
              "    }\n"
              "  }\n"
              "}\n");
    const auto parsed = nlohmann::ordered_json::parse(json);
    std::string last;
    for (const auto& item : parsed.items()) last = item.key();
    EXPECT_EQ(last, "feature_notes");
    EXPECT_EQ(parsed["feature_backends"]["cambi"], "cuda");
}

TEST(ReportJsonNotes, AbsentWithoutNotes) {
    ScoreTable table = one_frame();
    vq::detail::ScoreTableFiller::set_receipts(
        table, {FeatureReceipt{.feature = "cambi", .backend = "cpu", .outputs = {"cambi"}}});
    EXPECT_EQ(json_of(table).find("feature_notes"), std::string::npos);
}

}  // namespace
}  // namespace vq
