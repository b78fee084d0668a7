// The fixture walk every golden and parity test uses: clips only, never the files beside them
// (the verification stamp was once opened as a clip and failed two GPU tests).
#include <fstream>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace vq::test {
namespace {

TEST(FixtureClips, ListsClipFoldersOnlyInOrder) {
    const auto dir = scratch_dir("fixture_clips");
    for (const char* clip : {"b_clip", "a_clip"}) {
        std::filesystem::create_directories(dir / clip);
        std::ofstream(dir / clip / "ref.y4m") << "YUV4MPEG2";
    }
    std::filesystem::create_directories(dir / "not_a_clip");
    std::ofstream(dir / ".verified") << "stamp";
    EXPECT_EQ(fixture_clips(dir),
              (std::vector<std::filesystem::path>{dir / "a_clip", dir / "b_clip"}));
}

}  // namespace
}  // namespace vq::test
