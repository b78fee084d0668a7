// `vq --report`: the hull, the thumbnails and the page, and the page in headless Chromium (skipped
// with a message where Debian's chromium is not installed).
#include <png.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/score_table_filler.hpp"
#include "core/synthetic.hpp"
#include "ffmpeg_test_support.hpp"
#include "io_test_support.hpp"
#include "report/banding_map.hpp"
#include "report/html_report.hpp"
#include "report/thumbnails.hpp"
#include "test_support.hpp"
#include "vq/html_report.hpp"
#include "vq/run.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;
using report::ReportInput;

TEST(HtmlReport, UpperConvexHullKeepsTheEncodesNoMixBeats) {
    // (kbps, quality): (3000, 80) lies below the line from (2000, 78) to (4000, 90); (1000, 60)
    // shares its rate with a better point; (5000, 89) is below (4000, 90).
    const std::vector<std::pair<double, double>> points = {
        {4000, 90}, {1000, 60}, {2000, 78}, {3000, 80}, {500, 40}, {1000, 70}, {5000, 89}};
    EXPECT_EQ(report::upper_convex_hull(points), (std::vector<std::size_t>{4, 5, 2, 0, 6}));
    EXPECT_EQ(report::upper_convex_hull(std::vector<std::pair<double, double>>{{1, 1}}),
              (std::vector<std::size_t>{0}));
    EXPECT_TRUE(report::upper_convex_hull({}).empty());
}

TEST(HtmlReport, Base64MatchesRfc4648) {
    EXPECT_EQ(report::base64(""), "");
    EXPECT_EQ(report::base64("f"), "Zg==");
    EXPECT_EQ(report::base64("fo"), "Zm8=");
    EXPECT_EQ(report::base64("foo"), "Zm9v");
    EXPECT_EQ(report::base64("foobar"), "Zm9vYmFy");
    EXPECT_EQ(report::base64(std::string("\xff\x00\x80", 3)), "/wCA");
}

ScoreTable scores(std::size_t frames, double level, bool with_model) {
    ScoreTable table;
    const std::vector<std::string> features = {
        "integer_adm2",       "integer_motion2",    "integer_vif_scale0",
        "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3",
        "integer_adm_scale0", "integer_adm_scale1", "psnr_y"};
    for (const std::string& name : features) table.add_column(name);
    detail::ScoreTableFiller::receipts(table).push_back({"features", "cpu", features});
    if (with_model) table.add_column("vmaf");
    for (std::size_t f = 0; f < frames; ++f)
        for (std::size_t c = 0; c < table.column_count(); ++c)
            table.set(c, f, level * (1 + 0.1 * std::sin(double(f) / 17.0 + double(c))) / (c + 1));
    table.set_frame_count(frames);
    return table;
}

TEST(HtmlReport, RanksByTheModelScoreElseTheFirstAndLowestFirst) {
    const ScoreTable with_model = scores(50, 80, true);
    EXPECT_EQ(report::ranking_column(with_model), with_model.find("vmaf"));
    const ScoreTable without = scores(50, 80, false);
    EXPECT_EQ(report::ranking_column(without), 0u);
    ScoreTable table;
    table.add_column("vmaf");
    const std::vector<double> values = {50, 20, NAN, 90, 10, 30};
    for (std::size_t f = 0; f < values.size(); ++f) table.set(0, f, values[f]);
    table.set_frame_count(values.size());
    EXPECT_EQ(report::worst_frames(table, 0, 3), (std::vector<std::size_t>{4, 1, 5}));
    table.set_subsample(2);  // frames 0, 2, 4
    EXPECT_EQ(report::worst_frames(table, 0, 9), (std::vector<std::size_t>{4, 0}));
}

