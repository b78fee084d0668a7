// libFuzzer target for the --model string (version=...:name=...:FEATURE.OPTION=VALUE): any byte
// string must parse or throw vq::Error. An accepted string names its outputs with a name every
// output format can write as it is, and gives no key twice.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "model/model.hpp"
#include "vq/error.hpp"
#include "vq/scores.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const vq::model::ModelRequest request = vq::model::parse_model_request(text);
        if (!vq::is_report_name(request.name)) __builtin_trap();
        std::set<std::string_view> keys;
        for (std::string_view rest = text;;) {
            const std::size_t colon = rest.find(':');
            const std::string_view item = rest.substr(0, colon);
            if (!keys.insert(item.substr(0, item.find('='))).second) __builtin_trap();
            if (colon == std::string_view::npos) break;
            rest.remove_prefix(colon + 1);
        }
    } catch (const vq::Error&) {
        // the expected outcome for a malformed string
    }
    return 0;
}
