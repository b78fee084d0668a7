// The CPU executor: each frame's features run as independent tasks on a pool of worker threads,
// so frames (and the features within a frame) compute in parallel while the session commits them
// in order.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "engine/executor.hpp"
#include "engine/shared_reference_blocks.hpp"
#include "io/frame_source.hpp"
#include "vq/error.hpp"

namespace vq {

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

// Workers started up front and all at once: a machine that cannot give them (ulimit -u, a
// container's pids limit, no memory left for their stacks) is told so when the run starts, with a
// message, instead of a task waiting forever for a worker that never came (or a thread library
// aborting where it failed to start one).
class WorkerPool {
public:
    explicit WorkerPool(unsigned count) {
        try {
            for (unsigned i = 0; i < count; ++i) workers_.emplace_back([this] { work(); });
        } catch (const std::system_error& e) {
            stop();
            throw runtime_error(
                fmt::format("cannot start {} CPU worker threads (started {}): {}; "
                            "--threads asks for fewer",
                            count, workers_.size(), e.code().message()));
        }
    }
    // Tasks not yet started are dropped (they only write into slots nobody will read); a task
    // in progress finishes.
    ~WorkerPool() { stop(); }
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void enqueue(std::function<void()> task) {
        {
            std::lock_guard lock(mutex_);
            tasks_.push_back(std::move(task));
        }
        wake_.notify_one();
    }

private:
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            tasks_.clear();
        }
        wake_.notify_all();
        workers_.clear();  // joins
    }

    void work() {
        for (;;) {
            std::function<void()> task;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
                if (stopping_) return;
                task = std::move(tasks_.front());
                tasks_.pop_front();
            }
            task();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> tasks_;
    bool stopping_ = false;
    std::vector<std::jthread> workers_;
};

// Every core by default; more workers than cores would only take turns on them, so a larger
// request is capped (`--threads 3000` on a 12-frame clip starts one worker per core).
unsigned worker_count(unsigned requested) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return requested == 0 ? cores : std::min(requested, cores);
}

class CpuExecutor final : public Executor {
public:
    CpuExecutor(std::vector<CpuFeature*> features, unsigned threads,
                std::shared_ptr<SharedReferenceBlocks> shared_reference)
        : features_(std::move(features)),
          shared_reference_(std::move(shared_reference)),
          layout_(BlockLayout::of(features_)),
          threads_(worker_count(threads)),
          // A frame per worker: each frame in flight holds its pictures. The frames the readers
          // keep ready (read_ahead_plan) are the queue: when the oldest frame is committed, the
          // next is submitted at once. A further slot measured no faster (1080p VMAF, 2 threads)
          // and cost a frame pair of memory.
          slots_(std::size_t(threads_)),
          pool_(threads_) {
        for (auto& slot : slots_) slot.area.resize(layout_.total);
    }

    std::size_t depth() const override { return slots_.size(); }

    // One frame per input read ahead keeps a worker or two fed (reading a frame costs less than
    // scoring it); more workers on cheap features can outrun one reader, so every two workers get
    // a reader and a frame, up to the readers' default.
    ReadAheadPlan read_ahead_plan() const override {
        const unsigned readers = std::clamp((threads_ + 1) / 2, 1u, default_read_threads());
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
            pool_.enqueue([this, &slot, k, index] {
                std::exception_ptr failure;
                try {
                    compute(k, index, slot.pair, layout_.block(std::span(slot.area), k));
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
    // Feature k's block of frame `index`; its reference side is computed once for every input
    // sharing it (vq::run_many).
    void compute(std::size_t k, std::size_t index, const FramePair& pair,
                 std::span<std::byte> block) const {
        const CpuFeature& feature = *features_[k];
        const CpuFeature::BlockPart side = feature.reference_side();
        if (!shared_reference_ || side.bytes == 0) {
            feature.compute(pair, block);
            return;
        }
        shared_reference_->compute_once(k, index, block.subspan(side.offset, side.bytes),
                                        [&](std::span<std::byte> part) {
                                            feature.compute_reference_side(pair, part);
                                        });
        feature.compute_distorted_side(pair, block);
    }

    struct Slot {
        FramePair pair;
        std::vector<std::byte> area;
        Completion done;
    };

    std::vector<CpuFeature*> features_;
    std::shared_ptr<SharedReferenceBlocks> shared_reference_;
    BlockLayout layout_;
    unsigned threads_;
    std::vector<Slot> slots_;  // the pool's tasks write here: it goes after them
    WorkerPool pool_;
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor(
    std::vector<CpuFeature*> features, unsigned threads,
    std::shared_ptr<SharedReferenceBlocks> shared_reference) {
    return std::make_unique<CpuExecutor>(std::move(features), threads, std::move(shared_reference));
}

}  // namespace vq