TEST(HtmlReport, ThumbnailsAreSmallRgbPngs) {
    const VideoFormat format{1280, 720, 10, ChromaFormat::yuv420};
    const Picture picture = make_synthetic_frame(format, SyntheticScene::mixed, 3, false);
    const report::RgbImage image = report::thumbnail_of(picture, 256);
    EXPECT_EQ(image.width, 256);
    EXPECT_EQ(image.height, 144);
    const std::string png = report::encode_png(image);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    EXPECT_LT(png.size(), 256u * 144 * 3);
    const Picture small =
        make_synthetic_frame({48, 32, 8, ChromaFormat::yuv444}, SyntheticScene::textured, 0, false);
    EXPECT_EQ(report::thumbnail_of(small, 256).width, 48) << "never enlarged";
}

// Names are the user's: they are escaped in the page and cannot end its scripts.
TEST(HtmlReport, NamesAreEscaped) {
    const ScoreTable table = scores(5, 80, true);
    const ReportInput input{"</script><b>x&y", &table, {}, std::nullopt, {}, "none"};
    std::ostringstream page;
    report::write_html_page(page, "ref<1>", std::span(&input, 1));
    const std::string text = page.str();
    EXPECT_EQ(text.find("</script><b>"), std::string::npos);
    EXPECT_NE(text.find("&lt;/script&gt;&lt;b&gt;x&amp;y"), std::string::npos);
    EXPECT_NE(text.find("<\\/script><b>x&y"), std::string::npos);  // in the chart data
    EXPECT_NE(text.find("ref&lt;1&gt;"), std::string::npos);
    for (const char* fetch : {"src=\"http", "href=\"http", "url(http", "@import", "fetch("})
        EXPECT_EQ(text.find(fetch), std::string::npos) << "the page must fetch nothing";
}

// The page of a 6-input, 1000-frame run, with four worst frames of each input.
fs::path six_input_report(const fs::path& dir) {
    static std::vector<ScoreTable> tables;
    tables.clear();
    for (int i = 0; i < 6; ++i) tables.push_back(scores(1000, 60 + 6 * i, true));
    const VideoFormat format{1920, 1080, 8, ChromaFormat::yuv420};
    std::vector<ReportInput> inputs;
    const double kbps[] = {800, 1500, 2500, 7000, 6000, 9000};  // encode 3 is off the hull
    for (int i = 0; i < 6; ++i) {
        ReportInput input{fmt::format("encode_{}.mp4", i),
                          &tables[std::size_t(i)],
                          {},
                          report::Bitrate{kbps[i] * 1000, "container: video stream"},
                          {},
                          {}};
        for (const std::size_t frame :
             report::worst_frames(tables[std::size_t(i)], *tables[std::size_t(i)].find("vmaf"), 4))
            input.worst.push_back(
                {frame,
                 report::encode_png(report::thumbnail_of(
                     make_synthetic_frame(format, SyntheticScene::mixed, int(frame), false), 256)),
                 report::encode_png(report::thumbnail_of(
                     make_synthetic_frame(format, SyntheticScene::mixed, int(frame), true), 256)),
                 {}});
        inputs.push_back(std::move(input));
    }
    const fs::path path = dir / "report.html";
    std::ofstream out(path);
    report::write_html_page(out, "source.y4m", inputs);
    return path;
}

TEST(HtmlReport, SixInputsOfAThousandFramesWeighUnderTenMegabytes) {
    const fs::path page = six_input_report(test::scratch_dir("html_report_size"));
    const auto bytes = fs::file_size(page);
    std::cout << "6 inputs x 1000 frames: " << bytes << " bytes\n";
    EXPECT_LT(bytes, 10u << 20);
    const std::string text = test::read_file(page);
    EXPECT_NE(text.find("id=\"rate\""), std::string::npos) << "several inputs: the rate chart";
}

std::optional<std::string> chromium() {
    for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
        if (fs::exists(path)) return path;
    return std::nullopt;
}

struct Command {
    int status = -1;
    std::string output;
    double seconds = 0;
};

Command run(const std::string& command) {
    Command result;
    const auto start = std::chrono::steady_clock::now();
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    std::size_t got;
    while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, got);
    result.status = pclose(pipe);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

