// The CUDA executor on its own, with small test features: frames pipelined through the ring of
// slots, the reference left on the host when no feature reads it, one upload per picture and one
// readback per frame, the pinned buffer pool and the pinned memory under it, and GPU errors that
// end the run with a vq::Error.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "cuda_test_support.hpp"
#include "feature/executor.hpp"
#include "vq/error.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

constexpr unsigned threads_per_block = 256;

__global__ void sum_samples(const std::uint8_t* samples, std::size_t count,
                            unsigned long long* sum) {
    unsigned long long partial = 0;
    for (std::size_t i = std::size_t(blockIdx.x) * threads_per_block + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * threads_per_block)
        partial += samples[i];
    partial = cuda::block_sum<threads_per_block>(partial);
    if (threadIdx.x == 0) atomicAdd(sum, partial);
}

// A no-reference feature: the sum of the distorted picture's 8-bit luma. Notes whether the
// executor gave it a reference frame.
class DistortedLumaSum final : public cuda::CudaFeature {
public:
    void init(const VideoFormat& format) override { format_ = format; }
    std::vector<std::string> outputs() const override { return {"luma_sum"}; }
    std::size_t block_bytes() const override { return sizeof(unsigned long long); }
    bool uses_reference() const override { return false; }
    void prepare(cudaStream_t) override {}
    void enqueue(const cuda::DeviceFrame& frame, std::byte* block, cudaStream_t stream) override {
        saw_reference = saw_reference || frame.reference != nullptr;
        auto* sum = reinterpret_cast<unsigned long long*>(block);
        cuda::zero_async(sum, 1, stream);
        const std::size_t count = std::size_t(format_.width) * std::size_t(format_.height);
        sum_samples<<<cuda::blocks_for(count, threads_per_block), threads_per_block, 0, stream>>>(
            reinterpret_cast<const std::uint8_t*>(frame.distorted), count, sum);
        VQ_CUDA_CHECK_LAUNCH(sum_samples);
    }
    void finish(std::span<const std::byte> block, std::span<double> scores) override {
        scores[0] = double(block_as<unsigned long long>(block));
    }

    bool saw_reference = false;

private:
    VideoFormat format_;
};

__global__ void write_through_bad_pointer(unsigned long long* nowhere) { *nowhere = 1; }

// A feature whose kernel faults (an illegal address), as a bug in a twin would.
class FaultingFeature final : public cuda::CudaFeature {
public:
    void init(const VideoFormat&) override {}
    std::vector<std::string> outputs() const override { return {"fault"}; }
    std::size_t block_bytes() const override { return 8; }
    void prepare(cudaStream_t) override {}
    void enqueue(const cuda::DeviceFrame&, std::byte*, cudaStream_t stream) override {
        write_through_bad_pointer<<<1, 1, 0, stream>>>(
            reinterpret_cast<unsigned long long*>(std::uintptr_t(64)));
        VQ_CUDA_CHECK_LAUNCH(write_through_bad_pointer);
    }
    void finish(std::span<const std::byte>, std::span<double>) override {}
};

// Frame i holds the value i in every sample, so its luma sums to i * width * height.
std::vector<FramePair> numbered_frames(const VideoFormat& format, int count) {
    std::vector<FramePair> frames;
    for (int i = 0; i < count; ++i) {
        Picture distorted = Picture::allocate(format);
        std::fill_n(distorted.data(), distorted.size_bytes(), std::byte(i));
        frames.push_back({Picture::allocate(format), distorted});
    }
    return frames;
}

TEST(CudaExecutor, PipelinesFramesThroughTheRingAndLeavesAnUnusedReferenceOnTheHost) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{99, 37, 8, ChromaFormat::yuv420};
    const int frame_count = 11;  // wraps the ring of slots more than twice
    DistortedLumaSum feature;
    feature.init(format);

    setenv("VQ_DEBUG_TRANSFERS", "1", 1);
    testing::internal::CaptureStderr();
    const auto scores = run_twin(feature, numbered_frames(format, frame_count));
    const std::string log = testing::internal::GetCapturedStderr();
    unsetenv("VQ_DEBUG_TRANSFERS");

    for (int i = 0; i < frame_count; ++i)
        EXPECT_EQ(scores[i][0], double(i) * 99 * 37) << "frame " << i;
    EXPECT_FALSE(feature.saw_reference);
    // One upload per frame (the distorted picture alone) and one readback per frame.
    const std::string expected = "11 frames, 11 uploads (" +
                                 std::to_string(11 * format.frame_bytes()) +
                                 " bytes), 11 readbacks (176 bytes)";
    EXPECT_NE(log.find(expected), std::string::npos) << log;
}

