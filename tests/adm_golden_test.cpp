// ADM against the reference's goldens, bit for bit on every frame: the seven outputs of every
// *__vmaf.json (default options) and of every *__vmaf_v1_*.json (the v1.0.16 models' options,
// spec/vmaf-v1.md §2), run through a Session as the CLI would. The cases are ADM's table in
// support/golden_cases.cpp, which the CUDA twin's test reads too.
#include <gtest/gtest.h>

#include "support/golden_cases.hpp"
#include "test_support.hpp"
#include "twin_parity.hpp"

namespace vq::test {
namespace {

class AdmGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(AdmGolden, EveryFrameBitExact) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_golden_outputs(score_on(Backend::cpu, {c.request}, fixture_frames(fixtures, c.fixture)),
                          c, adm_outputs());
}

INSTANTIATE_TEST_SUITE_P(Adm, AdmGolden, testing::ValuesIn(adm_golden_cases()), golden_case_name);

}  // namespace
}  // namespace vq::test
