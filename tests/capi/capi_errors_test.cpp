// vq.h's error model: every failure is a status and one line, kept by the handle and the thread;
// nothing throws across the C boundary, and a failed call leaves the handle usable.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "vq/vq.h"

namespace {

// One frame of flat 8-bit 4:2:0 pictures in the caller's memory, rows tightly packed.
struct FlatPicture {
    static constexpr int width = 256;  // CAMBI needs a side of 216 or more
    static constexpr int height = 48;
    std::vector<unsigned char> luma = std::vector<unsigned char>(width * height, 100);
    std::vector<unsigned char> chroma = std::vector<unsigned char>(width / 2 * height / 2, 128);
    vq_picture picture{{luma.data(), chroma.data(), chroma.data()}, {width, width / 2, width / 2}};
};

constexpr vq_format flat_format{FlatPicture::width, FlatPicture::height, 8, VQ_CHROMA_420};

// The call failed with `status` and the message, on the handle's slot and the thread's.
void expect_failure(vq_status actual, vq_status status, const std::string& handle_message,
                    const std::string& expected) {
    EXPECT_EQ(actual, status) << vq_status_string(actual) << ": " << handle_message;
    EXPECT_EQ(handle_message, expected);
    EXPECT_EQ(std::string(vq_last_error()), expected);
    EXPECT_EQ(handle_message.find('\n'), std::string::npos);
}

// The same, reading the messages only after the call.
#define EXPECT_FAILURE(call, status, handle_message, expected)       \
    do {                                                              \
        const vq_status actual_status = (call);                       \
        expect_failure(actual_status, status, handle_message, expected); \
    } while (0)

class CapiSession : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(vq_session_create(nullptr, &session), VQ_OK); }
    void TearDown() override { vq_session_destroy(session); }
    std::string error() const { return vq_session_last_error(session); }
    void start_psnr() {
        ASSERT_EQ(vq_session_add_feature(session, "psnr"), VQ_OK);
        ASSERT_EQ(vq_session_start(session, &flat_format), VQ_OK);
    }

    vq_session* session = nullptr;
};

TEST(Capi, VersionIsTheProjectsAndStatusesHaveNames) {
    EXPECT_EQ(std::string(vq_version()), VQ_VERSION_STRING);
    EXPECT_EQ(std::string(VQ_VERSION_STRING), std::to_string(VQ_VERSION_MAJOR) + "." +
                                                  std::to_string(VQ_VERSION_MINOR) + "." +
                                                  std::to_string(VQ_VERSION_PATCH));
    EXPECT_STREQ(vq_status_string(VQ_OK), "ok");
    EXPECT_STREQ(vq_status_string(VQ_ERROR_USAGE), "usage error");
    EXPECT_STREQ(vq_status_string(VQ_ERROR_RUNTIME), "runtime error");
    EXPECT_STREQ(vq_status_string(VQ_ERROR_INVALID_ARGUMENT), "invalid argument");
    EXPECT_STREQ(vq_status_string(static_cast<vq_status>(42)), "unknown status");
}

TEST(Capi, CreationFailuresAreOnTheThreadsLastError) {
    EXPECT_FAILURE(vq_session_create(nullptr, nullptr), VQ_ERROR_INVALID_ARGUMENT, vq_last_error(),
                   "vq_session_create: session is NULL");
    vq_config config = vq_config_default();
    config.backend = static_cast<vq_backend>(7);
    vq_session* session = nullptr;
    EXPECT_FAILURE(vq_session_create(&config, &session), VQ_ERROR_INVALID_ARGUMENT,
                   vq_last_error(), "vq_session_create: config->backend is 7, not a vq_backend");
    EXPECT_EQ(session, nullptr);
}

TEST_F(CapiSession, BadFeatureStringIsAUsageError) {
    const vq_status status = vq_session_add_feature(session, "psnr=no_such_option=1");
    EXPECT_EQ(status, VQ_ERROR_USAGE);
    EXPECT_NE(error().find("no_such_option"), std::string::npos) << error();
    EXPECT_EQ(error(), vq_last_error());
    EXPECT_EQ(error().find('\n'), std::string::npos);
    EXPECT_EQ(vq_session_add_feature(session, "no_such_feature"), VQ_ERROR_USAGE);
    EXPECT_NE(error().find("no_such_feature"), std::string::npos) << error();
    // The failed requests left the session as it was.
    start_psnr();
}

