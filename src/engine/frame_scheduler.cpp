#include "engine/frame_scheduler.hpp"

#include <algorithm>
#include <utility>

#include "engine/executor.hpp"
#include "engine/shared_reference.hpp"
#if VQ_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace vq {

FrameScheduler::FrameScheduler(std::vector<BoundFeature>& features, const SessionConfig& config,
                               const VideoFormat& format, bool needs_reference, std::size_t history,
                               const SharedReference& shared_reference)
    : features_(features), history_(history) {
    std::vector<CpuFeature*> cpu_features;
    std::vector<Feature*> cuda_features;
    for (BoundFeature& bound : features) {
        if (bound.on_cuda()) {
            bound.slot = cuda_features.size();
            cuda_features.push_back(bound.feature.get());
        } else {
            bound.slot = cpu_features.size();
            cpu_features.push_back(bound.cpu);
        }
    }
    if (!cuda_features.empty()) {
#if VQ_WITH_CUDA
        executors_.push_back(cuda::make_executor(cuda_features, config.gpu, format, needs_reference,
                                                 shared_reference.device));
        layouts_.push_back(BlockLayout::of(cuda_features));
#else
        (void)format;
        (void)needs_reference;
#endif
    }
    if (!cpu_features.empty()) {
        executors_.push_back(
            make_cpu_executor(cpu_features, config.threads, shared_reference.blocks));
        layouts_.push_back(BlockLayout::of(cpu_features));
    }
    const std::size_t cpu_executor = executors_.size() - 1;
    for (BoundFeature& bound : features) bound.executor = bound.on_cuda() ? 0 : cpu_executor;
    depth_ = executors_.empty() ? 1 : executors_.front()->depth();
    for (const auto& executor : executors_) depth_ = std::min(depth_, executor->depth());
}

BufferAllocator FrameScheduler::buffer_allocator() const {
    for (const auto& executor : executors_)
        if (auto allocator = executor->allocator()) return allocator;
    return {};
}

std::shared_ptr<DeviceSurfaceSink> FrameScheduler::surface_sink() const {
    return executors_.size() == 1 ? executors_.front()->surface_sink() : nullptr;
}

ReadAheadPlan FrameScheduler::read_ahead_plan() const {
    ReadAheadPlan plan;
    for (const auto& executor : executors_) {
        const ReadAheadPlan wanted = executor->read_ahead_plan();
        plan.frames = std::max(plan.frames, wanted.frames);
        plan.threads = std::max(plan.threads, wanted.threads);
    }
    return plan;
}

void FrameScheduler::submit(FramePair pair, std::vector<bool> run) {
    for (std::size_t k = 0; k < recent_references_.size(); ++k)
        pair.previous_references[k] = recent_references_[k];
    for (std::size_t k = 0; k < recent_distorted_.size(); ++k)
        pair.previous_distorted[k] = recent_distorted_[k];
    for (std::size_t e = 0; e < executors_.size(); ++e) {
        std::vector<bool> mask;
        for (std::size_t k = 0; k < features_.size(); ++k)
            if (features_[k].executor == e) mask.push_back(run[k]);
        executors_[e]->submit(pair.index, pair, mask);
    }
    in_flight_.push_back(std::move(run));
    if (history_ > 0) {
        recent_references_.push_front(std::move(pair.reference));
        if (recent_references_.size() > history_) recent_references_.pop_back();
        recent_distorted_.push_front(std::move(pair.distorted));
        if (recent_distorted_.size() > history_) recent_distorted_.pop_back();
    }
}

CollectedFrame FrameScheduler::collect_oldest() {
    CollectedFrame frame;
    frame.index = collected_++;
    frame.run = std::move(in_flight_.front());
    in_flight_.pop_front();
    for (const auto& executor : executors_) frame.areas.push_back(executor->collect(frame.index));
    frame.layouts = &layouts_;
    return frame;
}

void FrameScheduler::drop_history() {
    recent_references_.clear();
    recent_distorted_.clear();
}

}  // namespace vq
