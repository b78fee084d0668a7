// One-line usage errors for model files and model strings: "model 'SOURCE': FIELD: WHAT".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace vq::model::detail {

// Text from a hostile file made safe for a one-line message: at most `limit` bytes, and anything
// but printable ASCII as \xNN.
std::string printable(std::string_view text, std::size_t limit = 40);

// Where in which file a parser is; `prefix` locates a collection member (`["3"].`).
struct Where {
    std::string_view source;
    std::string prefix;

    [[noreturn]] void fail(std::string_view field, std::string_view what) const;
};

}  // namespace vq::model::detail
