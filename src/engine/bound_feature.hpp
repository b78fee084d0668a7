// A requested feature bound to a backend: what the session's parts (scheduler, table assembly)
// share about it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "feature/feature.hpp"

namespace vq {

struct BoundFeature {
    std::unique_ptr<Feature> feature;
    CpuFeature* cpu = nullptr;  // the same feature when it is a CPU twin, null for a CUDA twin
    std::string name;
    std::vector<std::size_t> columns;          // its per-frame outputs' columns in the table
    std::vector<std::size_t> flushed_columns;  // its flushed outputs' columns
    std::size_t executor = 0;                  // which executor runs it (FrameScheduler)
    std::size_t slot = 0;                      // its place among that executor's features

    bool on_cuda() const { return cpu == nullptr; }
};

}  // namespace vq
