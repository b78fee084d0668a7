// The reference-side stage of CPU twins (CpuFeature::reference_side): what a many-input run
// computes once per frame and copies to every input's block, plus the rest of the block that
// compute_distorted_side() writes, must be exactly what compute() writes.
#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/synthetic.hpp"
#include "feature/feature.hpp"
#include "feature/registry.hpp"

namespace vq {
namespace {

std::unique_ptr<CpuFeature> make_twin(const std::string& text, const VideoFormat& format) {
    const FeatureRequest request = parse_feature_request(text);
    const FeatureDefinition& definition = *find_feature(request.name).definition;
    auto twin =
        definition.make_cpu(bind_options(request.name, definition.options, request.options));
    twin->init(format);
    return twin;
}

// Frame 3 of a synthetic pair, with the earlier reference and distorted pictures the temporal
// contract hands over.
FramePair frame_pair(const VideoFormat& format) {
    FramePair pair;
    pair.index = 3;
    pair.reference = make_synthetic_frame(format, SyntheticScene::mixed, 3, false);
    pair.distorted = make_synthetic_frame(format, SyntheticScene::mixed, 3, true);
    for (std::size_t k = 0; k < max_reference_history; ++k) {
        const int earlier = int(pair.index - 1 - k);
        pair.previous_references[k] =
            make_synthetic_frame(format, SyntheticScene::mixed, earlier, false);
        pair.previous_distorted[k] =
            make_synthetic_frame(format, SyntheticScene::mixed, earlier, true);
    }
    return pair;
}

class ReferenceSide : public testing::TestWithParam<const char*> {};

TEST_P(ReferenceSide, SplitWritesWhatComputeWrites) {
    const VideoFormat format{256, 144, 10, ChromaFormat::yuv420};
    const auto twin = make_twin(GetParam(), format);
    const FramePair pair = frame_pair(format);

    // Every buffer starts as the same garbage (a reused slot holds the previous frame's block), so
    // a field the split leaves unwritten shows, and padding that neither writes does not.
    std::vector<std::byte> whole(twin->block_bytes(), std::byte{0xa5});
    twin->compute(pair, whole);
    std::vector<std::byte> split(twin->block_bytes(), std::byte{0xa5});
    const CpuFeature::BlockPart side = twin->reference_side();
    ASSERT_LE(side.offset + side.bytes, split.size());
    std::vector<std::byte> part(side.bytes, std::byte{0xa5});
    twin->compute_reference_side(pair, part);
    std::memcpy(split.data() + side.offset, part.data(), part.size());
    twin->compute_distorted_side(pair, split);
    EXPECT_EQ(std::memcmp(whole.data(), split.data(), whole.size()), 0) << GetParam();
}

// Named after the request, letters and digits kept ("cambi=full_ref=true" -> cambi_full_ref_true).
INSTANTIATE_TEST_SUITE_P(Twins, ReferenceSide,
                         testing::Values("motion", "motion=motion_five_frame_window=true",
                                         "cambi=full_ref=true"),
                         [](const testing::TestParamInfo<const char*>& info) {
                             std::string name = info.param;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

TEST(ReferenceSide, FeaturesThatReadTheDistortedPictureDeclareNoneOrAPart) {
    const VideoFormat format{256, 144, 8, ChromaFormat::yuv420};
    EXPECT_EQ(make_twin("cambi", format)->reference_side().bytes, 0u);
    EXPECT_EQ(make_twin("vif", format)->reference_side().bytes, 0u);
    EXPECT_EQ(make_twin("cambi=full_ref=true", format)->reference_side().bytes, sizeof(double));
}

}  // namespace
}  // namespace vq
