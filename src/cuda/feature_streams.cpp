#include "cuda/feature_streams.hpp"

namespace vq::cuda {

FeatureStreams::FeatureStreams(std::size_t count) {
    if (count > 1) branches_.resize(count);
}

void FeatureStreams::fork(const Stream& main) {
    if (branches_.empty()) return;
    forked_.record(main);
    for (const Branch& branch : branches_) branch.stream.wait(forked_.get());
}

cudaStream_t FeatureStreams::stream(std::size_t k, const Stream& main) const {
    return branches_.empty() ? main.get() : branches_[k].stream.get();
}

void FeatureStreams::join(const Stream& main) {
    for (const Branch& branch : branches_) {
        branch.done.record(branch.stream);
        main.wait(branch.done.get());
    }
}

void FeatureStreams::drain() const noexcept {
    for (const Branch& branch : branches_) cudaStreamSynchronize(branch.stream.get());
}

}  // namespace vq::cuda