// Chromium as a test may run it: headless, no GPU, no sandbox (tests may run as root), its
// profile in the test's folder, nothing fetched.
std::string headless(const std::string& browser, const fs::path& dir) {
    return fmt::format(
        "timeout 120 {} --headless --disable-gpu --no-sandbox --no-first-run "
        "--user-data-dir=\"{}\" --enable-logging=stderr --v=0 --window-size=1280,2400 ",
        browser, (dir / "profile").string());
}

// The pixels of a PNG screenshot that are not the page's white, and those of a series colour.
constexpr std::array<std::array<int, 3>, 6> series_colours = {
    {{0x1f, 0x77, 0xb4},
     {0xd6, 0x27, 0x28},
     {0x2c, 0xa0, 0x2c},
     {0xff, 0x7f, 0x0e},
     {0x94, 0x67, 0xbd},
     {0x8c, 0x56, 0x4b}}};  // the page's palette, one per input

struct Painted {
    std::size_t non_white = 0;
    std::array<std::size_t, 6> series{};  // pixels of each input's colour
};

Painted painted_pixels(const fs::path& png) {
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    Painted painted;
    if (!png_image_begin_read_from_file(&image, png.c_str())) return painted;
    image.format = PNG_FORMAT_RGB;
    std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) return painted;
    for (std::size_t i = 0; i + 2 < pixels.size(); i += 3) {
        const png_byte* p = &pixels[i];
        if (p[0] < 250 || p[1] < 250 || p[2] < 250) ++painted.non_white;
        for (std::size_t s = 0; s < series_colours.size(); ++s) {
            const auto& c = series_colours[s];
            if (std::abs(p[0] - c[0]) < 30 && std::abs(p[1] - c[1]) < 30 &&
                std::abs(p[2] - c[2]) < 30)
                ++painted.series[s];
        }
    }
    return painted;
}

TEST(HtmlReportBrowser, SixInputPageLoadsAndPaintsInChromium) {
    const auto browser = chromium();
    if (!browser) GTEST_SKIP() << "chromium not installed (apt-get install chromium): skipped";
    const fs::path dir = test::scratch_dir("html_report_browser");
    const fs::path page = six_input_report(dir);
    const std::string url = "file://" + page.string();

    const Command dom = run(headless(*browser, dir) + "--dump-dom \"" + url + "\"");
    ASSERT_EQ(dom.status, 0) << dom.output;
    EXPECT_EQ(dom.output.find(":CONSOLE"), std::string::npos) << "console messages:\n"
                                                              << dom.output;
    EXPECT_NE(dom.output.find("data-status=\"ok\""), std::string::npos)
        << dom.output.substr(0, 2000);
    std::smatch loaded;
    ASSERT_TRUE(std::regex_search(dom.output, loaded, std::regex("data-loaded-ms=\"([0-9]+)\"")));
    const int loaded_ms = std::stoi(loaded[1]);
    std::cout << "6 inputs x 1000 frames: page ready " << loaded_ms << " ms after navigation; "
              << "chromium start to DOM dump " << dom.seconds << " s\n";
    EXPECT_LT(loaded_ms, 2000);

    // The frame chart's legend: the x series then one entry per input; the rate chart's: x,
    // encodes, hull.
    const std::size_t rate = dom.output.find("id=\"rate\"");
    ASSERT_NE(rate, std::string::npos);
    const auto count = [](const std::string& text) {
        std::size_t n = 0;
        for (std::size_t at = text.find("<tr class=\"u-series"); at != std::string::npos;
             at = text.find("<tr class=\"u-series", at + 1))
            ++n;
        return n;
    };
    const std::string frames_part = dom.output.substr(0, rate);
    EXPECT_EQ(count(frames_part), 1u + 6u);
    for (int i = 0; i < 6; ++i)
        EXPECT_NE(frames_part.find(fmt::format("encode_{}.mp4", i)), std::string::npos);
    EXPECT_EQ(count(dom.output.substr(rate)), 3u);
    EXPECT_NE(frames_part.find("<canvas"), std::string::npos);

    const fs::path shot = dir / "shot.png";
    const Command screenshot =
        run(headless(*browser, dir) + "--screenshot=\"" + shot.string() + "\" \"" + url + "\"");
    ASSERT_EQ(screenshot.status, 0) << screenshot.output;
    const Painted painted = painted_pixels(shot);
    std::cout << "screenshot: " << painted.non_white << " painted pixels; of each input's colour:";
    for (const std::size_t n : painted.series) std::cout << ' ' << n;
    std::cout << '\n';
    EXPECT_GT(painted.non_white, 100000u) << "a blank page";
    for (std::size_t s = 0; s < painted.series.size(); ++s)
        // A 1-pixel anti-aliased curve across the chart gives ~200 such pixels; the legend's
        // marker alone, ~40.
        EXPECT_GT(painted.series[s], 100u) << "input " << s << "'s curve is not drawn";
}

