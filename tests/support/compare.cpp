#include "compare.hpp"

#include <bit>
#include <cstdio>
#include <sstream>

#include <gtest/gtest.h>

namespace vq::test {

void expect_same_bits(const ScoreTable& expected, const ScoreTable& got, const std::string& what) {
    ASSERT_EQ(expected.column_count(), got.column_count()) << what;
    ASSERT_EQ(expected.frame_count(), got.frame_count()) << what;
    for (std::size_t c = 0; c < expected.column_count(); ++c) {
        ASSERT_EQ(expected.name(c), got.name(c)) << what;
        for (std::size_t f = 0; f < expected.frame_count(); ++f) {
            const auto a = expected.value(c, f), b = got.value(c, f);
            ASSERT_EQ(a.has_value(), b.has_value())
                << what << " " << expected.name(c) << " frame " << f;
            if (a) {
                EXPECT_EQ(std::bit_cast<std::uint64_t>(*a), std::bit_cast<std::uint64_t>(*b))
                    << what << " " << expected.name(c) << " frame " << f << ": expected " << *a
                    << ", got " << *b;
            }
        }
    }
    ASSERT_EQ(expected.aggregates().size(), got.aggregates().size()) << what;
    for (std::size_t a = 0; a < expected.aggregates().size(); ++a) {
        EXPECT_EQ(expected.aggregates()[a].first, got.aggregates()[a].first) << what;
        EXPECT_EQ(std::bit_cast<std::uint64_t>(expected.aggregates()[a].second),
                  std::bit_cast<std::uint64_t>(got.aggregates()[a].second))
            << what << " " << expected.aggregates()[a].first;
    }
}

std::uint64_t ulp_distance(double a, double b) {
    const auto x = std::bit_cast<std::int64_t>(a), y = std::bit_cast<std::int64_t>(b);
    return std::uint64_t(x > y ? x - y : y - x);
}

void UlpComparison::check(double expected, double got, const std::string& where, std::size_t frame,
                          const std::string& output) {
    const std::uint64_t distance = ulp_distance(expected, got);
    EXPECT_LE(distance, limit_) << where << " frame " << frame << " " << output << std::hexfloat
                                << ": expected " << expected << ", got " << got;
    ++values_;
    identical_ += expected == got;
    if (distance > largest_ || worst_.empty()) {
        largest_ = distance;
        std::ostringstream at;
        at << where << " frame " << frame << " " << output << std::hexfloat << " (expected "
           << expected << ", got " << got << ")";
        worst_ = at.str();
    }
}

void UlpComparison::report(const std::string& what) const {
    std::printf("%s: %zu of %zu values identical, largest difference %llu ulp, at %s\n",
                what.c_str(), identical_, values_, (unsigned long long)largest_, worst_.c_str());
}

}  // namespace vq::test
