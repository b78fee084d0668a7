// Several decoders on one input (src/io/ffmpeg_chunks.*, DecodeOptions::sessions): the frames
// come out as one decoder gives them, for codecs with B-frames, open GOPs and short keyframe
// intervals, from the start or after a seek; damage and truncation end the run with the single
// decoder's error at the same frame; the scheduler hands chunks out in order, holds no more than
// its window and queues, and stops at the first frame a worker could not deliver.
#if VQ_WITH_FFMPEG

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "ffmpeg_test_support.hpp"
#include "io/ffmpeg_chunks.hpp"
#include "io/open_video.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using ffmpeg::ChunkDecoder;
using ffmpeg::ChunkedFrames;
using ffmpeg::StreamTimes;

// --- the scheduler, with decoders made up for it ---------------------------------------------

// Frame f is a 1x1 grey picture whose sample is f % 256; its pts is 10 * f.
Picture numbered(std::size_t frame) {
    Picture picture = Picture::allocate(VideoFormat{1, 1, 8, ChromaFormat::yuv400});
    picture.data()[0] = std::byte(frame % 256);
    return picture;
}

std::shared_ptr<const StreamTimes> times_of(std::size_t frames) {
    auto times = std::make_shared<StreamTimes>();
    for (std::size_t f = 0; f < frames; ++f) times->presentation.push_back(std::int64_t(10 * f));
    return times;
}

struct Record {
    std::mutex mutex;
    std::map<std::size_t, std::size_t> seeks;  // frame -> times a decoder sought it
};

// Decodes frames in order from where it is sought; `broken` is the frame it cannot decode
// (it throws there), `wrong_pts` one it gives with another timestamp.
class MadeUpDecoder final : public ChunkDecoder {
public:
    MadeUpDecoder(Record& record, std::size_t frames, std::size_t broken, std::size_t wrong_pts)
        : record_(record), frames_(frames), broken_(broken), wrong_pts_(wrong_pts) {}

    bool seek(std::size_t first) override {
        std::lock_guard lock(record_.mutex);
        ++record_.seeks[first];
        next_ = first;
        return true;
    }

    std::optional<Picture> next(std::int64_t& pts) override {
        if (next_ == frames_) return std::nullopt;
        if (next_ == broken_) throw runtime_error("frame damaged");
        pts = std::int64_t(10 * next_) + (next_ == wrong_pts_ ? 1 : 0);
        return numbered(next_++);
    }

private:
    Record& record_;
    std::size_t frames_, broken_, wrong_pts_, next_ = 0;
};

constexpr std::size_t none = std::size_t(-1);

struct Scheduled {
    std::vector<std::size_t> frames;  // each frame's sample, as handed out
    std::optional<std::size_t> stopped_at;
};

Scheduled take_all(ChunkedFrames& chunks) {
    Scheduled result;
    for (;;) {
        ChunkedFrames::Item item = chunks.take();
        if (auto* picture = std::get_if<Picture>(&item)) {
            result.frames.push_back(std::size_t(picture->data()[0]));
            continue;
        }
        if (auto* stopped = std::get_if<ChunkedFrames::Stopped>(&item))
            result.stopped_at = stopped->frame;
        return result;
    }
}

std::vector<std::size_t> every_frame(std::size_t from, std::size_t to) {
    std::vector<std::size_t> frames;
    for (std::size_t f = from; f < to; ++f) frames.push_back(f % 256);
    return frames;
}

TEST(ChunkedFrames, HandsOutEveryChunkInOrderEachSoughtOnce) {
    Record record;
    ChunkedFrames chunks(
        times_of(100), {5, 17, 30, 31, 64},
        [&] { return std::make_unique<MadeUpDecoder>(record, 100, none, none); }, 3, 4);
    const Scheduled got = take_all(chunks);
    EXPECT_EQ(got.frames, every_frame(5, 100));
    EXPECT_FALSE(got.stopped_at);
    const std::map<std::size_t, std::size_t> each_once{{5, 1}, {17, 1}, {30, 1}, {31, 1}, {64, 1}};
    EXPECT_EQ(record.seeks, each_once);
    EXPECT_TRUE(std::holds_alternative<ChunkedFrames::End>(chunks.take()));
}

