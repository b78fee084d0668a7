#include "engine/model_prediction.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {

void ModelPrediction::add(model::ModelSet set) { models_.push_back({std::move(set), {}, {}}); }

void ModelPrediction::add_columns(ScoreTable& table) {
    for (Run& run : models_) {
        for (const model::ModelFeature& feature : run.set.main.features) {
            const auto column = table.find(feature.column);
            if (!column)
                throw std::logic_error(fmt::format("model feature '{}' has no column '{}'",
                                                   feature.name, feature.column));
            run.feature_columns.push_back(*column);
        }
        for (const std::string& output : model::output_names(run.set)) {
            if (table.find(output))
                throw usage_error(
                    fmt::format("model '{}' would write '{}' a second time; give it another name= "
                                "or request it once",
                                run.set.main.name, output));
            run.output_columns.push_back(table.add_column(output));
        }
    }
}

void ModelPrediction::predict(ScoreTable& table, std::size_t first, std::size_t end) const {
    std::vector<double> inputs, outputs;
    for (const Run& run : models_) {
        inputs.resize(run.feature_columns.size());
        outputs.resize(run.output_columns.size());
        for (std::size_t frame = first; frame < end; ++frame) {
            if (!table.frame_selected(frame)) continue;
            bool complete = true;
            for (std::size_t k = 0; k < inputs.size() && complete; ++k) {
                const auto value = table.value(run.feature_columns[k], frame);
                complete = value.has_value();
                if (complete) inputs[k] = *value;
            }
            if (!complete) continue;
            model::predict_frame(run.set, inputs, outputs);
            for (std::size_t c = 0; c < outputs.size(); ++c)
                table.set(run.output_columns[c], frame, outputs[c]);
        }
    }
}

}  // namespace vq
