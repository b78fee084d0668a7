// Hostile and careless input, as issue 21 tried it: structures nested without bound, names that
// would break an output format, repeated keys, samples above the declared bit depth, containers
// cut short, control characters in file names. Each ends in one line naming what is wrong (exit 1
// or 2), or in output every real parser reads; never a crash, a quiet wrong score or a file that
// does not parse. Every file lives in the test's scratch folder.
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ffmpeg_test_support.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using test::write_file;

constexpr VideoFormat clip_format{64, 48, 8, ChromaFormat::yuv420};
const std::string clip_header = "YUV4MPEG2 W64 H48 F25:1 Ip C420";

struct Clip {
    fs::path dir, ref, dist;
};

Clip make_clip(const std::string& name, int frames = 3) {
    Clip clip{test::scratch_dir(name), {}, {}};
    clip.ref = write_file(clip.dir / "ref.y4m", test::y4m_file(clip_header, clip_format, frames));
    clip.dist = write_file(clip.dir / "dist.y4m", test::y4m_file(clip_header, clip_format, frames));
    return clip;
}

// Single quotes for the shell, which passes every other byte (a '"', a newline) through as it is.
std::string q(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}
std::string q(const char* text) { return q(std::string(text)); }
std::string q(const fs::path& path) { return q(path.string()); }

std::string inputs(const Clip& clip) {
    return fmt::format("-r {} -d {}", q(clip.ref), q(clip.dist));
}

// --- structures ----------------------------------------------------------------------------

TEST(HostileInputs, ModelNestedAHundredThousandDeepIsAUsageError) {
    const fs::path dir = test::scratch_dir("hostile_deep_model");
    const std::size_t depth = 100000;
    write_file(dir / "arrays.json", std::string(depth, '[') + std::string(depth, ']'));
    std::string objects;
    for (std::size_t i = 0; i < depth; ++i) objects += "{\"a\":";
    objects += "1" + std::string(depth, '}');
    write_file(dir / "objects.json", objects);
    write_file(dir / "member.json",
               "{\"model_dict\": " + std::string(depth, '[') + std::string(depth, ']') + "}");
    for (const char* name : {"arrays.json", "objects.json", "member.json"}) {
        SCOPED_TRACE(name);
        const Clip clip = make_clip(std::string("hostile_deep_") + name);
        test::expect_one_line_error(
            test::run_vq(inputs(clip) + " -q -m " + q("path=" + (dir / name).string())), 2,
            {name, "nested more than"});
    }
}

TEST(HostileInputs, RepeatedKeysInAModelStringAreUsageErrors) {
    const Clip clip = make_clip("hostile_repeated_keys");
    for (const std::string model :
         {"version=vmaf_v0.6.1:version=vmaf_v0.6.1", "version=vmaf_v0.6.1:name=a:name=b",
          "version=vmaf_v0.6.1:disable_clip:disable_clip=false",
          "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.1:adm.adm_enhn_gain_limit=1.2"}) {
        SCOPED_TRACE(model);
        test::expect_one_line_error(test::run_vq(inputs(clip) + " -q -m " + q(model)), 2,
                                    {"given twice"});
    }
}

// --- outputs -------------------------------------------------------------------------------

TEST(HostileInputs, NamesNoFormatCanWriteAreUsageErrorsAndWriteNothing) {
    const Clip clip = make_clip("hostile_names");
    const fs::path out = clip.dir / "out";
    const std::vector<std::string> names = {"a\"b",
                                            "a<b>",
                                            "a&b",
                                            "a,b",
                                            "a b",
                                            "a\nb",
                                            "a\\b",
                                            "a'b",
                                            "1vmaf",
                                            "-vmaf",
                                            ".vmaf",
                                            "a\x1b[31mb",
                                            std::string(300, 'n')};
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        for (const char* format : {"--json", "--xml", "--csv", "--sub"}) {
            const auto result =
                test::run_vq(fmt::format("{} -q {} -o {} -m {}", inputs(clip), format, q(out),
                                         q("version=vmaf_v0.6.1:name=" + name)));
            test::expect_one_line_error(result, 2, {"name"});
            EXPECT_FALSE(fs::exists(out));
        }
    }
}