TEST_F(CapiSession, BadModelStringIsAUsageError) {
    EXPECT_EQ(vq_session_add_model(session, "version=no_such_model"), VQ_ERROR_USAGE);
    EXPECT_NE(error().find("no_such_model"), std::string::npos) << error();
    EXPECT_EQ(error().find('\n'), std::string::npos);
    EXPECT_EQ(vq_session_add_model(session, "path=/nonexistent/model.json"), VQ_ERROR_USAGE);
    EXPECT_NE(error().find("/nonexistent/model.json"), std::string::npos) << error();
}

TEST_F(CapiSession, NullPointersAreInvalidArguments) {
    EXPECT_FAILURE(vq_session_add_feature(nullptr, "psnr"), VQ_ERROR_INVALID_ARGUMENT,
                   vq_last_error(), "vq_session_add_feature: session is NULL");
    EXPECT_FAILURE(vq_session_add_feature(session, nullptr), VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_add_feature: request is NULL");
    EXPECT_FAILURE(vq_session_add_model(session, nullptr), VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_add_model: request is NULL");
    EXPECT_FAILURE(vq_session_start(session, nullptr), VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_start: format is NULL");
    EXPECT_FAILURE(vq_session_needs_reference(session, nullptr), VQ_ERROR_INVALID_ARGUMENT,
                   error(), "vq_session_needs_reference: needs_reference is NULL");
    start_psnr();
    FlatPicture picture;
    EXPECT_FAILURE(vq_session_push(session, &picture.picture, nullptr),
                   VQ_ERROR_INVALID_ARGUMENT, error(), "vq_session_push: distorted is NULL");
    EXPECT_FAILURE(vq_session_push(session, nullptr, &picture.picture),
                   VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_push: reference is NULL, and the session's features need it");
    picture.picture.data[2] = nullptr;
    EXPECT_FAILURE(vq_session_push(session, &picture.picture, &picture.picture),
                   VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_push: reference->data[2] is NULL");
    EXPECT_FAILURE(vq_session_finish(session, nullptr), VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_finish: result is NULL");
    EXPECT_STREQ(vq_session_last_error(nullptr), "vq_session_last_error: session is NULL");
    vq_session_destroy(nullptr);
    vq_result_destroy(nullptr);
}

TEST_F(CapiSession, StridesShorterThanARowAreInvalidArguments) {
    start_psnr();
    FlatPicture reference, distorted;
    distorted.picture.stride[1] = FlatPicture::width / 2 - 1;
    EXPECT_FAILURE(vq_session_push(session, &reference.picture, &distorted.picture),
                   VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_push: distorted->stride[1] is 127 bytes, less than a row of plane 1 "
                   "(128 samples of 1 bytes)");
    distorted.picture.stride[1] = -FlatPicture::width;
    EXPECT_EQ(vq_session_push(session, &reference.picture, &distorted.picture),
              VQ_ERROR_INVALID_ARGUMENT);
    // The session still takes a good pair.
    distorted.picture.stride[1] = FlatPicture::width / 2;
    EXPECT_EQ(vq_session_push(session, &reference.picture, &distorted.picture), VQ_OK) << error();
    vq_result* result = nullptr;
    ASSERT_EQ(vq_session_finish(session, &result), VQ_OK) << error();
    std::size_t frames = 0;
    EXPECT_EQ(vq_result_frame_count(result, &frames), VQ_OK);
    EXPECT_EQ(frames, 1u);
    vq_result_destroy(result);
}

TEST_F(CapiSession, BadFormatsAreRefusedAtStart) {
    ASSERT_EQ(vq_session_add_feature(session, "psnr"), VQ_OK);
    vq_format format = flat_format;
    format.bit_depth = 17;
    EXPECT_EQ(vq_session_start(session, &format), VQ_ERROR_USAGE);
    EXPECT_NE(error().find("17"), std::string::npos) << error();
    format = flat_format;
    format.width = 0;
    EXPECT_EQ(vq_session_start(session, &format), VQ_ERROR_USAGE);
    format = flat_format;
    format.chroma = static_cast<vq_chroma>(9);
    EXPECT_FAILURE(vq_session_start(session, &format), VQ_ERROR_INVALID_ARGUMENT, error(),
                   "vq_session_start: format->chroma is 9, not a vq_chroma");
}

TEST_F(CapiSession, CallsOutOfOrderAreUsageErrors) {
    FlatPicture picture;
    EXPECT_FAILURE(vq_session_push(session, &picture.picture, &picture.picture), VQ_ERROR_USAGE,
                   error(),
                   "vq_session_push: the session has not started (call vq_session_start first)");
    std::size_t frames = 0;
    EXPECT_FAILURE(
        vq_session_frames_ready(session, &frames), VQ_ERROR_USAGE, error(),
        "vq_session_frames_ready: the session has not started (call vq_session_start first)");
    vq_result* result = nullptr;
    EXPECT_EQ(vq_session_finish(session, &result), VQ_ERROR_USAGE);
    start_psnr();
    EXPECT_FAILURE(vq_session_add_feature(session, "cambi"), VQ_ERROR_USAGE, error(),
                   "vq_session_add_feature: the session has started already");
    EXPECT_FAILURE(vq_session_start(session, &flat_format), VQ_ERROR_USAGE, error(),
                   "vq_session_start: the session has started already");
    // Scores of frames not yet ready cannot be read.
    double value = 0;
    int present = 0;
    EXPECT_FAILURE(vq_session_frame_value(session, 0, 0, &value, &present), VQ_ERROR_USAGE,
                   error(), "vq_session_frame_value: frame 0 is not ready yet (0 frames ready)");
    ASSERT_EQ(vq_session_push(session, &picture.picture, &picture.picture), VQ_OK);
    ASSERT_EQ(vq_session_finish(session, &result), VQ_OK);
    EXPECT_FAILURE(vq_session_push(session, &picture.picture, &picture.picture), VQ_ERROR_USAGE,
                   error(), "vq_session_push: the session has finished");
    EXPECT_FAILURE(vq_session_frames_ready(session, &frames), VQ_ERROR_USAGE, error(),
                   "vq_session_frames_ready: the session has finished (read its vq_result "
                   "instead)");
    vq_result* again = nullptr;
    EXPECT_EQ(vq_session_finish(session, &again), VQ_ERROR_USAGE);
    EXPECT_EQ(again, nullptr);
    vq_result_destroy(result);
}

TEST_F(CapiSession, ResultIndicesOutOfRangeAreInvalidArguments) {
    start_psnr();
    FlatPicture picture;
    ASSERT_EQ(vq_session_push(session, &picture.picture, &picture.picture), VQ_OK);
    vq_result* result = nullptr;
    ASSERT_EQ(vq_session_finish(session, &result), VQ_OK);
    vq_session_destroy(session);  // the result outlives its session
    session = nullptr;
    const auto result_error = [&] { return std::string(vq_result_last_error(result)); };
    std::size_t scores = 0;
    ASSERT_EQ(vq_result_score_count(result, &scores), VQ_OK);
    EXPECT_EQ(scores, 3u);  // psnr_y, psnr_cb, psnr_cr
    const char* name = nullptr;
    EXPECT_FAILURE(vq_result_score_name(result, 3, &name), VQ_ERROR_INVALID_ARGUMENT,
                   result_error(), "vq_result_score_name: score 3 is out of range (3 scores)");
    double value = 0;
    int present = 0;
    EXPECT_FAILURE(vq_result_frame_value(result, 0, 1, &value, &present),
                   VQ_ERROR_INVALID_ARGUMENT, result_error(),
                   "vq_result_frame_value: frame 1 is out of range (1 frames)");
    EXPECT_FAILURE(vq_result_pooled(result, 0, static_cast<vq_pooling>(4), &value, &present),
                   VQ_ERROR_INVALID_ARGUMENT, result_error(),
                   "vq_result_pooled: method is 4, not a vq_pooling");
    EXPECT_FAILURE(vq_result_aggregate(result, 0, &name, &value), VQ_ERROR_INVALID_ARGUMENT,
                   result_error(), "vq_result_aggregate: aggregate 0 is out of range (0 aggregates)");
    EXPECT_FAILURE(vq_result_frame_count(nullptr, nullptr), VQ_ERROR_INVALID_ARGUMENT,
                   vq_last_error(), "vq_result_frame_count: result is NULL");
    // The slot keeps its last failure across calls that succeed.
    ASSERT_EQ(vq_result_frame_value(result, 0, 0, &value, &present), VQ_OK);
    EXPECT_TRUE(present);
    EXPECT_EQ(value, 60.0);  // identical 8-bit pictures: libvmaf's cap
    EXPECT_EQ(result_error(), "vq_result_aggregate: aggregate 0 is out of range (0 aggregates)");
    const char* feature = nullptr;
    const char* backend = nullptr;
    ASSERT_EQ(vq_result_receipt(result, 0, &feature, &backend), VQ_OK);
    EXPECT_STREQ(feature, "psnr");
    EXPECT_STREQ(backend, "cpu");
    ASSERT_EQ(vq_result_backend_used(result, &backend), VQ_OK);
    EXPECT_STREQ(backend, "cpu");
    vq_result_destroy(result);
}

TEST_F(CapiSession, NoReferenceFeaturesTakeANullReference) {
    ASSERT_EQ(vq_session_add_feature(session, "cambi"), VQ_OK);
    int needs_reference = -1;
    ASSERT_EQ(vq_session_needs_reference(session, &needs_reference), VQ_OK);
    EXPECT_EQ(needs_reference, 0);
    ASSERT_EQ(vq_session_start(session, &flat_format), VQ_OK) << error();
    FlatPicture picture;
    EXPECT_EQ(vq_session_push(session, nullptr, &picture.picture), VQ_OK) << error();
    vq_result* result = nullptr;
    ASSERT_EQ(vq_session_finish(session, &result), VQ_OK) << error();
    vq_result_destroy(result);
}

TEST(Capi, EachHandleAndThreadKeepsItsOwnLastError) {
    vq_session* first = nullptr;
    vq_session* second = nullptr;
    ASSERT_EQ(vq_session_create(nullptr, &first), VQ_OK);
    ASSERT_EQ(vq_session_create(nullptr, &second), VQ_OK);
    EXPECT_STREQ(vq_session_last_error(first), "");
    EXPECT_EQ(vq_session_add_feature(first, nullptr), VQ_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(vq_session_last_error(second), "");
    std::thread([second] {
        EXPECT_EQ(vq_session_add_model(second, nullptr), VQ_ERROR_INVALID_ARGUMENT);
        EXPECT_STREQ(vq_last_error(), "vq_session_add_model: request is NULL");
    }).join();
    EXPECT_STREQ(vq_last_error(), "vq_session_add_feature: request is NULL");
    EXPECT_STREQ(vq_session_last_error(first), "vq_session_add_feature: request is NULL");
    EXPECT_STREQ(vq_session_last_error(second), "vq_session_add_model: request is NULL");
    vq_session_destroy(first);
    vq_session_destroy(second);
}

TEST(Capi, RunFilesFailuresAreStatusesAndOneLine) {
    vq_result* result = nullptr;
    const char* const features[] = {"psnr", nullptr};
    EXPECT_FAILURE(vq_run_files("a.y4m", nullptr, features, nullptr, nullptr, &result),
                   VQ_ERROR_INVALID_ARGUMENT, vq_last_error(),
                   "vq_run_files: distorted_path is NULL");
    EXPECT_EQ(vq_run_files("/nonexistent/ref.y4m", "/nonexistent/dist.y4m", features, nullptr,
                           nullptr, &result),
              VQ_ERROR_RUNTIME);
    EXPECT_NE(std::string(vq_last_error()).find("/nonexistent/"), std::string::npos)
        << vq_last_error();
    const char* const bad[] = {"no_such_feature", nullptr};
    EXPECT_EQ(vq_run_files("a.y4m", "b.y4m", bad, nullptr, nullptr, &result), VQ_ERROR_USAGE);
    EXPECT_NE(std::string(vq_last_error()).find("no_such_feature"), std::string::npos)
        << vq_last_error();
    EXPECT_EQ(result, nullptr);
}

}  // namespace
