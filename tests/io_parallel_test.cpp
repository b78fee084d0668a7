// Read-ahead with several reading threads over Y4M and raw YUV files: whatever the thread count
// and the depth, the frames, their order, the end and every error are exactly what the source
// gives when it is read directly, one frame after the other.
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <new>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "io/frame_source.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::error_of;
using test::frame_bytes;
using test::write_file;
using test::y4m_file;

// --- reading a source to its end ------------------------------------------------------------

// What a source gave: each frame's bytes ("skipped" for a skipped one), then the end (no error)
// or the error's message.
struct Reading {
    std::vector<std::string> frames;
    std::string error;

    friend bool operator==(const Reading&, const Reading&) = default;
};

std::ostream& operator<<(std::ostream& out, const Reading& reading) {
    return out << reading.frames.size() << " frames, then "
               << (reading.error.empty() ? "the end" : reading.error);
}

std::string bytes_of(const Picture& picture) {
    return {reinterpret_cast<const char*>(picture.data()), picture.size_bytes()};
}

// Skips a frame where `plan` says 's', takes it with next() elsewhere and past the plan's end,
// until the source ends or fails; then checks that the end or the error stays.
Reading read_all(FrameSource& source, std::string_view plan = "") {
    Reading reading;
    try {
        for (std::size_t step = 0;; ++step) {
            if (step < plan.size() && plan[step] == 's') {
                if (!source.skip()) break;
                reading.frames.emplace_back("skipped");
                continue;
            }
            std::optional<Picture> picture = source.next();
            if (!picture) break;
            reading.frames.push_back(bytes_of(*picture));
        }
        if (source.next() || source.skip()) reading.error = "a frame after the end";
    } catch (const Error& error) {
        reading.error = error.what();
        EXPECT_EQ(error_of([&] { source.next(); }), reading.error);
        EXPECT_EQ(error_of([&] { source.skip(); }), reading.error);
    }
    return reading;
}

// --- the files ---------------------------------------------------------------------------------

using Opener = std::function<std::unique_ptr<FrameSource>(const std::string& path)>;

Opener y4m() {
    return [](const std::string& path) { return open_y4m(path); };
}
Opener yuv(const VideoFormat& format) {
    return [format](const std::string& path) { return open_yuv(path, format); };
}

struct FileCase {
    std::string name;
    // Built when a test writes the file, not when the cases are registered: every test process
    // registers them, and building the large ones there was most of each process's start.
    std::function<std::string()> bytes;
    Opener open;
    std::size_t frames;        // read before the end or the error
    std::string error_suffix;  // after "'path': ", empty for a clean end
};

void PrintTo(const FileCase& c, std::ostream* out) {
    *out << c.name << ": " << c.frames << " frames, then "
         << (c.error_suffix.empty() ? "the end" : c.error_suffix);
}

std::string frames_of(const VideoFormat& format, int first, int end) {
    std::string bytes;
    for (int f = first; f < end; ++f) bytes += frame_bytes(format, f);
    return bytes;
}

std::string y4m_frames(const VideoFormat& format, int first, int end) {
    std::string bytes;
    for (int f = first; f < end; ++f) bytes += "FRAME\n" + frame_bytes(format, f);
    return bytes;
}

