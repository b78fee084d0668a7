// Helpers shared by the model tests: built-in models parsed without the registry, and a tiny
// model file written as JSON for the error and collection cases.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/model.hpp"

namespace vq::test {

inline model::ModelRequest model_request(std::string_view version, bool enable_transform = false) {
    model::ModelRequest request;
    request.version = version;
    request.enable_transform = enable_transform;
    return request;
}

// A built-in model as parse_models reads it (no feature registry involved).
inline model::ModelSet parse_builtin(std::string_view version, bool enable_transform = false) {
    return model::parse_models(model::builtin(version), version,
                               model_request(version, enable_transform));
}

// A valid one-feature model (motion2, 2 support vectors); tests change fields to break it.
inline nlohmann::ordered_json tiny_model_json() {
    return nlohmann::ordered_json::parse(R"({
      "param_dict": {"C": 4.0},
      "model_dict": {
        "model_type": "LIBSVMNUSVR",
        "norm_type": "linear_rescale",
        "feature_names": ["VMAF_integer_feature_motion2_score"],
        "slopes": [0.01, 0.05],
        "intercepts": [-0.3, 0.1],
        "score_clip": [0.0, 100.0],
        "score_transform": {"p0": 1.5, "p1": 1.1, "p2": -0.002, "out_gte_in": "true"},
        "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho -0.25\nSV\n1.5 1:0.2 \n-0.75 1:0.6\n"
      }
    })");
}

}  // namespace vq::test
