// What the C interface's tests share: a Y4M clip read into memory, pictures handed to vq.h from
// padded rows, and a result's scores compared with a reference golden.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "vq/vq.h"

namespace vq::test {

// A frame in the caller's memory: each plane's rows `padding` bytes apart beyond their width, so
// that the copy into the session's packed layout is exercised.
struct CallerPicture {
    std::vector<unsigned char> bytes;
    vq_picture picture{};
};

struct Clip {
    vq_format format{};
    std::vector<std::vector<unsigned char>> frames;  // packed, as in the file

    CallerPicture picture(std::size_t frame, std::size_t padding) const;
};

// Reads a Y4M file with 4:2:0, 4:2:2 or 4:4:4 chroma, 8..16 bits.
Clip read_y4m(const std::filesystem::path& path);

// A session's or result's score named `name` (its index), or -1.
long find_score(const vq_result* result, const std::string& name);

// The result holds each of `keys` (or every per-frame key of the golden when `keys` is empty) with
// the golden's values on every frame and its pooled values; and the golden's aggregates.
void expect_matches_golden(const vq_result* result, const nlohmann::json& golden,
                           const std::vector<std::string>& keys, const std::string& what);

}  // namespace vq::test
