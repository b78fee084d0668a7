// Malformed, truncated and hostile model files: each is one usage error naming the file and the
// field, never a crash or a huge allocation.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "model/model.hpp"
#include "model_test_support.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

using Json = nlohmann::ordered_json;

struct BadModel {
    const char* label;
    std::function<std::string()> text;
    const char* field;  // what the message must mention
};

void PrintTo(const BadModel& bad, std::ostream* os) { *os << bad.label; }

std::string with(const std::function<void(Json&)>& change) {
    Json model = test::tiny_model_json();
    change(model["model_dict"]);
    return model.dump();
}

std::string with_svm(const std::string& svm) {
    return with([&](Json& d) { d["model"] = svm; });
}

const std::string header = "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\n";

std::string svm(const std::string& total, const std::string& lines) {
    return with_svm(header + "total_sv " + total + "\nrho -0.25\nSV\n" + lines);
}

std::string collection(const std::function<void(Json&)>& change) {
    Json file;
    for (int k = 0; k < 3; ++k) file[std::to_string(k)] = test::tiny_model_json();
    change(file);
    return file.dump();
}

class ModelErrors : public testing::TestWithParam<BadModel> {};

TEST_P(ModelErrors, OneLineUsageErrorNamingFileAndField) {
    const BadModel& bad = GetParam();
    try {
        (void)model::parse_models(bad.text(), "bad.json", test::model_request(""));
        FAIL() << "accepted";
    } catch (const Error& e) {
        const std::string message = e.what();
        EXPECT_EQ(e.kind(), ErrorKind::usage);
        EXPECT_NE(message.find("bad.json"), std::string::npos) << message;
        EXPECT_NE(message.find(bad.field), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

const BadModel bad_models[] = {
    {"NotJson", [] { return std::string("{\"model_dict\": nope}"); }, "not valid JSON"},
    {"TruncatedJson",
     [] {
         const std::string t(model::builtin("vmaf_v0.6.1"));
         return t.substr(0, t.size() / 2);
     },
     "not valid JSON"},
    {"Empty", [] { return std::string(); }, "not valid JSON"},
    {"TopLevelArray", [] { return std::string("[1, 2]"); }, "(top level)"},
    {"NoModelDict", [] { return std::string("{\"param_dict\": {}}"); }, "model_dict"},
    {"ModelDictNotObject", [] { return std::string("{\"model_dict\": 3}"); }, "model_dict"},
    {"NoModelType", [] { return with([](Json& d) { d.erase("model_type"); }); },
     "model_dict.model_type"},
    {"UnknownModelType", [] { return with([](Json& d) { d["model_type"] = "RANDOMFOREST"; }); },
     "model_type"},
    {"NoFeatureNames", [] { return with([](Json& d) { d.erase("feature_names"); }); },
     "feature_names"},
    {"FeatureNamesNotList", [] { return with([](Json& d) { d["feature_names"] = "adm2"; }); },
     "feature_names"},
    {"EmptyFeatureNames", [] { return with([](Json& d) { d["feature_names"] = Json::array(); }); },
     "feature_names"},
    {"TooManyFeatures",
     [] {
         return with([](Json& d) {
             d["feature_names"] =
                 Json(std::vector<std::string>(65, "VMAF_integer_feature_adm2_score"));
         });
     },
     "feature_names"},
    {"UnknownFeature",
     [] { return with([](Json& d) { d["feature_names"][0] = "VMAF_feature_adm2_score"; }); },
     "feature_names[0]"},
    {"FeatureNameNotString", [] { return with([](Json& d) { d["feature_names"][0] = 7; }); },
     "feature_names[0]"},
    {"NoNormType", [] { return with([](Json& d) { d.erase("norm_type"); }); }, "norm_type"},
    {"UnknownNormType", [] { return with([](Json& d) { d["norm_type"] = "clip_0to1"; }); },
     "norm_type"},
    {"ShortSlopes", [] { return with([](Json& d) { d["slopes"] = {0.01}; }); },
     "model_dict.slopes"},
    {"LongIntercepts", [] { return with([](Json& d) {
                                d["intercepts"] = {1, 2, 3};
                            }); },
     "model_dict.intercepts"},
    {"SlopeNotNumber", [] { return with([](Json& d) { d["slopes"][1] = "0.05"; }); }, "slopes[1]"},
    {"SlopeInfinite",
     [] {
         return std::string(
             R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "linear_rescale",
          "feature_names": ["VMAF_integer_feature_motion2_score"], "slopes": [1, 1e999], "intercepts": [0, 0],
          "model": ""}})");
     },
     "out of the double range"},
    {"InterceptNull", [] { return with([](Json& d) { d["intercepts"][0] = nullptr; }); },
     "intercepts[0]"},
    {"ClipLength", [] { return with([](Json& d) { d["score_clip"] = {0.0}; }); }, "score_clip"},
    {"ClipReversed", [] { return with([](Json& d) {
                              d["score_clip"] = {100.0, 0.0};
                          }); },
     "score_clip"},
    {"TransformNotObject", [] { return with([](Json& d) { d["score_transform"] = 1; }); },
     "score_transform"},
    {"TransformP1String", [] { return with([](Json& d) { d["score_transform"]["p1"] = "1.1"; }); },
     "score_transform.p1"},
    {"TransformEnabledString",
     [] { return with([](Json& d) { d["score_transform"]["enabled"] = "true"; }); },
     "score_transform.enabled"},
    {"TransformFlagWord",
     [] { return with([](Json& d) { d["score_transform"]["out_gte_in"] = "yes"; }); },
     "score_transform.out_gte_in"},
    {"KnotsNotPairs",
     [] { return with([](Json& d) {
              d["score_transform"]["knots"] = {{0, 0}, {1}};
          }); },
     "score_transform.knots[1]"},
    {"KnotsNotIncreasing",
     [] { return with([](Json& d) {
              d["score_transform"]["knots"] = {{1, 0}, {1, 5}};
          }); },
     "score_transform.knots[1]"},
    {"OptsWrongLength",
     [] {
         return with([](Json& d) { d["feature_opts_dicts"] = {Json::object(), Json::object()}; });
     },
     "feature_opts_dicts"},
    {"OptValueList",
     [] { return with([](Json& d) {
              d["feature_opts_dicts"] = {{{"motion_max_val", {1, 2}}}};
          }); },
     "feature_opts_dicts[0].motion_max_val"},
    {"OptValueSeparator",
     [] { return with([](Json& d) {
              d["feature_opts_dicts"] = {{{"motion_max_val", "1:2"}}};
          }); },
     "feature_opts_dicts[0].motion_max_val"},
    {"OptNameEmpty", [] { return with([](Json& d) {
                              d["feature_opts_dicts"] = {{{"", 1}}};
                          }); },
     "feature_opts_dicts[0]"},
    {"OptValueBeyondFloat",
     [] { return with([](Json& d) {
              d["feature_opts_dicts"] = {{{"motion_max_val", 1e39}}};
          }); },
     "feature_opts_dicts[0].motion_max_val"},
    {"ChromaCorrectionZero",
     [] { return with([](Json& d) { d["chroma_correction_parameter"] = 0.0; }); },
     "chroma_correction_parameter"},
    {"ChromaCorrectionString",
     [] { return with([](Json& d) { d["chroma_correction_parameter"] = "120"; }); },
     "chroma_correction_parameter"},
    {"ChromaCorrectionWithoutSpeedFeature",
     [] { return with([](Json& d) { d["chroma_correction_parameter"] = 120.0; }); },
     "speed_chroma"},
    {"ChromaCorrectionWithoutNormalisation",
     [] {
         return with([](Json& d) {
             d["chroma_correction_parameter"] = 120.0;
             d["norm_type"] = "none";
         });
     },
     "linear_rescale"},
    {"NoSvm", [] { return with([](Json& d) { d.erase("model"); }); }, "model_dict.model"},
    {"SvmNotString", [] { return with([](Json& d) { d["model"] = 5; }); }, "model_dict.model"},
    {"SvmNoHeaderEnd", [] { return with_svm(header + "total_sv 2\nrho 1\n"); }, "no 'SV' line"},
    {"SvmType", [] { return with_svm("svm_type c_svc\n"); }, "svm_type"},
    {"KernelType", [] { return with_svm("svm_type nu_svr\nkernel_type linear\n"); }, "kernel_type"},
    {"NrClass", [] { return with_svm("nr_class 3\n"); }, "nr_class"},
    {"GammaNan", [] { return with_svm("gamma nan\n"); }, "gamma"},
    {"RhoInf", [] { return with_svm("rho inf\n"); }, "rho"},
    {"RhoHuge", [] { return with_svm("rho 1e999\n"); }, "rho"},
    {"UnknownHeaderKey", [] { return with_svm("probA 0.5\n"); }, "probA"},
    {"DuplicateGamma", [] { return with_svm("gamma 1\ngamma 2\n"); }, "twice"},
    {"HeaderValueMissing", [] { return with_svm("gamma\n"); }, "gamma"},
    {"NoTotalSv", [] { return with_svm(header + "rho 1\nSV\n1 1:0.5\n"); }, "total_sv"},
    {"NoGamma",
     [] { return with_svm("svm_type nu_svr\nkernel_type rbf\ntotal_sv 1\nrho 1\nSV\n1 1:0.5\n"); },
     "gamma"},
    {"NegativeTotalSv", [] { return svm("-5", "1 1:0.5\n"); }, "total_sv"},
    {"ZeroTotalSv", [] { return svm("0", ""); }, "total_sv"},
    {"HugeTotalSv", [] { return svm("99999999999", "1 1:0.5\n"); }, "too large"},
    // 2^21 + 1 vectors of 2 values: just over the per-file budget of 2^22, refused before
    // allocating.
    {"TotalSvOverBudget", [] { return svm("2097153", "1 1:0.5\n"); }, "too large"},
    {"OverflowingTotalSv", [] { return svm("99999999999999999999999", "1 1:0.5\n"); }, "total_sv"},
    {"TotalSvNotNumber", [] { return svm("two", "1 1:0.5\n"); }, "total_sv"},
    {"FewerSvLines", [] { return svm("3", "1 1:0.5\n2 1:0.1\n"); }, "total_sv says 3"},
    {"MoreSvLines", [] { return svm("1", "1 1:0.5\n2 1:0.1\n"); }, "more support vectors"},
    {"IndexOutOfRange", [] { return svm("1", "1 2:0.5\n"); }, "outside 1..1"},
    {"IndexZero", [] { return svm("1", "1 0:0.5\n"); }, "outside 1..1"},
    {"IndexNegative", [] { return svm("1", "1 -1:0.5\n"); }, "INDEX:NUMBER"},
    {"IndexNotIncreasing",
     [] {
         return with([](Json& d) {
             d["feature_names"] = {"VMAF_integer_feature_adm2_score",
                                   "VMAF_integer_feature_motion2_score"};
             d["slopes"] = {1, 1, 1};
             d["intercepts"] = {0, 0, 0};
             d["feature_opts_dicts"] = nullptr;
             d["model"] = header + "total_sv 1\nrho 1\nSV\n1 2:0.5 1:0.25\n";
         });
     },
     "indices must increase"},
    {"IndexRepeated", [] { return svm("1", "1 1:0.5 1:0.5\n"); }, "indices must increase"},
    {"SvValueNan", [] { return svm("1", "1 1:nan\n"); }, "INDEX:NUMBER"},
    {"SvValueMissing", [] { return svm("1", "1 1:\n"); }, "INDEX:NUMBER"},
    {"SvNoColon", [] { return svm("1", "1 0.5\n"); }, "INDEX:NUMBER"},
    {"CoefficientGarbage", [] { return svm("1", "x 1:0.5\n"); }, "coefficient"},
    {"CoefficientMissing", [] { return svm("2", "1 1:0.5\n\n"); }, "coefficient"},
    {"CollectionOnlyMain",
     [] { return std::string("{\"0\": ") + test::tiny_model_json().dump() + "}"; }, "[\"1\"]"},
    {"CollectionBadMember",
     [] { return collection([](Json& f) { f["1"]["model_dict"]["slopes"] = {1}; }); },
     "[\"1\"].model_dict.slopes"},
    {"CollectionMemberNotObject", [] { return collection([](Json& f) { f["2"] = 3; }); },
     "[\"2\"]"},
    {"CollectionDifferentFeatures",
     [] {
         return collection([](Json& f) {
             f["2"]["model_dict"]["feature_names"][0] = "VMAF_integer_feature_adm2_score";
         });
     },
     "[\"2\"].model_dict.feature_names"},
    {"CollectionDifferentOptions",
     [] {
         return collection([](Json& f) {
             f["1"]["model_dict"]["feature_opts_dicts"] = {{{"motion_max_val", 5}}};
         });
     },
     "[\"1\"].model_dict.feature_names"},
    {"NoMembers", [] { return std::string("{\"1\": {}}"); }, "model_dict"},
    {"ControlBytesInName", [] { return with([](Json& d) { d["norm_type"] = "a\nb\x01"; }); },
     "a\\x0ab\\x01"},
};

INSTANTIATE_TEST_SUITE_P(Model, ModelErrors, testing::ValuesIn(bad_models),
                         [](const testing::TestParamInfo<BadModel>& info) {
                             return std::string(info.param.label);
                         });

}  // namespace
}  // namespace vq
