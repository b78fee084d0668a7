// The CPU twin's vector kernels against the scalar reference functions, bit for bit, for every
// instruction-set variant the machine runs (in the spirit of dav1d's checkasm): random colours
// at every depth, out-of-range and extreme codes, neutral greys (the achromatic hue path), near
// and identical pairs. The samples are large enough that the fix-up paths for uncertain
// roundings run too.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/ciede/ciede_cpu_kernels.hpp"

namespace vq::ciede {
namespace {

struct Triple {
    int y, cb, cr;
};

// Code triples at one depth: uniform over the whole code range, neutral greys, the extremes, and
// small steps around random colours.
std::vector<Triple> adversarial_triples(int bit_depth, int count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const int top = (1 << bit_depth) - 1;
    const int half = 1 << (bit_depth - 1);
    std::uniform_int_distribution<int> code(0, top);
    std::vector<Triple> triples;
    for (const int y : {0, top, 16 << (bit_depth - 8), 235 << (bit_depth - 8)})
        for (const int c : {0, top, half})
            for (const int d : {0, top, half}) triples.push_back({y, c, d});
    while (int(triples.size()) < count) {
        const Triple base{code(rng), code(rng), code(rng)};
        triples.push_back(base);
        triples.push_back({code(rng), half, half});  // neutral: a* = b* = 0
        const int step = 1 + int(rng() % 4);
        triples.push_back({std::clamp(base.y + step, 0, top), base.cb, base.cr});
    }
    triples.resize(std::size_t(count));
    return triples;
}

bool same_bits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

TEST(CiedeKernels, LabKernelEqualsYCbCrToLab) {
    for (const Kernels& variant : available_kernels())
        for (const int bit_depth : {8, 10, 12, 16}) {
            SCOPED_TRACE(testing::Message()
                         << variant.instruction_set << ", " << bit_depth << "-bit");
            const std::vector<Triple> triples = adversarial_triples(bit_depth, 60000, bit_depth);
            LabBatch batch(int(triples.size()));
            for (std::size_t i = 0; i < triples.size(); ++i) {
                batch.y[i] = triples[i].y;
                batch.cb[i] = triples[i].cb;
                batch.cr[i] = triples[i].cr;
            }
            const CodeScale scale = code_scale(bit_depth);
            variant.lab(batch, int(triples.size()), scale);
            int mismatches = 0;
            for (std::size_t i = 0; i < triples.size() && mismatches < 10; ++i) {
                const Lab exact = ycbcr_to_lab(triples[i].y, triples[i].cb, triples[i].cr, scale);
                if (same_bits(batch.L[i], exact.L) && same_bits(batch.a[i], exact.a) &&
                    same_bits(batch.b[i], exact.b))
                    continue;
                ++mismatches;
                ADD_FAILURE() << "(" << triples[i].y << ", " << triples[i].cb << ", "
                              << triples[i].cr << ")";
            }
        }
}

TEST(CiedeKernels, DeltaEKernelEqualsDeltaE2000) {
    for (const Kernels& variant : available_kernels())
        for (const int bit_depth : {8, 10, 16}) {
            SCOPED_TRACE(testing::Message()
                         << variant.instruction_set << ", " << bit_depth << "-bit");
            const CodeScale scale = code_scale(bit_depth);
            const std::vector<Triple> triples =
                adversarial_triples(bit_depth, 120001, 100 + bit_depth);
            std::vector<Lab> labs;
            for (const Triple& t : triples) labs.push_back(ycbcr_to_lab(t.y, t.cb, t.cr, scale));
            // Pairs of neighbours (near colours, neutral against colourful, steps) and of colours
            // far apart, plus identical pairs.
            std::mt19937 rng(bit_depth);
            const int count = int(labs.size()) - 1;
            DeltaEScratch scratch(count);
            std::vector<std::pair<Lab, Lab>> pairs;
            for (int i = 0; i < count; ++i) {
                const Lab& second = i % 5 == 4   ? labs[rng() % labs.size()]
                                    : i % 7 == 6 ? labs[i]
                                                 : labs[i + 1];
                pairs.push_back({labs[i], second});
                scratch.L1[i] = labs[i].L;
                scratch.a1[i] = labs[i].a;
                scratch.b1[i] = labs[i].b;
                scratch.L2[i] = second.L;
                scratch.a2[i] = second.a;
                scratch.b2[i] = second.b;
            }
            variant.delta_e(scratch, count);
            int mismatches = 0;
            for (int i = 0; i < count && mismatches < 10; ++i) {
                const float exact = delta_e_2000(pairs[i].first, pairs[i].second);
                if (same_bits(scratch.delta_e[i], exact)) continue;
                ++mismatches;
                ADD_FAILURE() << "pair " << i << ": kernel " << scratch.delta_e[i] << ", scalar "
                              << exact;
            }
        }
}

}  // namespace
}  // namespace vq::ciede