// Tiny and odd sizes, frames of every kind a file can end or fail with, and frame parameters.
std::vector<FileCase> file_cases() {
    const VideoFormat one_byte{1, 1, 8, ChromaFormat::yuv400};
    const VideoFormat odd_10bit{5, 3, 10, ChromaFormat::yuv420};  // 15*2 + 2 * 6*2 = 54 bytes
    const VideoFormat odd_422{5, 3, 8, ChromaFormat::yuv422};     // 15 + 2 * 9 = 33 bytes
    const VideoFormat odd_12bit{7, 5, 12, ChromaFormat::yuv420};  // 35*2 + 2 * 12*2 = 118 bytes
    const VideoFormat alpha{5, 3, 8, ChromaFormat::yuv444};       // 45 bytes, then 15 of alpha
    const VideoFormat large{640, 360, 8, ChromaFormat::yuv420};   // 345600 bytes
    const auto alpha_frames = [alpha](int count) {
        const std::string alpha_plane(15, '\xaa');
        std::string bytes = "YUV4MPEG2 W5 H3 F1:1 C444alpha\n";
        for (int f = 0; f < count; ++f) bytes += "FRAME\n" + frame_bytes(alpha, f) + alpha_plane;
        return bytes;
    };
    const std::string odd_header = "YUV4MPEG2 W7 H5 F25:1 C420p12";
    const auto mixed = [odd_header, odd_12bit] {
        std::string bytes = odd_header + "\n";
        for (int f = 0; f < 14; ++f) {
            const char* marker = f == 5 ? "FRAME Ip\n" : f == 9 ? "FRAME XID=9 Ip\n" : "FRAME\n";
            bytes += marker + frame_bytes(odd_12bit, f);
        }
        return bytes;
    };
    return {
        {"yuv_one_byte_frames", [=] { return frames_of(one_byte, 0, 40); }, yuv(one_byte), 40, ""},
        {"yuv_odd", [=] { return frames_of(odd_10bit, 0, 17); }, yuv(odd_10bit), 17, ""},
        {"yuv_single_frame", [=] { return frames_of(odd_10bit, 0, 1); }, yuv(odd_10bit), 1, ""},
        {"yuv_truncated",
         [=] { return frames_of(odd_422, 0, 9) + frame_bytes(odd_422, 9).substr(0, 7); },
         yuv(odd_422), 9, "frame 9 is truncated (got 7 of 33 bytes)"},
        {"yuv_truncated_in_chroma",
         [=] { return frames_of(odd_422, 0, 3) + frame_bytes(odd_422, 3).substr(0, 20); },
         yuv(odd_422), 3, "frame 3 is truncated (got 20 of 33 bytes)"},
        {"yuv_large", [=] { return frames_of(large, 0, 10); }, yuv(large), 10, ""},
        {"y4m_odd", [=] { return y4m_file(odd_header, odd_12bit, 13); }, y4m(), 13, ""},
        {"y4m_header_only", [=] { return odd_header + "\n"; }, y4m(), 0, ""},
        {"y4m_large", [=] { return y4m_file("YUV4MPEG2 W640 H360 F1:1", large, 9); }, y4m(), 9, ""},
        {"y4m_alpha", [=] { return alpha_frames(7); }, y4m(), 7, ""},
        {"y4m_alpha_truncated",
         [=] { return alpha_frames(6) + "FRAME\n" + frame_bytes(alpha, 6) + "aa"; }, y4m(), 6,
         "frame 6 is truncated (got 47 of 60 bytes)"},
        {"y4m_truncated",
         [=] {
             return y4m_file(odd_header, odd_12bit, 11) + "FRAME\n" +
                    frame_bytes(odd_12bit, 11).substr(0, 50);
         },
         y4m(), 11, "frame 11 is truncated (got 50 of 118 bytes)"},
        {"y4m_ends_in_marker", [=] { return y4m_file(odd_header, odd_12bit, 6) + "FRA"; }, y4m(), 6,
         "frame 6 is truncated (the file ends inside its FRAME line)"},
        {"y4m_broken_marker",
         [=] {
             return y4m_file(odd_header, odd_12bit, 5) + "FRAMX\n" + y4m_frames(odd_12bit, 5, 10);
         },
         y4m(), 5, "frame 5: lost framing (expected FRAME)"},
        // A frame one byte too long: the frames after it are bare, but one byte off.
        {"y4m_frame_too_long",
         [=] {
             return y4m_file(odd_header, odd_12bit, 4) + "FRAME\n" + frame_bytes(odd_12bit, 4) +
                    "x" + y4m_frames(odd_12bit, 5, 10);
         },
         y4m(), 5, "frame 5: lost framing (expected FRAME)"},
        {"y4m_mixed_parameters", mixed, y4m(), 14, ""},
        {"y4m_parameters_first",
         [=] {
             return odd_header + "\nFRAME XFIRST\n" + frame_bytes(odd_12bit, 0) +
                    y4m_frames(odd_12bit, 1, 8);
         },
         y4m(), 8, ""},
    };
}