TEST(CudaExecutor, PinnedBuffersAreRecycledAndMayOutliveTheExecutor) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{64, 48, 8, ChromaFormat::yuv420};
    DistortedLumaSum feature;
    feature.init(format);
    auto executor = cuda::make_executor({&feature}, 0, format, false);
    const BufferAllocator allocate = executor->allocator();
    ASSERT_TRUE(allocate);

    FrameBuffer first = allocate(format.frame_bytes());
    EXPECT_TRUE(cuda::is_pinned(first.get())) << "frame buffers should be pinned";
    const std::byte* address = first.get();
    first.reset();
    EXPECT_EQ(allocate(format.frame_bytes()).get(), address)
        << "a released buffer should be reused";

    FrameBuffer kept = allocate(format.frame_bytes());
    executor.reset();
    std::fill_n(kept.get(), format.frame_bytes(), std::byte(7));  // still valid memory
    kept.reset();  // the pool goes with the last buffer
}

// Pinned memory comes two ways: small buffers from cudaHostAlloc, buffers of 2 MiB and more
// mapped at a huge-page boundary and registered. Both are pinned, whole, and copy both ways on a
// stream; the sizes straddle the boundary and end off any page.
TEST(CudaMemory, PinnedBuffersOfEverySizeAreWholeAndCopyBothWays) {
    VQ_REQUIRE_CUDA();
    cuda::Stream stream;
    for (const std::size_t bytes : {std::size_t(176), std::size_t(2 << 20) - 1,
                                    std::size_t(2 << 20), std::size_t(3840 * 2160 * 3 / 2 + 3)}) {
        cuda::PinnedBuffer source(bytes), back(bytes);
        cuda::DeviceBuffer device(bytes);
        EXPECT_TRUE(cuda::is_pinned(source.data())) << bytes;
        EXPECT_TRUE(cuda::is_pinned(source.data() + bytes - 1)) << bytes;
        for (std::size_t i = 0; i < bytes; ++i) source.data()[i] = std::byte(i * 131 % 251);
        cuda::copy_async(device.data(), source.data(), bytes, stream.get());
        cuda::copy_async(back.data(), device.data(), bytes, stream.get());
        stream.synchronize();
        EXPECT_TRUE(std::equal(source.data(), source.data() + bytes, back.data())) << bytes;
    }
}

TEST(CudaExecutor, KernelFaultEndsTheRunWithAnError) {
    VQ_REQUIRE_CUDA();
    // A faulted context stays broken for the whole process, so the fault happens in a fresh one.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const VideoFormat format{16, 16, 8, ChromaFormat::yuv420};
    EXPECT_EXIT(
        {
            FaultingFeature feature;
            try {
                run_twin(feature, numbered_frames(format, 3));
            } catch (const Error& e) {
                std::cerr << e.what() << "\n";
                std::_Exit(e.kind() == ErrorKind::runtime ? 3 : 4);
            }
            std::_Exit(0);
        },
        testing::ExitedWithCode(3), "frame [0-9]+ on GPU 0: CUDA error: .*illegal memory access");
}

TEST(CudaExecutor, NamesABadGpuOrdinal) {
    VQ_REQUIRE_CUDA();
    Session session({.backend = Backend::cuda, .gpu = 99});
    session.add_feature("psnr");
    try {
        session.start({64, 48, 8, ChromaFormat::yuv420});
        FAIL() << "--gpu 99 should be refused";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::usage);
        EXPECT_NE(std::string(e.what()).find("--gpu 99: no such CUDA device"), std::string::npos)
            << e.what();
    }
}

// Runs here, on machines without a GPU: asking for CUDA fails with a clear usage error.
TEST(CudaBackend, WithoutAUsableDeviceCudaIsRefusedClearly) {
    if (cuda::usable_device_count() > 0) GTEST_SKIP() << "a usable CUDA device is present";
    Session session({.backend = Backend::cuda});
    session.add_feature("psnr");
    try {
        session.start({64, 48, 8, ChromaFormat::yuv420});
        FAIL() << "--backend cuda without a GPU should be refused";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::usage);
        EXPECT_NE(std::string(e.what()).find("no usable CUDA device"), std::string::npos)
            << e.what();
    }
    Session twin({.backend = Backend::cpu});
    twin.add_feature("psnr_cuda");
    EXPECT_THROW(twin.start({64, 48, 8, ChromaFormat::yuv420}), Error);
    Session automatic({.backend = Backend::automatic});
    automatic.add_feature("psnr");
    automatic.start({64, 48, 8, ChromaFormat::yuv420});
    EXPECT_EQ(automatic.receipts().at(0).backend, "cpu");
}

}  // namespace
}  // namespace vq::test
