// A run's frame memory is bounded by its thread count, never by a fixed read-ahead: on the CPU
// backend at most one frame pair per worker is in flight, and the read-ahead holds what the
// session's plan asks for per input (the queue of the next frames). Counted through the readers'
// allocator, so the bound holds whatever the frame size.
#include <algorithm>
#include <atomic>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "engine/driver.hpp"
#include "io/frame_source.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq {
namespace {

const VideoFormat format{96, 54, 8, ChromaFormat::yuv420};

// Counts the frame buffers alive at once, across every input it is given to.
class CountingAllocator {
public:
    BufferAllocator allocator() {
        return [this](std::size_t bytes) {
            const int now = ++alive_;
            int most = most_;
            while (now > most && !most_.compare_exchange_weak(most, now)) {}
            return FrameBuffer(new std::byte[bytes], [this](std::byte* data) {
                --alive_;
                delete[] data;
            });
        };
    }
    int most_alive() const { return most_; }

private:
    std::atomic<int> alive_ = 0;
    std::atomic<int> most_ = 0;
};

std::string clip(const std::string& name, int frames) {
    const auto path = test::scratch_dir(name) / "in.y4m";
    return test::write_file(path, test::y4m_file("YUV4MPEG2 W96 H54 F25:1", format, frames))
        .string();
}

class RunMemory : public testing::TestWithParam<unsigned> {};

TEST_P(RunMemory, HoldsAFramePairPerWorkerAndThePlannedReadAhead) {
    const unsigned threads = GetParam();
    const std::string path = clip("run_memory_" + std::to_string(threads), 40);
    Session session({.threads = threads});
    session.add_feature("psnr");
    session.start(format);
    const ReadAheadPlan plan = session.read_ahead_plan();
    EXPECT_LE(plan.frames, std::max<std::size_t>(1, (threads + 1) / 2));

    CountingAllocator counter;  // the file holds distinct frames; each input is opened on its own
    auto reference = open_y4m(path);
    auto distorted = open_y4m(path);
    reference->set_allocator(counter.allocator());
    distorted->set_allocator(counter.allocator());
    reference = read_ahead(std::move(reference), plan.frames, plan.threads);
    distorted = read_ahead(std::move(distorted), plan.frames, plan.threads);
    RunObserver quiet;
    const ScoreTable table = run_frame_loop(session, reference.get(), *distorted, {}, quiet);

    EXPECT_EQ(table.frame_count(), 40u);
    EXPECT_LE(counter.most_alive(), int(2 * (threads + plan.frames)));
}

TEST(RunMemory, OneWorkerReadsOneFrameAheadWithOneThread) {
    Session session({.threads = 1});
    session.add_feature("psnr");
    session.start(format);
    EXPECT_EQ(session.read_ahead_plan().frames, 1u);
    EXPECT_EQ(session.read_ahead_plan().threads, 1u);
}

INSTANTIATE_TEST_SUITE_P(Threads, RunMemory, testing::Values(1u, 2u, 3u, 8u),
                         [](const testing::TestParamInfo<unsigned>& info) {
                             return std::to_string(info.param) + "_threads";
                         });

}  // namespace
}  // namespace vq
