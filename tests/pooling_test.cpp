// ScoreTable storage and pooling (spec/cli-and-output.md §10, spec/psnr.md §7.4).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "vq/report.hpp"
#include "vq/scores.hpp"

namespace vq {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

ScoreTable one_column(const std::vector<double>& values) {
    ScoreTable table;
    const auto column = table.add_column("x");
    for (std::size_t i = 0; i < values.size(); ++i) table.set(column, i, values[i]);
    return table;
}

double pooled(const ScoreTable& table, PoolingMethod method) {
    const auto value = table.pooled(0, method);
    EXPECT_TRUE(value.has_value()) << to_string(method);
    return value.value_or(std::numeric_limits<double>::quiet_NaN());
}

std::string pooled_text(const ScoreTable& table, PoolingMethod method) {
    return format_number(pooled(table, method), NumberStyle::libvmaf_default());
}

TEST(PoolingTable, ColumnsKeepFirstAddedOrder) {
    ScoreTable table;
    EXPECT_EQ(table.add_column("psnr_y"), 0u);
    EXPECT_EQ(table.add_column("ciede2000"), 1u);
    EXPECT_EQ(table.add_column("psnr_y"), 0u);
    ASSERT_EQ(table.column_count(), 2u);
    EXPECT_EQ(table.name(1), "ciede2000");
    EXPECT_EQ(table.find("ciede2000"), 1u);
    EXPECT_EQ(table.find("vmaf"), std::nullopt);
}

TEST(PoolingTable, ValuesAndFrameCount) {
    ScoreTable table;
    const auto a = table.add_column("a");
    const auto b = table.add_column("b");
    table.set(b, 3, 1.25);
    EXPECT_EQ(table.frame_count(), 4u);  // a value always lies inside the run
    EXPECT_EQ(table.value(b, 3), 1.25);
    EXPECT_EQ(table.value(b, 2), std::nullopt);
    EXPECT_EQ(table.value(a, 3), std::nullopt);
    EXPECT_EQ(table.value(b, 100), std::nullopt);
    table.set(b, 3, 2.5);
    EXPECT_EQ(table.value(b, 3), 2.5);
    table.set_frame_count(10);
    EXPECT_EQ(table.frame_count(), 10u);
    EXPECT_THROW(table.set(7, 0, 1.0), std::exception);
}

TEST(PoolingTable, AggregatesKeepOrderAndLastValue) {
    ScoreTable table;
    table.add_aggregate("apsnr_y", 1.0);
    table.add_aggregate("apsnr_cb", 2.0);
    table.add_aggregate("apsnr_y", 3.0);
    ASSERT_EQ(table.aggregates().size(), 2u);
    EXPECT_EQ(table.aggregates()[0], (std::pair<std::string, double>{"apsnr_y", 3.0}));
    EXPECT_EQ(table.aggregates()[1], (std::pair<std::string, double>{"apsnr_cb", 2.0}));
}

TEST(PoolingTable, MethodNames) {
    EXPECT_STREQ(to_string(PoolingMethod::min), "min");
    EXPECT_STREQ(to_string(PoolingMethod::max), "max");
    EXPECT_STREQ(to_string(PoolingMethod::mean), "mean");
    EXPECT_STREQ(to_string(PoolingMethod::harmonic_mean), "harmonic_mean");
}

TEST(Pooling, FourMethods) {
    const ScoreTable table = one_column({1.0, 3.0, 2.0});
    EXPECT_EQ(pooled(table, PoolingMethod::min), 1.0);
    EXPECT_EQ(pooled(table, PoolingMethod::max), 3.0);
    EXPECT_EQ(pooled(table, PoolingMethod::mean), 2.0);
    EXPECT_EQ(pooled(table, PoolingMethod::harmonic_mean),
              3.0 / (1.0 / 2.0 + 1.0 / 4.0 + 1.0 / 3.0) - 1.0);
}

// spec/psnr.md §7.4: the five per-frame psnr_y values of a 64x48 run.
TEST(Pooling, PsnrWorkedExample) {
    const ScoreTable table = one_column({36.678014, 36.561319, 36.757143, 36.698907, 36.732689});
    EXPECT_EQ(pooled_text(table, PoolingMethod::mean), "36.685614");
    EXPECT_EQ(pooled_text(table, PoolingMethod::harmonic_mean), "36.685492");
    EXPECT_EQ(pooled_text(table, PoolingMethod::min), "36.561319");
    EXPECT_EQ(pooled_text(table, PoolingMethod::max), "36.757143");
}

// The sum runs in increasing frame order: 1e16 + 1 rounds back to 1e16 before -1e16 cancels it.
TEST(Pooling, MeanSumsInFrameOrder) {
    EXPECT_EQ(pooled(one_column({1e16, 1.0, -1e16}), PoolingMethod::mean), 0.0);
    EXPECT_EQ(pooled(one_column({1e16, -1e16, 1.0}), PoolingMethod::mean), 1.0 / 3.0);
}

// Strict comparisons: the first of equal values wins, which -0.0 and 0.0 make visible.
TEST(Pooling, MinMaxKeepTheFirstOfEqualValues) {
    EXPECT_FALSE(std::signbit(pooled(one_column({0.0, -0.0}), PoolingMethod::min)));
    EXPECT_TRUE(std::signbit(pooled(one_column({-0.0, 0.0}), PoolingMethod::min)));
    EXPECT_TRUE(std::signbit(pooled(one_column({-0.0, 0.0}), PoolingMethod::max)));
    EXPECT_FALSE(std::signbit(pooled(one_column({0.0, -0.0}), PoolingMethod::max)));
}

TEST(Pooling, NanOnlyWinsMinMaxWhenFirst) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(std::isnan(pooled(one_column({nan, 1.0}), PoolingMethod::min)));
    EXPECT_TRUE(std::isnan(pooled(one_column({nan, 1.0}), PoolingMethod::max)));
    EXPECT_EQ(pooled(one_column({2.0, nan, 1.0}), PoolingMethod::min), 1.0);
    EXPECT_EQ(pooled(one_column({2.0, nan, 3.0}), PoolingMethod::max), 3.0);
}

