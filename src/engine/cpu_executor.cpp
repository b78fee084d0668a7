// The CPU executor: each frame's features run as independent tasks on a oneTBB arena, so frames
// (and the features within a frame) compute in parallel while the session commits them in order.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include "engine/executor.hpp"
#include "io/frame_source.hpp"
#include "vq/error.hpp"

namespace vq {

BlockLayout::BlockLayout(std::span<const std::size_t> block_bytes) {
    for (const std::size_t bytes : block_bytes) {
        offsets.push_back(total);
        sizes.push_back(bytes);
        total += (bytes + 15) / 16 * 16;
    }
}

namespace {

// Counts a frame's outstanding tasks and keeps the first failure.
class Completion {
public:
    void reset(int tasks) {
        std::lock_guard lock(mutex_);
        remaining_ = tasks;
        failure_ = nullptr;
    }
    void done(std::exception_ptr failure) {
        std::lock_guard lock(mutex_);
        if (failure && !failure_) failure_ = failure;
        if (--remaining_ == 0) finished_.notify_all();
    }
    void wait() {
        std::unique_lock lock(mutex_);
        finished_.wait(lock, [this] { return remaining_ == 0; });
    }
    std::exception_ptr failure() const { return failure_; }

private:
    std::mutex mutex_;
    std::condition_variable finished_;
    int remaining_ = 0;
    std::exception_ptr failure_;
};

class CpuExecutor final : public Executor {
public:
    CpuExecutor(std::vector<CpuFeature*> features, unsigned threads)
        : features_(std::move(features)),
          layout_(BlockLayout::of(features_)),
          threads_(threads ? int(threads) : tbb::info::default_concurrency()),
          // oneTBB caps its workers at the core count minus one (it expects the caller to work
          // too); the arena below wants `threads_` workers while the caller reads and commits.
          parallelism_(tbb::global_control::max_allowed_parallelism, std::size_t(threads_) + 1),
          arena_(threads_, 0),
          // A frame per worker and one queued: each frame in flight holds its pictures, and the
          // queued one keeps a worker busy while the oldest, which may finish last, is committed.
          slots_(std::size_t(threads_) + 1) {
        for (auto& slot : slots_) slot.area.resize(layout_.total);
    }

    ~CpuExecutor() override {
        for (auto& slot : slots_) slot.done.wait();  // tasks reference the slots
    }

    std::size_t depth() const override { return slots_.size(); }

    // One frame per input read ahead keeps a worker or two fed (reading a frame costs less than
    // scoring it); more workers on cheap features can outrun one reader, so every two workers get
    // a reader and a frame, up to the readers' default.
    ReadAheadPlan read_ahead_plan() const override {
        const unsigned readers =
            std::clamp((unsigned(threads_) + 1) / 2, 1u, default_read_threads());
        return {readers, readers};
    }

    void submit(std::size_t index, const FramePair& pair, const std::vector<bool>& run) override {
        Slot& slot = slots_[index % slots_.size()];
        slot.pair = pair;
        int tasks = 0;
        for (bool r : run) tasks += r;
        slot.done.reset(tasks);
        for (std::size_t k = 0; k < features_.size(); ++k) {
            if (!run[k]) continue;
            arena_.enqueue([this, &slot, k] {
                std::exception_ptr failure;
                try {
                    features_[k]->compute(slot.pair, layout_.block(std::span(slot.area), k));
                } catch (...) {
                    failure = std::current_exception();
                }
                slot.done.done(failure);
            });
        }
    }

    std::span<const std::byte> collect(std::size_t index) override {
        Slot& slot = slots_[index % slots_.size()];
        slot.done.wait();
        slot.pair = {};  // lets the frame buffers go back to their pool now
        if (auto failure = slot.done.failure()) {
            try {
                std::rethrow_exception(failure);
            } catch (const Error&) {
                throw;
            } catch (const std::exception& e) {
                throw runtime_error(fmt::format("frame {}: {}", index, e.what()));
            }
        }
        return slot.area;
    }

private:
    struct Slot {
        FramePair pair;
        std::vector<std::byte> area;
        Completion done;
    };

    std::vector<CpuFeature*> features_;
    BlockLayout layout_;
    int threads_;
    tbb::global_control parallelism_;
    tbb::task_arena arena_;
    std::vector<Slot> slots_;
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor(std::vector<CpuFeature*> features, unsigned threads) {
    return std::make_unique<CpuExecutor>(std::move(features), threads);
}

}  // namespace vq
