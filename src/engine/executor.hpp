// The engine's CPU executor. The Executor interface every backend implements is a plug-in
// contract: feature/executor.hpp, included here for the files of the session that name both.
#pragma once

#include <memory>
#include <vector>

#include "feature/executor.hpp"

namespace vq {

class SharedReferenceBlocks;

// Runs CpuFeatures on `threads` worker threads (0 = every core; at most one per core), frames in
// parallel. With `shared_reference`, the blocks of features that read the reference alone come
// through it (one computation per frame for every session sharing it). Throws vq::Error
// (runtime) when the workers cannot be started.
std::unique_ptr<Executor> make_cpu_executor(
    std::vector<CpuFeature*> features, unsigned threads,
    std::shared_ptr<SharedReferenceBlocks> shared_reference = nullptr);

}  // namespace vq
