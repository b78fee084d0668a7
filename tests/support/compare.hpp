// The comparators of the twin and golden tests: bit-exact score tables, and the distance in units
// in the last place with the worst case reported, for twins allowed to round differently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vq/scores.hpp"

namespace vq::test {

// Same columns in the same order, same frames, the same bits in every value (NaN and infinities
// included) and the same aggregates; `what` names the case in failure messages.
void expect_same_bits(const ScoreTable& expected, const ScoreTable& got, const std::string& what);

// Distance in units in the last place between two finite doubles of the same sign.
std::uint64_t ulp_distance(double a, double b);

// Values that must lie within `limit` ulp of the expected ones: each one beyond fails the test,
// and report() prints how many were identical and where the largest difference was.
class UlpComparison {
public:
    explicit UlpComparison(std::uint64_t limit) : limit_(limit) {}

    // `where` and `frame` and `output` locate the value in failure messages and the report.
    void check(double expected, double got, const std::string& where, std::size_t frame,
               const std::string& output);
    void report(const std::string& what) const;

    std::uint64_t largest() const { return largest_; }

private:
    std::uint64_t limit_;
    std::size_t values_ = 0;
    std::size_t identical_ = 0;
    std::uint64_t largest_ = 0;
    std::string worst_;  // where the largest difference was, with both values
};

}  // namespace vq::test