TEST(Pooling, MinusOneMakesHarmonicMeanMinusOne) {
    const ScoreTable table = one_column({5.0, -1.0, 7.0});
    EXPECT_EQ(pooled(table, PoolingMethod::harmonic_mean), -1.0);
    EXPECT_EQ(pooled(table, PoolingMethod::mean), 11.0 / 3.0);
}

TEST(Pooling, InfiniteValues) {
    const ScoreTable some = one_column({1.0, inf});
    EXPECT_EQ(pooled(some, PoolingMethod::mean), inf);
    EXPECT_EQ(pooled(some, PoolingMethod::max), inf);
    EXPECT_EQ(pooled(some, PoolingMethod::min), 1.0);
    EXPECT_EQ(pooled(some, PoolingMethod::harmonic_mean), 2.0 / 0.5 - 1.0);  // inf adds 0

    const ScoreTable all = one_column({inf, inf, inf});  // ciede2000 on identical inputs
    for (const PoolingMethod method : all_pooling_methods) EXPECT_EQ(pooled(all, method), inf);
}

TEST(Pooling, MissingValueFailsEveryMethod) {
    ScoreTable table = one_column({1.0, 2.0});
    table.set(0, 3, 4.0);  // frame 2 has no value
    for (const PoolingMethod method : all_pooling_methods)
        EXPECT_EQ(table.pooled(0, method), std::nullopt) << to_string(method);

    ScoreTable trailing = one_column({1.0, 2.0});
    trailing.set_frame_count(3);  // a submitted frame whose score never came
    EXPECT_EQ(trailing.pooled(0, PoolingMethod::mean), std::nullopt);
}

TEST(Pooling, NoFrameOrUnknownColumnFails) {
    ScoreTable table;
    table.add_column("x");
    EXPECT_EQ(table.pooled(0, PoolingMethod::mean), std::nullopt);
    EXPECT_EQ(one_column({1.0}).pooled(1, PoolingMethod::mean), std::nullopt);
}

TEST(Pooling, SubsampleSelectsMultiples) {
    ScoreTable table;
    const auto x = table.add_column("x");
    // Frames 1, 3 and 5 are not selected: their values (or their absence) do not matter.
    table.set(x, 0, 1.0);
    table.set(x, 1, 100.0);
    table.set(x, 2, 2.0);
    table.set(x, 4, 6.0);
    table.set_frame_count(6);
    table.set_subsample(2);
    EXPECT_TRUE(table.frame_selected(4));
    EXPECT_FALSE(table.frame_selected(5));
    EXPECT_EQ(pooled(table, PoolingMethod::mean), 3.0);
    EXPECT_EQ(pooled(table, PoolingMethod::max), 6.0);
    EXPECT_EQ(pooled(table, PoolingMethod::min), 1.0);

    table.set_subsample(3);  // frames 0 and 3: 3 is missing
    EXPECT_EQ(table.pooled(x, PoolingMethod::mean), std::nullopt);

    table.set_subsample(0);  // 0 means no subsampling
    EXPECT_EQ(table.subsample(), 1u);
    EXPECT_EQ(table.pooled(x, PoolingMethod::mean), std::nullopt);  // frame 3 missing
}

}  // namespace
}  // namespace vq
