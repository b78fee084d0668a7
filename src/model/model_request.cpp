// libvmaf's --model string: items joined by ':', each key=value or a bare flag.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "model/diagnostics.hpp"
#include "model/model.hpp"
#include "vq/error.hpp"
#include "vq/scores.hpp"

namespace vq::model {
namespace {

using detail::printable;

[[noreturn]] void bad(std::string_view text, std::string_view what) {
    throw usage_error(fmt::format("bad --model '{}': {}", printable(text, 4096), what));
}

}  // namespace

ModelRequest parse_model_request(std::string_view text) {
    ModelRequest request;
    std::string_view rest = text;
    std::vector<std::string_view> keys;  // given so far: a key given twice is an error
    while (true) {
        const std::size_t colon = rest.find(':');
        const std::string_view item = rest.substr(0, colon);
        const std::size_t equals = item.find('=');
        const std::string_view key = item.substr(0, equals);
        const bool has_value = equals != std::string_view::npos;
        const std::string_view value = has_value ? item.substr(equals + 1) : std::string_view{};
        const auto need_value = [&] {
            if (value.empty())
                bad(text, fmt::format("'{}' needs a value ({}=...)", printable(item), key));
        };

        if (item.empty()) bad(text, "an empty item (check the ':' separators)");
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
            bad(text, fmt::format("'{}' is given twice", printable(key)));
        keys.push_back(key);

        if (key == "version") {
            need_value();
            request.version = value;
        } else if (key == "path") {
            need_value();
            request.path = value;
        } else if (key == "name") {
            need_value();
            // Outputs are named after the model, in every format as they are.
            if (!is_report_name(value))
                bad(text, fmt::format("name '{}': a name is letters, digits, '_', '.' and '-', "
                                      "starting with a letter or '_'",
                                      printable(value)));
            request.name = value;
        } else if (key == "enable_transform" || key == "disable_clip") {
            bool& flag =
                key == "enable_transform" ? request.enable_transform : request.disable_clip;
            if (!has_value || value == "true")
                flag = true;
            else if (value == "false")
                flag = false;
            else
                bad(text, fmt::format("'{}' takes no value, true or false", printable(item)));
        } else if (const std::size_t dot = key.find('.'); dot != std::string_view::npos) {
            const std::string_view extractor = key.substr(0, dot);
            const std::string_view option = key.substr(dot + 1);
            if (extractor.empty() || option.empty() || value.empty() ||
                value.find('=') != std::string_view::npos)
                bad(text, fmt::format("'{}' is not FEATURE.OPTION=VALUE", printable(item)));
            request.overrides.push_back(
                {std::string(extractor), std::string(option), std::string(value)});
        } else {
            bad(text,
                fmt::format("unknown item '{}' (expected version=, path=, name=, enable_transform, "
                            "disable_clip or FEATURE.OPTION=VALUE)",
                            printable(item)));
        }
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
    }
    if (request.version.empty() == request.path.empty())
        bad(text, request.version.empty() ? "needs version=NAME or path=FILE"
                                          : "give version= or path=, not both");
    return request;
}

}  // namespace vq::model