class ParallelReading : public testing::TestWithParam<FileCase> {
protected:
    std::string write() const {
        const FileCase& c = GetParam();
        return write_file(test::scratch_dir("parallel_" + c.name) / "in", c.bytes()).string();
    }
};

TEST_P(ParallelReading, SequentialReaderGivesTheExpectedFrames) {
    const FileCase& c = GetParam();
    const std::string path = write();
    const Reading reading = read_all(*c.open(path));
    EXPECT_EQ(reading.frames.size(), c.frames);
    EXPECT_EQ(reading.error, c.error_suffix.empty() ? "" : "'" + path + "': " + c.error_suffix);
}

TEST_P(ParallelReading, AnyThreadsAndDepthGiveWhatTheSequentialReaderGives) {
    const FileCase& c = GetParam();
    const std::string path = write();
    const Reading expected = read_all(*c.open(path));
    for (unsigned threads = 1; threads <= 8; ++threads) {
        for (const std::size_t depth : {1, 3, 8}) {
            SCOPED_TRACE(testing::Message() << threads << " threads, depth " << depth);
            EXPECT_EQ(read_all(*read_ahead(c.open(path), depth, threads)), expected);
        }
    }
}

TEST_P(ParallelReading, SkippingGivesWhatTheSequentialReaderGives) {
    const FileCase& c = GetParam();
    const std::string path = write();
    // Skips before the readers start, among frames read, and to the end of the file.
    for (const std::string_view plan : {"ss", "snsnssn", "nnssssnss", "ssssssssssssssssssss"}) {
        const Reading expected = read_all(*c.open(path), plan);
        for (const unsigned threads : {1, 3, 8}) {
            SCOPED_TRACE(testing::Message() << "plan " << plan << ", " << threads << " threads");
            EXPECT_EQ(read_all(*read_ahead(c.open(path), 4, threads), plan), expected);
        }
    }
}

// The frames' luma planes alone, as a source told to read luma alone fills them.
Reading luma_of(Reading reading, const VideoFormat& format) {
    for (std::string& frame : reading.frames)
        if (frame != "skipped") frame.resize(plane_bytes(Planes::luma, format));
    return reading;
}

std::unique_ptr<FrameSource> reading_luma(std::unique_ptr<FrameSource> source) {
    source->read_planes(Planes::luma);
    return source;
}