struct Clip {
    fs::path dir, ref, dist;
};

Clip make_clip(const std::string& name, int frames) {
    constexpr VideoFormat format{64, 48, 8, ChromaFormat::yuv420};
    const std::string header = "YUV4MPEG2 W64 H48 F25:1 Ip C420";
    Clip clip{test::scratch_dir(name), {}, {}};
    clip.ref = test::write_file(clip.dir / "ref.y4m", test::y4m_file(header, format, frames));
    clip.dist = test::write_file(clip.dir / "dist.y4m", test::y4m_file(header, format, frames));
    return clip;
}

std::string q(const fs::path& path) { return "\"" + path.string() + "\""; }

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(HtmlReportCli, FilesGetTheirWorstFramesAsThumbnails) {
    const Clip clip = make_clip("html_report_cli_files", 6);
    const fs::path page = clip.dir / "report.html";
    const auto result = test::run_vq("-r " + q(clip.ref) + " -d " + q(clip.dist) +
                                     " --feature psnr --pool p5 -q -o " + q(clip.dir / "out.xml") +
                                     " --report " + q(page));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string text = test::read_file(page);
    EXPECT_EQ(occurrences(text, "data:image/png;base64,"), 8u)
        << "4 frames x (reference, distorted)";
    EXPECT_NE(text.find("<th>p5</th>"), std::string::npos);
    EXPECT_NE(text.find("(ranked by psnr_y)"), std::string::npos);
    EXPECT_EQ(text.find("id=\"rate\""), std::string::npos) << "one input: no rate chart";
}

// The library's entry point (vq/html_report.hpp), as a program that calls vq::run uses it: the
// job's inputs read again for the thumbnails, its skips honoured; no job, no thumbnails.
TEST(HtmlReportApi, ThumbnailsComeFromTheJobsInputs) {
    const Clip clip = make_clip("html_report_api", 6);
    Job job;
    job.reference.path = clip.ref.string();
    job.distorted.path = clip.dist.string();
    job.frames.skip_reference = 1;
    job.frames.skip_distorted = 1;
    job.features = {{"psnr"}};
    RunObserver quiet;
    const ScoreTable table = vq::run(job, quiet);
    ASSERT_EQ(table.frame_count(), 5u);

    const HtmlReportInput with_job{"dist", &table, {}, &job, {}};
    std::ostringstream page;
    write_html_report(page, "ref", std::span(&with_job, 1));
    EXPECT_EQ(occurrences(page.str(), "data:image/png;base64,"), 8u);

    const HtmlReportInput without{"dist", &table, {}, nullptr, "no thumbnails: made in memory"};
    std::ostringstream bare;
    write_html_report(bare, "ref", std::span(&without, 1));
    EXPECT_EQ(bare.str().find("data:image/png"), std::string::npos);
    EXPECT_NE(bare.str().find("no thumbnails: made in memory"), std::string::npos);
}

