// The engine's CPU executor. The Executor interface every backend implements is a plug-in
// contract: feature/executor.hpp, included here for the files of the session that name both.
#pragma once

#include <memory>
#include <vector>

#include "feature/executor.hpp"

namespace vq {

// Runs CpuFeatures on a oneTBB arena of `threads` workers (0 = every core), frames in parallel.
std::unique_ptr<Executor> make_cpu_executor(std::vector<CpuFeature*> features, unsigned threads);

}  // namespace vq