TEST(ChunkedFrames, StopsAtTheFirstFrameAWorkerCouldNotDecode) {
    for (const bool throws : {true, false}) {
        Record record;
        ChunkedFrames chunks(
            times_of(60), {0, 10, 20, 30, 40, 50},
            [&] {
                return std::make_unique<MadeUpDecoder>(record, 60, throws ? 33 : none,
                                                       throws ? none : 33);
            },
            2, 100);
        const Scheduled got = take_all(chunks);
        EXPECT_EQ(got.frames, every_frame(0, 33)) << throws;
        EXPECT_EQ(got.stopped_at, std::optional<std::size_t>(33)) << throws;
        const ChunkedFrames::Item again = chunks.take();
        ASSERT_TRUE(std::holds_alternative<ChunkedFrames::Stopped>(again));
        EXPECT_EQ(std::get<ChunkedFrames::Stopped>(again).frame, 33u);
    }
}

TEST(ChunkedFrames, AStreamLongerThanItsTimestampsStopsAtItsEnd) {
    Record record;
    ChunkedFrames chunks(
        times_of(40), {0, 20},
        [&] { return std::make_unique<MadeUpDecoder>(record, 41, none, none); }, 2, 100);
    const Scheduled got = take_all(chunks);
    EXPECT_EQ(got.frames, every_frame(0, 40));
    EXPECT_EQ(got.stopped_at, std::optional<std::size_t>(40));
}

TEST(ChunkedFrames, WithNoDecoderStopsAtTheFirstChunk) {
    ChunkedFrames chunks(
        times_of(40), {12, 20},
        []() -> std::unique_ptr<ChunkDecoder> { throw std::runtime_error("no session"); }, 3, 100);
    const Scheduled got = take_all(chunks);
    EXPECT_TRUE(got.frames.empty());
    EXPECT_EQ(got.stopped_at, std::optional<std::size_t>(12));
}

// A consumer that takes nothing: the workers decode the first `window` chunks' queues full and
// wait; dropping the scheduler stops them.
TEST(ChunkedFrames, HoldsNoMoreThanItsWindowAndQueues) {
    std::atomic<int> decoded{0};
    class Counting final : public ChunkDecoder {
    public:
        explicit Counting(std::atomic<int>& decoded) : decoded_(decoded) {}
        bool seek(std::size_t first) override {
            next_ = first;
            return true;
        }
        std::optional<Picture> next(std::int64_t& pts) override {
            ++decoded_;
            pts = std::int64_t(10 * next_);
            return numbered(next_++);
        }

    private:
        std::atomic<int>& decoded_;
        std::size_t next_ = 0;
    };
    {
        ChunkedFrames chunks(
            times_of(1000), {0, 100, 200, 300, 400, 500, 600},
            [&] { return std::make_unique<Counting>(decoded); }, 2, 3);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        // Two workers, each waiting to queue a fourth frame of its chunk: 2 x (3 queued + 1).
        EXPECT_EQ(decoded.load(), 8);
    }
}

// --- real decoders on encoded clips -----------------------------------------------------------

constexpr int clip_frames = test::keyframe_clip_frames;
using test::keyframe_clip;

// The frames from `first` on; with `frames_read`, the first frames_read of the stream at most,
// the source told so (DecodeOptions::frames_read).
std::vector<Picture> read_from(const fs::path& path, unsigned sessions, std::size_t first = 0,
                               unsigned threads = 0, std::size_t frames_read = 0) {
    InputOptions options;
    options.decode.sessions = sessions;
    options.decode.threads = threads;
    options.decode.frames_read = frames_read;
    auto source = open_video(path.string(), options).source;
    EXPECT_EQ(source->skip_frames(first), first);
    std::vector<Picture> pictures;
    for (std::size_t frame = first; !frames_read || frame < frames_read; ++frame) {
        std::optional<Picture> picture = source->next();
        if (!picture) break;
        pictures.push_back(std::move(*picture));
    }
    return pictures;
}

