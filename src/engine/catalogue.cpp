// What vq can compute, as text: the features of the registry and the built-in models.
#include <fmt/format.h>

#include "feature/registry.hpp"
#include "model/model.hpp"
#include "vq/session.hpp"

namespace vq {

std::string describe_features() {
    std::string text;
    for (const FeatureDefinition& def : feature_registry()) {
        text += fmt::format("{}{}: {}\n", def.name, def.make_cuda ? " (cpu, cuda)" : " (cpu)",
                            def.description);
        for (const OptionSpec& spec : def.options) text += "    " + describe_option(spec) + "\n";
    }
    return text;
}

std::string describe_models() { return model::describe_models(); }

}  // namespace vq