TEST(HtmlReportCli, StandardInputGetsNoThumbnailsAndSaysWhy) {
    const Clip clip = make_clip("html_report_cli_stdin", 3);
    const fs::path page = clip.dir / "report.html";
    const auto result =
        test::run_vq("-r " + q(clip.ref) + " -d - --feature psnr -q -o " + q(clip.dir / "out.xml") +
                     " --report " + q(page) + " < " + q(clip.dist));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string text = test::read_file(page);
    EXPECT_EQ(text.find("data:image/png"), std::string::npos);
    EXPECT_NE(text.find("cannot be read a second time"), std::string::npos);
}

TEST(HtmlReportCli, BadPathFailsBeforeTheRun) {
    const Clip clip = make_clip("html_report_cli_bad", 3);
    const std::string run = "-r " + q(clip.ref) + " -d " + q(clip.dist) + " --feature psnr -q ";
    test::expect_one_line_error(test::run_vq(run + "--report " + q(clip.dir / "no" / "r.html")), 2,
                                {"No such file or directory"});
    test::expect_one_line_error(test::run_vq(run + "--report \"\""), 2,
                                {"--report: empty file name"});
    EXPECT_EQ(test::file_names_in(clip.dir), (std::set<std::string>{"ref.y4m", "dist.y4m"}));
}

// The page's chart data (the JSON document its scripts read).
nlohmann::json page_data(const std::string& page) {
    const std::string start = "<script type=\"application/json\" id=\"vq-data\">";
    const std::size_t from = page.find(start) + start.size();
    std::string json = page.substr(from, page.find("</script>", from) - from);
    for (std::size_t at = json.find("<\\/"); at != std::string::npos; at = json.find("<\\/", at))
        json.replace(at, 3, "</");
    return nlohmann::json::parse(json);
}

// The PNG images of the page whose alt text is `alt`, decoded to RGB.
std::vector<report::RgbImage> page_images(const std::string& page, const std::string& alt) {
    std::vector<report::RgbImage> images;
    const std::string start = "alt=\"" + alt + "\"";
    for (std::size_t at = page.find(start); at != std::string::npos;
         at = page.find(start, at + 1)) {
        const std::string marker = "base64,";
        const std::size_t from = page.find(marker, at) + marker.size();
        const std::string text = page.substr(from, page.find('"', from) - from);
        std::string bytes;  // base64 decoded
        std::uint32_t group = 0;
        int bits = 0;
        for (const char c : text) {
            const char* alphabet =
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            const char* found = std::strchr(alphabet, c);
            if (c == '=' || !found) break;
            group = group << 6 | std::uint32_t(found - alphabet);
            if ((bits += 6) >= 8) bytes += char((group >> (bits -= 8)) & 0xFF);
        }
        png_image png{};
        png.version = PNG_IMAGE_VERSION;
        report::RgbImage image;
        if (png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
            png.format = PNG_FORMAT_RGB;
            image.width = int(png.width);
            image.height = int(png.height);
            image.pixels.resize(PNG_IMAGE_SIZE(png));
            if (!png_image_finish_read(&png, nullptr, image.pixels.data(), 0, nullptr)) image = {};
        }
        images.push_back(std::move(image));
    }
    return images;
}

