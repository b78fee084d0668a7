// SpEED's CUDA twin sums spec §8.1's 25 float means and §8.2's 325 double covariance entries of
// each residual image as the toolkit's ordered sums (metrics/toolkit/ordered_sum.hpp), reading the
// terms through speed_sum_terms.hpp. Here the same readers and the same summaries and walks, built
// as the device builds them (ordered_sum_test_support.hpp), against the CPU twin's covariance(),
// bit for bit, on residuals of 4K planes (10-bit luma, an 8-bit frame difference, 8-bit chroma)
// and on a residual of millions of samples.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "metrics/speed/speed_stages.hpp"
#include "metrics/speed/speed_sum_terms.hpp"
#include "ordered_sum_test_support.hpp"
#include "support/pictures.hpp"

namespace vq::test {
namespace {

using namespace vq::speed;

const Kernels& plain() { return available_kernels().back(); }

// What one residual's sums needed: terms in all, and terms the walk added one by one.
struct SerialShare {
    long long terms = 0, serial = 0;
    double fraction() const { return double(serial) / double(terms); }
};

// The means and covariance entries of `r` as the device forms them, against plain serial loops
// over the same readers, with every running-sum guess (`every_guess`) or the device's kind only
// (close to exact), walked in order and as the warp walks; the serial loops against the CPU twin's
// covariance() where `against_cpu` (it holds 32 doubles per term). Entries e = 0, entry_step, ...
// Counts the serial terms of the exact guess's walks.
void expect_the_cpu_twins_bits(const FloatPlane& r, const std::string& what, bool every_guess,
                               bool against_cpu, int entry_step, SerialShare& means_share,
                               SerialShare& covariance_share) {
    const int wm = r.width / block_side * block_side - (block_side - 1);
    const int hm = r.height / block_side * block_side - (block_side - 1);
    const long long count = (long long)wm * hm;
    const float* residual = r.samples.data();
    const auto check = [&](const auto& term, auto serial, const std::string& sum,
                           SerialShare& share) {
        if (every_guess) ordered::expect_same_bits(term, count, serial, what + ", " + sum);
        for (bool as_warp : {false, true}) {
            long long added = 0;
            const auto ordered = ordered::ordered_sum(
                term, count, [](double s) { return s; }, as_warp, &added);
            ASSERT_EQ(ordered::bits_of(ordered), ordered::bits_of(serial)) << what << ", " << sum;
            share.terms += count;
            share.serial += added;
        }
    };
    std::array<float, block_samples> means;
    for (int p = 0; p < block_samples; ++p) {
        const SubImageTerm term = sub_image_term(residual, r.width, wm, p);
        float serial = 0.0f;
        for (long long i = 0; i < count; ++i) serial = serial + term(i);
        means[std::size_t(p)] = serial / float(count);
        check(term, serial, "mean " + std::to_string(p), means_share);
    }
    Covariance cpu{};
    if (against_cpu) {
        cpu = covariance(r, plain());
        for (int p = 0; p < block_samples; ++p)
            ASSERT_EQ(std::bit_cast<std::uint32_t>(means[std::size_t(p)]),
                      std::bit_cast<std::uint32_t>(cpu.means[std::size_t(p)]))
                << what << ": the reader of mean " << p;
    }
    for (int e = 0; e < covariance_entries; e += entry_step) {
        int a, b;
        covariance_entry(e, a, b);
        ASSERT_TRUE(b <= a && a < block_samples);
        const CovarianceTerm term = covariance_term(residual, r.width, wm, a, b, means.data());
        double serial = 0.0;
        for (long long i = 0; i < count; ++i) serial = serial + term(i);
        if (against_cpu) {
            ASSERT_EQ(std::bit_cast<std::uint32_t>(float(serial / double(count))),
                      std::bit_cast<std::uint32_t>(cpu.k[std::size_t(a * block_samples + b)]))
                << what << ": the reader of entry " << a << ", " << b;
        }
        check(term, serial, "entry " + std::to_string(a) + ", " + std::to_string(b),
              covariance_share);
    }
}

void report(const std::string& what, const SerialShare& means, const SerialShare& covariance) {
    std::cout << what << ": terms added serially by the walk (exact guess): means "
              << 100 * means.fraction() << "%, covariance " << 100 * covariance.fraction() << "%\n";
}

TEST(SpeedOrderedSums, FourKResidualsAsTheCpuTwin) {
    const VideoFormat ten{3840, 2160, 10, ChromaFormat::yuv420};
    const VideoFormat eight{3840, 2160, 8, ChromaFormat::yuv420};
    const Picture texture10 = make_picture(ten, Content::texture, 3);
    const Picture texture8 = make_picture(eight, Content::texture, 4);
    const Picture moved8 = perturbed(texture8, 12, 5);
    const Picture noise8 = make_picture(eight, Content::noise, 6);
    const Options options;
    const Config luma(options, 3840, 2160, "speed_temporal");
    const Config chroma(options, 1920, 1080, "speed_chroma");
    struct Case {
        std::string what;
        FloatPlane residual;
    };
    const Case cases[] = {
        {"10-bit texture luma", residual(centred_rows(texture10, 0), luma, plain())},
        {"8-bit frame difference",
         residual(difference_rows(centred_rows(texture8, 0), centred_rows(moved8, 0)), luma,
                  plain())},
        {"8-bit noise chroma", residual(centred_rows(noise8, 1), chroma, plain())},
        {"10-bit texture chroma", residual(centred_rows(texture10, 2), chroma, plain())},
    };
    for (const Case& c : cases) {
        SerialShare means, covariance;
        expect_the_cpu_twins_bits(c.residual, c.what, true, true, 1, means, covariance);
        report(c.what + " (" + std::to_string(c.residual.width) + "x" +
                   std::to_string(c.residual.height) + ")",
               means, covariance);
    }
}

// A residual of 2405 x 1205 (2.9 million terms per sum: eleven super-groups), values of
// residual-like spread around a slowly drifting offset, so that the sums cross zero and binades;
// every mean and one covariance entry in 16.
TEST(SpeedOrderedSums, MillionsOfTermsPerSum) {
    FloatPlane r(2405, 1205);
    std::mt19937 rng(9);
    std::normal_distribution<float> spread(0.0f, 20.0f);
    for (int y = 0; y < r.height; ++y)
        for (int x = 0; x < r.width; ++x)
            r.row(y)[x] = spread(rng) + 0.5f * float(std::sin(0.01 * x + 0.003 * y));
    SerialShare means, covariance;
    expect_the_cpu_twins_bits(r, "2405x1205", false, false, 16, means, covariance);
    report("2405x1205 residual", means, covariance);
}

}  // namespace
}  // namespace vq::test
