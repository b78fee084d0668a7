// The engine's CPU executor. The Executor interface every backend implements is a plug-in
// contract: feature/executor.hpp, included here for the files of the session that name both.
#pragma once

#include <memory>
#include <vector>

#include "feature/executor.hpp"

namespace vq {

// Runs CpuFeatures on `threads` worker threads (0 = every core; at most one per core), frames in
// parallel. Throws vq::Error (runtime) when the workers cannot be started.
std::unique_ptr<Executor> make_cpu_executor(std::vector<CpuFeature*> features, unsigned threads);

}  // namespace vq
