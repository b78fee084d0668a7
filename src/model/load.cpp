// A model string to a ready model set: the built-in text or the file, parsed, and each feature's
// options checked against the extractor that provides it (which also names its output column).
#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "feature/registry.hpp"
#include "model/diagnostics.hpp"
#include "model/model.hpp"
#include "model/model_features.hpp"
#include "vq/error.hpp"

namespace vq::model {
namespace {

using detail::printable;

std::string read_model_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw usage_error(fmt::format("model file '{}': cannot open it", printable(path, 4096)));
    std::string text;
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, std::size_t(in.gcount()));
        if (text.size() > max_file_bytes)
            throw usage_error(fmt::format("model file '{}': larger than {} bytes",
                                          printable(path, 4096), max_file_bytes));
    }
    if (in.bad())
        throw usage_error(fmt::format("model file '{}': read error", printable(path, 4096)));
    return text;
}

// Binds every feature's options with its extractor's table, names its column, and lists each
// distinct extractor run once.
void resolve(ModelSet& set, std::string_view source) {
    std::vector<std::string> runs;  // extractor + canonical options of each entry of set.extractors
    for (std::size_t k = 0; k < set.main.features.size(); ++k) {
        ModelFeature& feature = set.main.features[k];
        const FeatureLookup lookup = find_feature(feature.extractor);
        if (!lookup.definition)
            throw usage_error(
                fmt::format("model '{}': feature '{}' needs extractor '{}', which this build lacks",
                            printable(source, 4096), feature.name, feature.extractor));
        OptionValues values;
        try {
            values = bind_options(feature.extractor, lookup.definition->options, feature.options);
        } catch (const Error& e) {
            throw usage_error(fmt::format("model '{}': {}", printable(source, 4096), e.what()));
        }
        const auto* binding = detail::find_binding(feature.name);
        feature.column = std::string(binding->output) + values.output_suffix();
        for (Model& member : set.collection) member.features[k].column = feature.column;

        std::string run = feature.extractor + ":" + values.canonical();
        if (std::find(runs.begin(), runs.end(), run) == runs.end()) {
            runs.push_back(std::move(run));
            set.extractors.push_back({feature.extractor, feature.options});
        }
    }
}

}  // namespace

ModelSet load(const ModelRequest& request) {
    const bool built_in = !request.version.empty();
    const std::string file_text = built_in ? std::string() : read_model_file(request.path);
    const std::string_view text = built_in ? builtin(request.version) : std::string_view(file_text);
    const std::string& source = built_in ? request.version : request.path;
    ModelSet set = parse_models(text, source, request);
    resolve(set, source);
    return set;
}

}  // namespace vq::model
