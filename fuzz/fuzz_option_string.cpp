// libFuzzer target: the --feature option-string parser and the option binder must reject any
// input with vq::Error and never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "feature/registry.hpp"
#include "vq/error.hpp"
#include "feature/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const vq::FeatureRequest request = vq::parse_feature_request(text);
        const vq::FeatureLookup lookup = vq::find_feature(request.name);
        if (lookup.definition) {
            const vq::OptionValues values =
                vq::bind_options(request.name, lookup.definition->options, request.options);
            (void)values.output_suffix();
        }
    } catch (const vq::Error&) {}
    return 0;
}