// Where CAMBI ran, each worst frame gets its banding map beside its thumbnails, the size of the
// distorted one; a banded gradient lights it up. Where it did not, there is none.
TEST(HtmlReportCli, CambiRunsGetABandingMapPerWorstFrame) {
    const fs::path dir = test::scratch_dir("html_report_banding");
    constexpr VideoFormat format{320, 180, 8, ChromaFormat::yuv420};  // CAMBI needs a side >= 216
    const fs::path ref = test::write_synthetic_y4m(dir / "ref.y4m", format,
                                                   SyntheticScene::banded_gradient, false, 5);
    const fs::path dist = test::write_synthetic_y4m(dir / "dist.y4m", format,
                                                    SyntheticScene::banded_gradient, true, 5);
    const fs::path heatmaps = dir / "heatmaps";
    const std::string run = "-r " + q(ref) + " -d " + q(dist) + " -q --feature psnr ";
    const fs::path with = dir / "with.html", without = dir / "without.html";
    ASSERT_EQ(test::run_vq(run + "--feature cambi=window_size=33 --report " + q(with)).exit_code,
              0);
    ASSERT_EQ(test::run_vq(run + "--report " + q(without)).exit_code, 0);

    const std::string page = test::read_file(with);
    const std::vector<report::RgbImage> maps = page_images(page, "CAMBI banding");
    const std::vector<report::RgbImage> distorted = page_images(page, "distorted");
    ASSERT_EQ(maps.size(), 4u) << "one per worst frame";
    ASSERT_EQ(distorted.size(), 4u);
    for (std::size_t i = 0; i < maps.size(); ++i) {
        EXPECT_EQ(maps[i].width, distorted[i].width);
        EXPECT_EQ(maps[i].height, distorted[i].height);
        std::size_t lit = 0;  // pixels above the colour scale's black
        for (std::size_t p = 0; p + 2 < maps[i].pixels.size(); p += 3)
            lit += maps[i].pixels[p] + maps[i].pixels[p + 1] > 40;
        // Bands are lines (a few hundred pixels at most); where there is none the map is black.
        EXPECT_GT(lit, 20u) << "a banded gradient shows no banding";
    }
    EXPECT_NE(page.find("| CAMBI banding"), std::string::npos);

    const std::string plain = test::read_file(without);
    EXPECT_EQ(page_images(plain, "distorted").size(), 4u);
    EXPECT_TRUE(page_images(plain, "CAMBI banding").empty());
    EXPECT_EQ(plain.find("CAMBI"), std::string::npos);
}

// The map is CAMBI run again with the run's own options, writing nothing: a heatmaps_path the
// run was given is not written a second time.
TEST(HtmlReport, BandingMapTakesTheJobsFirstCambiRequest) {
    Job job;
    job.features = {{"psnr"}};
    EXPECT_FALSE(report::BandingMap::of(job));
    const fs::path dir = test::scratch_dir("html_report_banding_map");
    job.features.push_back({"cambi=window_size=33:heatmaps_path=" + (dir / "maps").string()});
    const auto map = report::BandingMap::of(job);
    ASSERT_TRUE(map);
    const Picture picture = make_synthetic_frame({640, 360, 10, ChromaFormat::yuv420},
                                                 SyntheticScene::banded_gradient, 0, true);
    const report::RgbImage image = map->image(picture, 256);
    EXPECT_EQ(image.width, 256);
    EXPECT_EQ(image.height, 144);
    EXPECT_FALSE(fs::exists(dir / "maps"));

    // A flat picture has no banding: the map is the colour scale's black throughout.
    Picture flat = Picture::allocate({320, 240, 8, ChromaFormat::yuv420});
    std::fill(flat.data(), flat.data() + flat.size_bytes(), std::byte{100});
    const report::RgbImage none = map->image(flat, 256);
    ASSERT_FALSE(none.pixels.empty());
    for (std::size_t p = 0; p < none.pixels.size(); p += 3)
        ASSERT_EQ(none.pixels[p] + none.pixels[p + 1], 0) << "pixel " << p / 3;
}

