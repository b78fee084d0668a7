#include "model/diagnostics.hpp"

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq::model::detail {

std::string printable(std::string_view text, std::size_t limit) {
    std::string out;
    for (const char c : text.substr(0, limit)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f && byte != '\\')
            out += c;
        else
            out += fmt::format("\\x{:02x}", byte);
    }
    if (text.size() > limit) out += "...";
    return out;
}

void Where::fail(std::string_view field, std::string_view what) const {
    throw usage_error(
        fmt::format("model '{}': {}{}: {}", printable(source, 4096), prefix, field, what));
}

}  // namespace vq::model::detail