// Every format vq writes, read back by a real parser: nlohmann for JSON here, and Python's json,
// xml.etree and csv modules where /usr/bin/python3 is installed.
TEST(HostileInputs, EveryOutputFormatParsesWithTheOddestNamesAccepted) {
    const Clip clip = make_clip("hostile_parse");
    const std::string models =
        "-m version=vmaf_v0.6.1:name=_Odd.name-2 -m " + q("version=vmaf_b_v0.6.3:name=b.o-o_t");
    const bool python = fs::exists("/usr/bin/python3");
    for (const auto& [flag, reader] : std::vector<std::pair<std::string, std::string>>{
             {"--json",
              "import json,sys; d=json.load(open(sys.argv[1])); "
              "assert '_Odd.name-2' in d['pooled_metrics']"},
             {"--xml",
              "import xml.etree.ElementTree as E,sys; r=E.parse(sys.argv[1]).getroot(); "
              "assert any(m.get('name')=='b.o-o_t' for m in r.iter('metric'))"},
             {"--csv",
              "import csv,sys; rows=list(csv.reader(open(sys.argv[1]))); "
              "assert '_Odd.name-2' in rows[0] and len(rows)==4"}}) {
        SCOPED_TRACE(flag);
        const fs::path out = clip.dir / ("out" + flag.substr(2));
        const auto result =
            test::run_vq(fmt::format("{} -q {} {} -o {}", inputs(clip), models, flag, q(out)));
        ASSERT_EQ(result.exit_code, 0) << result.output;
        if (flag == "--json") {
            EXPECT_TRUE(nlohmann::json::accept(test::read_file(out))) << test::read_file(out);
        }
        if (python) {
            const auto parsed =
                test::run_shell(fmt::format("/usr/bin/python3 -c {} {}", q(reader), q(out)));
            EXPECT_EQ(parsed.exit_code, 0) << parsed.output;
        }
    }
}

TEST(HostileInputs, EmptyOutputNameIsAUsageError) {
    const Clip clip = make_clip("hostile_empty_output");
    test::expect_one_line_error(test::run_vq(inputs(clip) + " -q --feature psnr -o ''"), 2,
                                {"-o/--output", "empty"});
    test::expect_one_line_error(test::run_vq(inputs(clip) + " -q --feature psnr --output="), 2,
                                {"--output"});
}

// The temporary file is named apart from the target, so the longest name the file system takes
// is taken.
TEST(HostileInputs, TheLongestFileNameIsAnOutputName) {
    const Clip clip = make_clip("hostile_long_output");
    const fs::path out = clip.dir / (std::string(250, 'x') + ".json");
    const auto result = test::run_vq(inputs(clip) + " -q --feature psnr --json -o " + q(out));
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_TRUE(nlohmann::json::accept(test::read_file(out)));
    EXPECT_EQ(test::file_names_in(clip.dir).size(), 3u);
}

TEST(HostileInputs, ControlCharactersInFileNamesAreEscapedInMessages) {
    const Clip clip = make_clip("hostile_control_names");
    const std::string name = "no\nsuch\x1b[2Jclip\r.y4m";
    const auto result =
        test::run_vq(fmt::format("-r {} -d {} -q --feature psnr", q(clip.ref), q(name)));
    test::expect_one_line_error(result, 1, {"no\\x0asuch\\x1b[2Jclip\\x0d.y4m"});
}

// --- scores --------------------------------------------------------------------------------

// A 10-bit file holding 16-bit values: frame 1's `plane` (0: Y, 1: U) has one sample of 0xFFFF.
std::string out_of_range_frames(const VideoFormat& format, const std::string& header, int plane) {
    std::string frames;
    for (int f = 0; f < 3; ++f) {
        std::string frame = test::frame_bytes(format, f);
        if (f == 1) {
            const std::size_t at = format.plane_offset(plane) + 2 * 70;
            frame[at] = frame[at + 1] = char(0xFF);
        }
        frames += (header.empty() ? "" : "FRAME\n") + frame;
    }
    return header.empty() ? frames : header + "\n" + frames;
}

