// The variants of PSNR-HVS's block work (DCTs, masks, error terms), one per instruction set,
// chosen at run time, and the plane accumulation over their results. Every variant's terms are
// bit-identical to the scalar block math (the tests run each one this CPU supports against it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cpu_tables.hpp"

namespace vq::psnr_hvs {

// The 64 error terms of every block of the block row at sample row y (§8), for planes at least
// 8x8. A variant works on `lanes` blocks at a time and writes them group by group: term i of
// block k is at terms[((k / lanes) * 64 + i) * lanes + k % lanes] (row_term below).
template <typename Sample>
using RowTermsFunction = void (*)(const PlaneView<Sample>& reference,
                                  const PlaneView<Sample>& distorted, int y,
                                  const PlaneTables& tables, float* terms);

struct Kernels {
    const char* instruction_set;
    int lanes;
    RowTermsFunction<std::uint8_t> row_terms_8bit;
    RowTermsFunction<std::uint16_t> row_terms_16bit;

    void row_terms(const PlaneView<std::uint8_t>& reference,
                   const PlaneView<std::uint8_t>& distorted, int y, const PlaneTables& tables,
                   float* terms) const {
        row_terms_8bit(reference, distorted, y, tables, terms);
    }
    void row_terms(const PlaneView<std::uint16_t>& reference,
                   const PlaneView<std::uint16_t>& distorted, int y, const PlaneTables& tables,
                   float* terms) const {
        row_terms_16bit(reference, distorted, y, tables, terms);
    }

    // Floats a row's terms take: whole groups.
    std::size_t row_terms_size(int blocks) const {
        return std::size_t((blocks + lanes - 1) / lanes) * 64 * std::size_t(lanes);
    }
    float row_term(const float* terms, int block, int i) const {
        return terms[(std::size_t(block / lanes) * 64 + std::size_t(i)) * std::size_t(lanes) +
                     std::size_t(block % lanes)];
    }
};

// Every variant this CPU runs, best first; the last is the baseline, the scalar block math.
std::span<const Kernels> available_kernels();

inline const Kernels& best_kernels() { return available_kernels().front(); }

// §8's accumulator acc of one plane pair: one float, blocks row by row, terms in raster order.
float plane_error_sum(const Kernels& kernels, const PlaneView<std::uint8_t>& reference,
                      const PlaneView<std::uint8_t>& distorted, const PlaneTables& tables);
float plane_error_sum(const Kernels& kernels, const PlaneView<std::uint16_t>& reference,
                      const PlaneView<std::uint16_t>& distorted, const PlaneTables& tables);

}  // namespace vq::psnr_hvs