// The rate-quality chart's bitrate: the container's figure for the video stream where it has
// one (an MP4's), else for the whole file (a Matroska file ffmpeg wrote), else the file size over
// the duration (Y4M); the page says which, point by point.
TEST(HtmlReportCli, BitrateComesFromTheContainerAndThePageSaysSo) {
    VQ_REQUIRE_FFMPEG();
    if (!test::have_encoder("libx264")) GTEST_SKIP() << "ffmpeg lacks libx264";
    const fs::path dir = test::scratch_dir("html_report_bitrate");
    constexpr VideoFormat format{96, 64, 8, ChromaFormat::yuv420};
    constexpr int frames = 10;  // at 25 frames/s: 0.4 s
    const fs::path ref =
        test::write_synthetic_y4m(dir / "ref.y4m", format, SyntheticScene::mixed, false, frames);
    const fs::path y4m =
        test::write_synthetic_y4m(dir / "dist.y4m", format, SyntheticScene::mixed, true, frames);
    const fs::path mp4 = dir / "x264.mp4", mkv = dir / "x264.mkv";
    for (const fs::path& encode : {mp4, mkv})
        ASSERT_TRUE(test::ffmpeg("-i " + test::quoted(ref) +
                                 " -c:v libx264 -crf 35 -preset "
                                 "veryfast -an " +
                                 test::quoted(encode)));
    const fs::path page = dir / "report.html";
    const auto result = test::run_vq("-r " + q(ref) + " -d " + q(mp4) + " -d " + q(mkv) + " -d " +
                                     q(y4m) + " --feature psnr -q --report " + q(page));
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const nlohmann::json rate = page_data(test::read_file(page))["rate"];
    ASSERT_EQ(rate["names"].size(), 3u) << rate.dump();
    const auto kbps_of_size = [&](const fs::path& file) {
        return double(fs::file_size(file)) * 8 / (frames / 25.0) / 1000;
    };
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string name = rate["names"][i], source = rate["sources"][i];
        const double kbps = rate["kbps"][i];
        SCOPED_TRACE(name + ": " + source);
        if (name == mp4.string()) {
            EXPECT_EQ(source, "container: video stream");
            EXPECT_LT(kbps, kbps_of_size(mp4)) << "the video alone, without the container's bytes";
            EXPECT_GT(kbps, kbps_of_size(mp4) / 4);
        } else if (name == mkv.string()) {
            EXPECT_EQ(source, "container: whole file");
            EXPECT_NEAR(kbps, kbps_of_size(mkv), kbps_of_size(mkv) * 0.05);
        } else {
            EXPECT_EQ(name, y4m.string());
            EXPECT_EQ(source, "file size / duration");
            EXPECT_NEAR(kbps, kbps_of_size(y4m), 1e-3 * kbps_of_size(y4m));
        }
    }
    EXPECT_NE(test::read_file(page).find("<td>container: video stream</td>"), std::string::npos);
}

// Ctrl-C while the run waits for its input (a FIFO fed one frame) leaves no report behind.
TEST(HtmlReportCli, InterruptLeavesNoPartialReport) {
    const Clip clip = make_clip("html_report_cli_interrupt", 3);
    const fs::path one = test::write_file(
        clip.dir / "one.y4m",
        test::y4m_file("YUV4MPEG2 W64 H48 F25:1 Ip C420", {64, 48, 8, ChromaFormat::yuv420}, 1));
    const fs::path fifo = clip.dir / "dist.fifo";
    const std::string script = fmt::format(
        "mkfifo {fifo}; {vq} -r {ref} -d {fifo} --feature psnr -q -o {out} --report {page} "
        "2> {log} & pid=$!; exec 3> {fifo}; cat {one} >&3; sleep 0.5; kill -INT $pid; "
        "wait $pid; echo status=$?; exec 3>&-; rm {fifo} {one}",
        fmt::arg("fifo", q(fifo)), fmt::arg("vq", q(test::vq_binary())),
        fmt::arg("ref", q(clip.ref)), fmt::arg("out", q(clip.dir / "out.json")),
        fmt::arg("page", q(clip.dir / "report.html")), fmt::arg("log", q(clip.dir / "log")),
        fmt::arg("one", q(one)));
    const Command result = run("bash -c '" + script + "'");
    EXPECT_NE(result.output.find("status=130"), std::string::npos) << result.output;
    EXPECT_EQ(test::file_names_in(clip.dir), (std::set<std::string>{"ref.y4m", "dist.y4m", "log"}))
        << "a partial report or output was left behind";
}

}  // namespace
}  // namespace vq