// Luma alone: the same luma, the same end and the same errors, a truncated chroma plane included,
// read in sequence or by position, with skips.
TEST_P(ParallelReading, ReadingLumaAloneGivesTheSameLumaAndTheSameEnd) {
    const FileCase& c = GetParam();
    const std::string path = write();
    const VideoFormat format = c.open(path)->format();
    for (const std::string_view plan : {"", "snsnssn"}) {
        const Reading expected = luma_of(read_all(*c.open(path), plan), format);
        EXPECT_EQ(luma_of(read_all(*reading_luma(c.open(path)), plan), format), expected);
        for (const unsigned threads : {1, 3, 8}) {
            SCOPED_TRACE(testing::Message() << "plan " << plan << ", " << threads << " threads");
            EXPECT_EQ(luma_of(read_all(*read_ahead(reading_luma(c.open(path)), 4, threads), plan),
                              format),
                      expected);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EveryKindOfFile, ParallelReading, testing::ValuesIn(file_cases()),
                         [](const testing::TestParamInfo<FileCase>& info) {
                             return info.param.name;
                         });

// "YUV4MPEG2 W5 H3 F1:1 C420p10"
std::string y4m_header(const VideoFormat& format) {
    static const char* const chroma_tags[] = {"420", "422", "444", "mono"};  // ChromaFormat order
    std::string header = "YUV4MPEG2 W" + std::to_string(format.width) + " H" +
                         std::to_string(format.height) + " F1:1 C" +
                         chroma_tags[int(format.chroma)];
    if (format.bit_depth > 8)
        header +=
            (format.chroma == ChromaFormat::yuv400 ? "" : "p") + std::to_string(format.bit_depth);
    return header;
}

// Random small files, many of them broken somewhere, read with random threads, depths and skips.
TEST(ParallelReading, RandomFilesGiveWhatTheSequentialReaderGives) {
    std::mt19937 random(20261202);
    const auto pick = [&](int low, int high) {
        return std::uniform_int_distribution<int>(low, high)(random);
    };
    const fs::path dir = test::scratch_dir("parallel_random");
    for (int round = 0; round < 300; ++round) {
        const VideoFormat format{pick(1, 9), pick(1, 7), pick(0, 1) ? 10 : 8,
                                 ChromaFormat(pick(0, 3))};
        const bool raw = pick(0, 3) == 0;
        const int frames = pick(0, 12);
        std::string bytes = raw ? "" : y4m_header(format) + "\n";
        for (int f = 0; f < frames; ++f) {
            if (!raw) {
                const int marker = pick(0, 19);
                bytes += marker == 0 ? "FRAME Ip\n" : marker == 1 ? "FRAMX\n" : "FRAME\n";
            }
            bytes += frame_bytes(format, f);
            if (pick(0, 29) == 0) bytes += "x";  // a frame one byte too long
        }
        if (pick(0, 2) == 0) {  // a truncated frame at the end
            const std::string last = (raw ? "" : "FRAME\n") + frame_bytes(format, frames);
            bytes += last.substr(0, pick(1, int(last.size()) - 1));
        }
        if (raw && bytes.empty()) bytes = "x";  // an empty raw file fails to open
        const std::string path = write_file(dir / "in", bytes).string();
        const auto open = [&] { return raw ? open_yuv(path, format) : open_y4m(path); };
        std::string plan;
        for (int step = pick(0, 8); step > 0; --step) plan += pick(0, 1) ? 's' : 'n';
        const unsigned threads = unsigned(pick(1, 8));
        const std::size_t depth = std::size_t(pick(1, 8));
        SCOPED_TRACE(testing::Message() << "round " << round << ": " << describe(format) << ", "
                                        << (raw ? "raw" : "y4m") << ", plan '" << plan << "', "
                                        << threads << " threads, depth " << depth);
        EXPECT_EQ(read_all(*read_ahead(open(), depth, threads), plan), read_all(*open(), plan));
    }
}

TEST(ParallelReading, FixturesGiveWhatTheSequentialReaderGives) {
    VQ_REQUIRE_FIXTURES(fixtures);
    for (const auto& clip : fs::directory_iterator(fixtures)) {
        if (!clip.is_directory()) continue;
        for (const char* file : {"ref.y4m", "dist.y4m"}) {
            const std::string path = (clip.path() / file).string();
            SCOPED_TRACE(path);
            EXPECT_EQ(read_all(*read_ahead(open_y4m(path), 4, 4)), read_all(*open_y4m(path)));
        }
    }
}

// --- one file, read in various ways -----------------------------------------------------------

const VideoFormat medium{64, 36, 8, ChromaFormat::yuv420};  // 3456 bytes a frame

std::string medium_y4m(const std::string& name, int frames) {
    const fs::path path = test::scratch_dir(name) / "in.y4m";
    return write_file(path, y4m_file("YUV4MPEG2 W64 H36 F1:1", medium, frames)).string();
}

// Waits (bounded) until `done` holds: readers run on their own schedule.
bool eventually(const std::function<bool()>& done) {
    // Generous, because a loaded test machine may not schedule the readers for a while.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return done();
}

TEST(ParallelReadAhead, StartsWhereTheSourceStands) {
    const std::string path = medium_y4m("parallel_mid_file", 10);
    auto source = open_y4m(path);
    ASSERT_TRUE(source->next());
    ASSERT_TRUE(source->skip());
    auto parallel = read_ahead(std::move(source), 3, 4);
    const Reading reading = read_all(*parallel);
    ASSERT_EQ(reading.frames.size(), 8u);
    for (int f = 2; f < 10; ++f) EXPECT_EQ(reading.frames[f - 2], frame_bytes(medium, f));
}

// Bytes this thread has read through system calls, from /proc (Linux).
std::size_t bytes_read_by_this_thread() {
    std::ifstream io("/proc/thread-self/io");
    std::string key;
    std::size_t value = 0;
    while (io >> key >> value)
        if (key == "rchar:") return value;
    return 0;
}

TEST(ParallelReadAhead, SkippingBeforeTheFirstFrameReadsNoSamples) {
    const VideoFormat large{640, 360, 8, ChromaFormat::yuv420};
    const fs::path path = test::scratch_dir("parallel_skip_unread") / "in.y4m";
    write_file(path, y4m_file("YUV4MPEG2 W640 H360 F1:1", large, 6));
    auto source = read_ahead(open_y4m(path.string()), 4, 4);
    const std::size_t before = bytes_read_by_this_thread();
    for (int f = 0; f < 5; ++f) ASSERT_TRUE(source->skip());
    EXPECT_LT(bytes_read_by_this_thread() - before, large.frame_bytes());  // markers, not frames
    const std::optional<Picture> last = source->next();
    ASSERT_TRUE(last);
    EXPECT_EQ(bytes_of(*last), frame_bytes(large, 5));
    EXPECT_FALSE(source->next());
}

TEST(ParallelReadAhead, EveryFrameComesFromTheAllocator) {
    const std::string path = medium_y4m("parallel_allocator", 30);
    std::mutex mutex;  // guards what the allocator records, for the test's own sake
    std::set<const std::byte*> handed_out;
    std::vector<FrameBuffer> kept;  // so that no address is handed out twice
    auto source = read_ahead(open_y4m(path), 4, 4);
    source->set_allocator([&](std::size_t bytes) {
        EXPECT_EQ(bytes, medium.frame_bytes());
        FrameBuffer buffer(new std::byte[bytes]);
        std::lock_guard lock(mutex);
        handed_out.insert(buffer.get());
        kept.push_back(buffer);
        return buffer;
    });
    int frames = 0;
    while (const std::optional<Picture> picture = source->next()) {
        std::lock_guard lock(mutex);
        EXPECT_TRUE(handed_out.count(picture->data())) << "frame " << frames;
        ++frames;
    }
    EXPECT_EQ(frames, 30);
}

TEST(ParallelReadAhead, SeveralThreadsRead) {
    const std::string path = medium_y4m("parallel_threads", 20);
    std::mutex mutex;
    std::set<std::thread::id> readers;
    auto source = read_ahead(open_y4m(path), 4, 4);
    source->set_allocator([&](std::size_t bytes) {
        // Slow enough that the other readers are scheduled however loaded the machine is.
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        std::lock_guard lock(mutex);
        readers.insert(std::this_thread::get_id());
        return FrameBuffer(new std::byte[bytes]);
    });
    while (source->next()) {}
    EXPECT_GT(readers.size(), 1u);
    EXPECT_FALSE(readers.count(std::this_thread::get_id()));
}

// A session's allocator need not be thread-safe.
TEST(ParallelReadAhead, TheAllocatorIsNeverCalledFromTwoThreadsAtOnce) {
    const std::string path = medium_y4m("parallel_allocator_serial", 40);
    std::atomic<bool> busy = false;
    std::atomic<int> overlaps = 0;
    auto source = read_ahead(open_y4m(path), 8, 8);
    source->set_allocator([&](std::size_t bytes) {
        if (busy.exchange(true)) ++overlaps;
        std::this_thread::sleep_for(std::chrono::microseconds(200));  // widens any overlap
        busy = false;
        return FrameBuffer(new std::byte[bytes]);
    });
    int frames = 0;
    while (source->next()) ++frames;
    EXPECT_EQ(frames, 40);
    EXPECT_EQ(overlaps, 0);
}

TEST(ParallelReadAhead, HoldsNoMoreThanDepthFramesBesidesTheConsumers) {
    const std::string path = medium_y4m("parallel_memory", 60);
    constexpr std::size_t depth = 3;
    std::atomic<int> alive = 0;
    std::atomic<int> most_alive = 0;
    auto source = read_ahead(open_y4m(path), depth, 8);
    source->set_allocator([&](std::size_t bytes) {
        const int now = ++alive;
        int most = most_alive;
        while (now > most && !most_alive.compare_exchange_weak(most, now)) {}
        return FrameBuffer(new std::byte[bytes], [&alive](std::byte* data) {
            --alive;
            delete[] data;
        });
    });
    while (source->next()) {  // each frame is dropped before the next is asked for
    }
    EXPECT_LE(most_alive, int(depth) + 1);  // the ring's frames and the one just taken
}

TEST(ParallelReadAhead, AnAllocatorThatFailsIsReportedWithTheFirstFrame) {
    const std::string path = medium_y4m("parallel_no_memory", 5);
    auto source = read_ahead(open_y4m(path), 4, 4);
    source->set_allocator([](std::size_t) -> FrameBuffer { throw std::bad_alloc(); });
    EXPECT_EQ(error_of([&] { source->next(); }), "'" + path + "': frame 0: cannot allocate " +
                                                     std::to_string(medium.frame_bytes()) +
                                                     " bytes");
}

TEST(ParallelReadAhead, DestructionNeverHangs) {
    const std::string path = medium_y4m("parallel_destruction", 200);
    read_ahead(open_y4m(path), 4, 4).reset();  // before the readers start
    for (int round = 0; round < 20; ++round) {
        auto source = read_ahead(open_y4m(path), 2, 8);
        EXPECT_TRUE(source->next());
        source.reset();  // readers may be reading, waiting for room or gone: this returns
    }
    // Readers blocked on a full ring: the consumer holds frame 0, frames 1 and 2 fill the depth.
    std::atomic<int> allocated = 0;
    auto source = read_ahead(open_y4m(path), 2, 4);
    source->set_allocator([&](std::size_t bytes) {
        ++allocated;
        return FrameBuffer(new std::byte[bytes]);
    });
    EXPECT_TRUE(source->next());
    ASSERT_TRUE(eventually([&] { return allocated >= 3; }));
    source.reset();
}

TEST(ParallelReadAhead, PipesAreReadInSequence) {
    const fs::path dir = test::scratch_dir("parallel_pipe");
    const fs::path fifo = dir / "in.y4m";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // Less than a pipe holds, so that the writer never waits for the reader.
    const std::string bytes = y4m_file("YUV4MPEG2 W64 H36 F1:1", medium, 15) + "FRAME\nxx";
    const Reading expected = read_all(*open_y4m(write_file(dir / "copy.y4m", bytes).string()));
    std::jthread writer([&] { std::ofstream(fifo, std::ios::binary) << bytes; });
    auto source = read_ahead(open_y4m(fifo.string()), 4, 4);
    Reading reading = read_all(*source);
    // The same error, named after the other file.
    reading.error.replace(reading.error.find(fifo.string()), fifo.string().size(),
                          (dir / "copy.y4m").string());
    EXPECT_EQ(reading, expected);
}

// A file of less than 1 MiB is read faster than a reading thread starts; a pipe's size is unknown.
TEST(ParallelReadAhead, OnlyFilesOfAMebibyteOrMoreAreWorthReadingAhead) {
    const fs::path dir = test::scratch_dir("parallel_worth");
    const VideoFormat format{64, 64, 8, ChromaFormat::yuv420};  // 6144 bytes a frame
    const std::size_t frames_in_a_mebibyte = (std::size_t(1) << 20) / format.frame_bytes();
    const fs::path small =
        write_file(dir / "small.yuv", std::string(2 * format.frame_bytes(), 'x'));
    const fs::path large = write_file(
        dir / "large.yuv", std::string((frames_in_a_mebibyte + 1) * format.frame_bytes(), 'x'));
    EXPECT_FALSE(worth_reading_ahead(*open_yuv(small.string(), format)));
    EXPECT_TRUE(worth_reading_ahead(*open_yuv(large.string(), format)));
    const fs::path fifo = dir / "in.y4m";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::jthread writer([&] {
        std::ofstream(fifo, std::ios::binary) << y4m_file("YUV4MPEG2 W64 H64 F1:1", format, 1);
    });
    EXPECT_TRUE(worth_reading_ahead(*open_y4m(fifo.string())));
}

TEST(ParallelReadAhead, DefaultThreadsAreOneToFour) {
    EXPECT_GE(default_read_threads(), 1u);
    EXPECT_LE(default_read_threads(), 4u);
}

}  // namespace
}  // namespace vq