// One decoder thread each: with frame threads, the message FFmpeg logs about a damaged frame may
// reach vq with the frame before it, whichever way the input is decoded.
std::string error_reading(const fs::path& path, unsigned sessions) {
    try {
        read_from(path, sessions, 0, 1);
    } catch (const Error& error) {
        return error.what();
    }
    return "no error";
}

void expect_same_frames(const std::vector<Picture>& want, const std::vector<Picture>& got,
                        const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_TRUE(test::same_picture(got[i], want[i])) << what << ": frame " << i;
}

class FfmpegChunks : public testing::TestWithParam<test::KeyframeCodec> {};

TEST_P(FfmpegChunks, SeveralDecodersGiveTheSingleDecodersFrames) {
    VQ_REQUIRE_FFMPEG();
    const test::KeyframeCodec& codec = GetParam();
    if (!test::have_encoder(codec.encoder)) GTEST_SKIP() << "ffmpeg lacks " << codec.encoder;
    const fs::path clip = keyframe_clip(
        test::scratch_dir(std::string("ffmpeg_chunks_") + codec.name) / codec.file, codec.options);
    ASSERT_FALSE(clip.empty());
    const std::vector<Picture> single = read_from(clip, 1);
    ASSERT_EQ(single.size(), std::size_t(clip_frames));
    for (const unsigned sessions : {2u, 3u, 16u})
        expect_same_frames(single, read_from(clip, sessions), fmt::format("{} sessions", sessions));
    // After a seek (frame 50, mid-chunk) and after a step that decodes (frame 7).
    for (const std::size_t first : {std::size_t(50), std::size_t(7)}) {
        const std::vector<Picture> rest(single.begin() + std::ptrdiff_t(first), single.end());
        expect_same_frames(rest, read_from(clip, 3, first), fmt::format("from frame {}", first));
    }
    // A run that reads 30 frames: the chunks from keyframes past them are not decoded, and the
    // last one read runs on past the 30th.
    const std::vector<Picture> head(single.begin(), single.begin() + 30);
    expect_same_frames(head, read_from(clip, 3, 0, 0, 30), "30 frames read");
}

// The seek test's codecs, and H.264's open GOPs: recovery-point keyframes whose leading B-frames
// need the GOP before, which the chunk before decodes.
std::vector<test::KeyframeCodec> chunk_codecs() {
    std::vector<test::KeyframeCodec> codecs = test::keyframe_codecs();
    codecs.push_back({"h264_open_gop", "libx264", "a.mkv",
                      "-c:v libx264 -g 12 -x264-params bframes=3:open-gop=1"});
    return codecs;
}

INSTANTIATE_TEST_SUITE_P(Codecs, FfmpegChunks, testing::ValuesIn(chunk_codecs()),
                         [](const testing::TestParamInfo<test::KeyframeCodec>& info) {
                             return std::string(info.param.name);
                         });

// Damage in a chunk a worker decodes, and a file cut short in its last chunk: the run ends with
// the single decoder's error, at the same frame, after the same frames.
TEST(FfmpegChunksDamage, EndsWithTheSingleDecodersErrorAtTheSameFrame) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const fs::path dir = test::scratch_dir("ffmpeg_chunks_damage");
    const fs::path clip =
        keyframe_clip(dir / "a.mkv", "-c:v libx264 -g 12 -bf 0 -x264-params scenecut=0");
    ASSERT_FALSE(clip.empty());
    const fs::path damaged = test::damaged_copy(clip, 44);
    const std::string single = error_reading(damaged, 1);
    EXPECT_NE(single, "no error");
    EXPECT_EQ(error_reading(damaged, 3), single);

    std::string bytes;
    {
        std::ifstream in(clip, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const fs::path cut = dir / "cut.mkv";
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 9 / 10);
    const std::string cut_single = error_reading(cut, 1);
    EXPECT_NE(cut_single, "no error");
    EXPECT_EQ(error_reading(cut, 3), cut_single);
}

}  // namespace
}  // namespace vq

#endif  // VQ_WITH_FFMPEG