// Every plane a run reads is checked. A run whose features all read luma alone (VIF, ADM, motion:
// default VMAF) leaves the chroma planes unread, so a bad chroma sample cannot change its scores:
// it scores that file exactly as the file with the sample in range.
TEST(HostileInputs, SamplesAboveTheBitDepthAreAnErrorInEveryPlaneARunReads) {
    const fs::path dir = test::scratch_dir("hostile_bit_depth");
    // CAMBI wants a side of 216 or more.
    const VideoFormat format{256, 144, 10, ChromaFormat::yuv420};
    const std::string header = "YUV4MPEG2 W256 H144 F25:1 Ip C420p10";
    const std::string raw = " -w 256 -h 144 -p 420 -b 10";
    const fs::path good = write_file(dir / "good.y4m", test::y4m_file(header, format, 3));
    const fs::path good_yuv =
        write_file(dir / "good.yuv", test::frame_bytes(format, 0) + test::frame_bytes(format, 1) +
                                         test::frame_bytes(format, 2));
    for (const int plane : {0, 1}) {
        const std::string name = plane == 0 ? "Y" : "U";
        const fs::path y4m =
            write_file(dir / ("bad_" + name + ".y4m"), out_of_range_frames(format, header, plane));
        const fs::path yuv =
            write_file(dir / ("bad_" + name + ".yuv"), out_of_range_frames(format, "", plane));
        for (const std::string what : {"--feature psnr", "--feature ciede", "--feature cambi",
                                       "--feature motion", "--feature vif", "--feature adm", ""}) {
            SCOPED_TRACE(what + ", plane " + name);
            const bool luma_alone = what.empty() || what.ends_with("motion") ||
                                    what.ends_with("vif") || what.ends_with("adm");
            for (const auto& [bad, reference, options] :
                 {std::tuple{y4m, good, std::string()}, std::tuple{yuv, good_yuv, raw}}) {
                const std::string run =
                    fmt::format("-r {} -q {}{} --csv", q(reference), what, options);
                const test::CommandResult result =
                    test::run_vq(fmt::format("{} -d {} -o {}", run, q(bad), q(dir / "bad.csv")));
                if (plane == 1 && luma_alone) {
                    ASSERT_EQ(result.exit_code, 0) << result.output;
                    ASSERT_EQ(test::run_vq(fmt::format("{} -d {} -o {}", run, q(reference),
                                                       q(dir / "good.csv")))
                                  .exit_code,
                              0);
                    EXPECT_EQ(test::read_file(dir / "bad.csv"), test::read_file(dir / "good.csv"));
                } else {
                    test::expect_one_line_error(
                        result, 1,
                        {bad.filename().string(), "frame 1", "plane " + name, "65535", "10-bit"});
                }
            }
        }
    }
}

// A Matroska file written to a pipe has no duration or index to compare with: cut short, only
// the demuxer's warning says so.
TEST(HostileInputs, ATruncatedContainerIsAnErrorNotAShorterScore) {
    VQ_REQUIRE_FFMPEG();
    const fs::path dir = test::scratch_dir("hostile_truncated");
    struct Kind {
        std::string name, arguments;
        bool piped;  // written to a pipe: no duration, count or index to compare with
    };
    for (const Kind& kind :
         {Kind{"streamed.mkv", "-c:v ffv1 -f matroska", true},
          Kind{"raw.avi", "-c:v rawvideo", false}, Kind{"raw.nut", "-c:v rawvideo -f nut", true},
          Kind{"ffv1.nut", "-c:v ffv1 -f nut", true}}) {
        SCOPED_TRACE(kind.name);
        const fs::path whole = dir / ("whole_" + kind.name), cut = dir / ("cut_" + kind.name);
        const auto made = test::run_shell(
            fmt::format("ffmpeg -hide_banner -nostdin -loglevel error -f lavfi -i "
                        "testsrc=size=64x48:rate=25 -frames:v 20 -pix_fmt yuv420p {} {}{}",
                        kind.arguments, kind.piped ? "pipe:1 > " : "", q(whole)));
        ASSERT_EQ(made.exit_code, 0) << made.output;
        const std::string bytes = test::read_file(whole);
        write_file(cut, bytes.substr(0, bytes.size() * 7 / 10));
        ASSERT_EQ(test::run_vq(fmt::format("-d {} -q --feature psnr -r {}", q(whole), q(whole)))
                      .exit_code,
                  0);
        test::expect_one_line_error(
            test::run_vq(fmt::format("-r {} -d {} -q --feature psnr", q(whole), q(cut))), 1,
            {"cut_" + kind.name});
    }
}

}  // namespace
}  // namespace vq
