// The readers' default frame memory: buffers come back when released and are handed out again.
#include <cstddef>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "io/recycling_allocator.hpp"

namespace vq {
namespace {

TEST(RecyclingAllocator, AReleasedBufferIsHandedOutAgain) {
    const BufferAllocator allocate = recycling_allocator();
    FrameBuffer first = allocate(1000);
    ASSERT_TRUE(first);
    const std::byte* address = first.get();
    FrameBuffer second = allocate(1000);
    EXPECT_NE(second.get(), address);  // the first is still in use
    first.reset();
    EXPECT_EQ(allocate(1000).get(), address);
}

TEST(RecyclingAllocator, OnlyABufferOfTheSameSizeIsReused) {
    const BufferAllocator allocate = recycling_allocator();
    const std::byte* address = allocate(1000).get();  // released at once
    FrameBuffer other = allocate(2000);
    EXPECT_NE(other.get(), address);
    other[1999] = std::byte{1};  // the whole size is there
    EXPECT_EQ(allocate(1000).get(), address);
}

TEST(RecyclingAllocator, BuffersMayOutliveTheAllocator) {
    FrameBuffer buffer;
    {
        const BufferAllocator allocate = recycling_allocator();
        buffer = allocate(64);
    }
    buffer[63] = std::byte{7};
    buffer.reset();  // goes back to a pool that only this buffer kept alive
}

TEST(RecyclingAllocator, ThreadsAllocateAndReleaseAtOnce) {
    const BufferAllocator allocate = recycling_allocator();
    std::vector<std::jthread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&allocate, t] {
            for (int i = 0; i < 500; ++i) {
                FrameBuffer buffer = allocate(256);
                buffer[0] = std::byte(t);
                buffer[255] = std::byte(i);
                EXPECT_EQ(buffer[0], std::byte(t));  // no other thread holds the same buffer
            }
        });
    }
}

}  // namespace
}  // namespace vq
