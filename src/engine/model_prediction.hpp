// The session's VMAF models: each model's parsed file, where its features' columns and its own
// scores are in the table, and the prediction of each frame once its features are final
// (spec/vmaf.md).
#pragma once

#include <cstddef>
#include <vector>

#include "model/model.hpp"
#include "vq/scores.hpp"

namespace vq {

class ModelPrediction {
public:
    void add(model::ModelSet set);

    // Finds each model's feature columns and adds its score columns, after every feature's
    // (libvmaf predicts after the features are flushed). Throws vq::Error (usage) when a model
    // would write a name already written.
    void add_columns(ScoreTable& table);

    // Every selected frame of [first, end) whose model features all exist gets its model scores
    // (spec/vmaf.md §5, §8).
    void predict(ScoreTable& table, std::size_t first, std::size_t end) const;

private:
    struct Run {
        model::ModelSet set;
        std::vector<std::size_t> feature_columns;  // set.main.features' columns, in order
        std::vector<std::size_t> output_columns;   // model::output_names(set)' columns
    };
    std::vector<Run> models_;
};

}  // namespace vq
