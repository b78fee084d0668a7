// SharedReferenceBlocks (src/engine/shared_reference_blocks.hpp): a many-input run's reference-side
// blocks, computed once per frame for every sharing session, recomputed whenever nobody holds them.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/shared_reference_blocks.hpp"

namespace vq {
namespace {

// Asks for (slot, frame) and returns what lands in the block; `computed` counts the computations.
std::byte ask(SharedReferenceBlocks& blocks, std::size_t slot, std::size_t frame,
              std::atomic<int>& computed, std::byte value = std::byte{42}) {
    std::vector<std::byte> block(1);
    blocks.compute_once(slot, frame, block, [&](std::span<std::byte> out) {
        ++computed;
        out[0] = value;
    });
    return block[0];
}

TEST(SharedReferenceBlocks, EachBlockIsComputedOnceForEverySharer) {
    SharedReferenceBlocks blocks(3);
    std::atomic<int> computed = 0;
    EXPECT_EQ(ask(blocks, 0, 7, computed, std::byte{1}), std::byte{1});
    EXPECT_EQ(ask(blocks, 0, 7, computed, std::byte{2}), std::byte{1});  // copied, not computed
    EXPECT_EQ(ask(blocks, 1, 7, computed, std::byte{3}), std::byte{3});  // another feature
    EXPECT_EQ(ask(blocks, 0, 7, computed, std::byte{4}), std::byte{1});
    EXPECT_EQ(computed, 2);
    // Every sharer took it: it was let go, so a fourth ask computes it again.
    EXPECT_EQ(ask(blocks, 0, 7, computed, std::byte{5}), std::byte{5});
    EXPECT_EQ(computed, 3);
}

TEST(SharedReferenceBlocks, AFailedComputationLeavesNothingBehind) {
    SharedReferenceBlocks blocks(2);
    std::vector<std::byte> block(1);
    EXPECT_THROW(blocks.compute_once(0, 0, block,
                                     [](std::span<std::byte>) { throw std::runtime_error("x"); }),
                 std::runtime_error);
    std::atomic<int> computed = 0;
    EXPECT_EQ(ask(blocks, 0, 0, computed), std::byte{42});
    EXPECT_EQ(computed, 1);
}

TEST(SharedReferenceBlocks, ASharerThatLeavesIsNotWaitedFor) {
    SharedReferenceBlocks blocks(3);
    std::atomic<int> computed = 0;
    ask(blocks, 0, 0, computed);
    ask(blocks, 0, 0, computed);
    blocks.leave();  // the third session stopped: the two others have taken frame 0
    EXPECT_EQ(ask(blocks, 0, 0, computed, std::byte{9}), std::byte{9});
    EXPECT_EQ(computed, 2);
}

TEST(SharedReferenceBlocks, ConcurrentAskersWaitForTheOneComputing) {
    constexpr int sharers = 8;
    SharedReferenceBlocks blocks(sharers);
    std::atomic<int> computed = 0;
    std::vector<std::byte> seen(sharers);
    std::vector<std::thread> threads;
    for (int t = 0; t < sharers; ++t)
        threads.emplace_back([&, t] {
            std::vector<std::byte> block(1);
            blocks.compute_once(0, 3, block, [&](std::span<std::byte> out) {
                ++computed;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                out[0] = std::byte(10 + t);
            });
            seen[std::size_t(t)] = block[0];
        });
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(computed, 1);
    for (std::byte value : seen) EXPECT_EQ(value, seen[0]);
}

}  // namespace
}  // namespace vq
