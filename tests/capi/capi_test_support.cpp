#include "capi_test_support.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace vq::test {
namespace {

struct PlaneSize {
    std::size_t row_bytes;
    int rows;
};

std::vector<PlaneSize> plane_sizes(const vq_format& format) {
    const std::size_t sample = format.bit_depth > 8 ? 2 : 1;
    const int chroma_width = format.chroma == VQ_CHROMA_444 ? format.width : (format.width + 1) / 2;
    const int chroma_height =
        format.chroma == VQ_CHROMA_420 ? (format.height + 1) / 2 : format.height;
    std::vector<PlaneSize> sizes{{format.width * sample, format.height}};
    if (format.chroma != VQ_CHROMA_400)
        sizes.insert(sizes.end(), 2, {chroma_width * sample, chroma_height});
    return sizes;
}

}  // namespace

CallerPicture Clip::picture(std::size_t frame, std::size_t padding) const {
    const auto sizes = plane_sizes(format);
    CallerPicture out;
    std::size_t total = 0;
    for (const PlaneSize& size : sizes) total += (size.row_bytes + padding) * size.rows;
    out.bytes.assign(total, 0xee);
    const unsigned char* source = frames.at(frame).data();
    std::size_t offset = 0;
    for (std::size_t p = 0; p < sizes.size(); ++p) {
        const std::size_t stride = sizes[p].row_bytes + padding;
        for (int y = 0; y < sizes[p].rows; ++y) {
            std::memcpy(out.bytes.data() + offset + y * stride, source, sizes[p].row_bytes);
            source += sizes[p].row_bytes;
        }
        out.picture.data[p] = out.bytes.data() + offset;
        out.picture.stride[p] = static_cast<std::ptrdiff_t>(stride);
        offset += stride * sizes[p].rows;
    }
    return out;
}

Clip read_y4m(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::string header;
    std::getline(file, header);
    if (!header.starts_with("YUV4MPEG2")) throw std::runtime_error(path.string() + ": not Y4M");
    Clip clip;
    clip.format = {0, 0, 8, VQ_CHROMA_420};
    std::istringstream tags(header);
    std::string tag;
    while (tags >> tag) {
        if (tag[0] == 'W') clip.format.width = std::stoi(tag.substr(1));
        if (tag[0] == 'H') clip.format.height = std::stoi(tag.substr(1));
        if (tag[0] == 'C') {
            if (tag.starts_with("C422")) clip.format.chroma = VQ_CHROMA_422;
            if (tag.starts_with("C444")) clip.format.chroma = VQ_CHROMA_444;
            // C420p10: the bit depth after the chroma; C420jpeg and the like are 8-bit.
            const std::string depth = tag.substr(std::min<std::size_t>(tag.size(), 4));
            if (depth.size() > 1 && depth[0] == 'p' && std::isdigit(static_cast<unsigned char>(depth[1])))
                clip.format.bit_depth = std::stoi(depth.substr(1));
        }
    }
    std::size_t frame_bytes = 0;
    for (const auto& size : plane_sizes(clip.format)) frame_bytes += size.row_bytes * size.rows;
    std::string frame_header;
    while (std::getline(file, frame_header)) {
        std::vector<unsigned char> frame(frame_bytes);
        file.read(reinterpret_cast<char*>(frame.data()), static_cast<std::streamsize>(frame_bytes));
        if (!file) throw std::runtime_error(path.string() + ": a frame is cut short");
        clip.frames.push_back(std::move(frame));
    }
    return clip;
}

long find_score(const vq_result* result, const std::string& name) {
    std::size_t count = 0;
    EXPECT_EQ(vq_result_score_count(result, &count), VQ_OK);
    for (std::size_t i = 0; i < count; ++i) {
        const char* score = nullptr;
        EXPECT_EQ(vq_result_score_name(result, i, &score), VQ_OK);
        if (score == name) return static_cast<long>(i);
    }
    return -1;
}

void expect_matches_golden(const vq_result* result, const nlohmann::json& golden,
                           const std::vector<std::string>& keys, const std::string& what) {
    std::vector<std::string> names = keys;
    if (names.empty()) {
        for (const auto& [key, value] : golden["frames"][0]["metrics"].items())
            names.push_back(key);
        std::size_t count = 0;
        ASSERT_EQ(vq_result_score_count(result, &count), VQ_OK);
        EXPECT_EQ(count, names.size()) << what;
    }
    std::size_t frames = 0;
    ASSERT_EQ(vq_result_frame_count(result, &frames), VQ_OK);
    ASSERT_EQ(frames, golden["frames"].size()) << what;
    const std::pair<vq_pooling, const char*> methods[] = {{VQ_POOL_MIN, "min"},
                                                          {VQ_POOL_MAX, "max"},
                                                          {VQ_POOL_MEAN, "mean"},
                                                          {VQ_POOL_HARMONIC_MEAN, "harmonic_mean"}};
    for (const std::string& name : names) {
        const long score = find_score(result, name);
        ASSERT_GE(score, 0) << what << ": no score " << name;
        for (std::size_t f = 0; f < frames; ++f) {
            double value = 0;
            int present = 0;
            ASSERT_EQ(vq_result_frame_value(result, score, f, &value, &present), VQ_OK);
            EXPECT_TRUE(present) << what << " " << name << " frame " << f;
            EXPECT_EQ(value, golden["frames"][f]["metrics"][name].get<double>())
                << what << " " << name << " frame " << f;
        }
        for (const auto& [method, label] : methods) {
            double value = 0;
            int present = 0;
            ASSERT_EQ(vq_result_pooled(result, score, method, &value, &present), VQ_OK);
            EXPECT_TRUE(present) << what << " " << name << " " << label;
            EXPECT_EQ(value, golden["pooled_metrics"][name][label].get<double>())
                << what << " " << name << " pooled " << label;
        }
    }
    std::size_t aggregates = 0;
    ASSERT_EQ(vq_result_aggregate_count(result, &aggregates), VQ_OK);
    EXPECT_EQ(aggregates, golden["aggregate_metrics"].size()) << what;
    for (std::size_t i = 0; i < aggregates; ++i) {
        const char* name = nullptr;
        double value = 0;
        ASSERT_EQ(vq_result_aggregate(result, i, &name, &value), VQ_OK);
        EXPECT_EQ(value, golden["aggregate_metrics"][name].get<double>()) << what << " " << name;
    }
}

}  // namespace vq::test
