#include "cuda_test_support.hpp"

#include "engine/executor.hpp"

namespace vq::test {

std::vector<std::vector<double>> run_twin(Feature& feature, const std::vector<FramePair>& frames) {
    std::unique_ptr<Executor> executor;
    if (feature.backend() == Backend::cpu)
        executor = make_cpu_executor({static_cast<CpuFeature*>(&feature)}, 0);
    else
        executor = cuda::make_executor({&feature}, 0, frames.at(0).distorted.format(),
                                       feature.uses_reference());
    const std::size_t block_bytes[] = {feature.block_bytes()};
    const BlockLayout layout(block_bytes);

    std::vector<std::vector<double>> scores;
    const auto finish_oldest = [&] {
        const std::size_t index = scores.size();
        scores.emplace_back(feature.outputs().size());
        feature.finish(layout.block(executor->collect(index), 0), scores.back());
    };
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (i - scores.size() >= executor->depth()) finish_oldest();
        executor->submit(i, frames[i], {true});
    }
    while (scores.size() < frames.size()) finish_oldest();
    return scores;
}

std::string describe_case(const VideoFormat& format, const std::string& request) {
    return describe(format) + " " + request;
}

}  // namespace vq::test
