// libFuzzer target for model files: any byte string must either load as a model (or collection)
// that predicts without fault, or throw vq::Error. A crash, a sanitizer report, another exception
// type escaping, or outputs that do not match their names are bugs.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/model.hpp"
#include "vq/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    vq::model::ModelRequest request;
    request.path = "fuzz.json";
    try {
        const vq::model::ModelSet set = vq::model::parse_models(text, "fuzz.json", request);
        const std::size_t features = set.main.features.size();
        const std::size_t outputs = vq::model::output_names(set).size();
        if (features < 1 || features > vq::model::max_features) __builtin_trap();
        if (outputs != (set.collection.empty() ? 1 : set.collection.size() + 5)) __builtin_trap();
        // Typical feature values, then extremes.
        std::array<double, vq::model::max_features> f;
        std::vector<double> out(outputs);
        for (const double value : {0.9, 0.0, -1e300, 1e300}) {
            f.fill(value);
            vq::model::predict_frame(set, std::span(f.data(), features), out);
        }
    } catch (const vq::Error&) {
        // the expected outcome for malformed input
    }
    return 0;
}
