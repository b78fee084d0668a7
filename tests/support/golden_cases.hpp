// The reference's golden outputs (shared/golden, INDEX.md) each metric is checked against: one
// table per metric, read by its CPU tests and its CUDA tests alike, so the two cannot drift apart.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "vq/picture.hpp"
#include "vq/scores.hpp"

namespace vq::test {

struct GoldenCase {
    std::string golden;       // file in shared/golden
    std::string fixture;      // clip directory in the unpacked fixtures
    std::string request;      // the --feature argument that produced it
    std::string suffix = {};  // what the request's options append to the output names
};

void PrintTo(const GoldenCase& c, std::ostream* out);

// "grad_576x324_8b_420__cambi_ws33": the golden's name, usable as a test name.
std::string golden_case_name(const testing::TestParamInfo<GoldenCase>& info);

// The clips with a *__vmaf.json golden (the default model's features).
std::vector<std::string> vmaf_fixtures();

std::vector<GoldenCase> cambi_golden_cases();
std::vector<GoldenCase> vif_golden_cases();
std::vector<GoldenCase> adm_golden_cases();     // default options, then the v1.0.16 models'
std::vector<GoldenCase> motion_golden_cases();  // the same
std::vector<std::string> adm_outputs();         // the outputs the ADM goldens carry, unsuffixed
std::vector<std::string> motion_outputs();      // the same for motion
std::vector<GoldenCase> vmaf_golden_cases();    // the default model, every feature at once
std::vector<GoldenCase> ssim_golden_cases();    // float_ssim and float_ms_ssim, every option set

// Every *__psnr_hvs.json.
std::vector<GoldenCase> psnr_hvs_golden_cases();
std::vector<GoldenCase> speed_golden_cases();   // speed_chroma (every option) and speed_temporal
std::vector<std::string> speed_outputs(
    const GoldenCase& c);  // unsuffixed, as the golden names them

// The v1.0.16 model goldens; the request is the model string (version=vmaf_v1.0.16_...).
std::vector<GoldenCase> vmaf_v1_golden_cases();

// The golden file, parsed (shared/golden must be present).
nlohmann::json read_golden(const GoldenCase& c);

// Each of `outputs`, with the case's suffix, equals the golden's key of that name on every frame,
// bit for bit (the names are checked too: a missing column fails).
void expect_golden_outputs(const ScoreTable& table, const GoldenCase& c,
                           const std::vector<std::string>& outputs);

// The same for the pooled values (min, max, mean, harmonic mean) of each output.
void expect_golden_pooled(const ScoreTable& table, const GoldenCase& c,
                          const std::vector<std::string>& outputs);

// Every frame pair of a fixture clip, reference and distorted.
std::vector<FramePair> fixture_frames(const std::filesystem::path& fixtures,
                                      const std::string& fixture);

}  // namespace vq::test
