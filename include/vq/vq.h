/* vq's C interface (libvq.so): score frame pairs from a program's own memory, or two video files,
 * with libvmaf's features and VMAF models, from C or anything that calls C.
 *
 *   vq_session* session;
 *   vq_session_create(NULL, &session);                      // NULL: the default vq_config
 *   vq_session_add_model(session, "version=vmaf_v0.6.1");
 *   vq_session_add_feature(session, "psnr");
 *   vq_session_start(session, &format);
 *   for (...) vq_session_push(session, &reference, &distorted);
 *   vq_result* result;
 *   vq_session_finish(session, &result);
 *   vq_session_destroy(session);
 *   ... vq_result_frame_value(result, score, frame, &value, &present) ...
 *   vq_result_destroy(result);
 *
 * Errors: every function that can fail returns a vq_status. On failure the handle it was given
 * keeps a one-line message (vq_session_last_error, vq_result_last_error) until its next failure,
 * and the calling thread's vq_last_error() says the same, which is the only place to look when no
 * handle exists yet (vq_session_create, vq_run_files). Outputs are written only on success.
 *
 * Threads: a handle is used by one thread at a time (calls on it are not synchronised); distinct
 * handles may be used on distinct threads at once. A session computes on its own worker threads.
 *
 * Ownership: every handle a function hands out is the caller's, freed with its _destroy function
 * (NULL is accepted and ignored). A result outlives the session it came from. Strings the library
 * returns belong to the handle and stay valid until it is destroyed, except for last-error
 * messages, which stay valid until the next failing call on the same handle or thread, and a
 * running session's score names (vq_session_score_name), valid until its next push or finish. */
#ifndef VQ_VQ_H
#define VQ_VQ_H

#include <stddef.h>
#include <stdint.h>

#include "vq/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vq_status {
    VQ_OK = 0,
    VQ_ERROR_USAGE = 1,            /* a bad request: feature or model string, format, call order */
    VQ_ERROR_RUNTIME = 2,          /* a failure while reading or computing, or out of memory */
    VQ_ERROR_INVALID_ARGUMENT = 3  /* a null pointer, an index out of range, a too-small stride */
} vq_status;

typedef enum vq_backend { VQ_BACKEND_CPU = 0, VQ_BACKEND_CUDA = 1, VQ_BACKEND_AUTO = 2 } vq_backend;

typedef enum vq_chroma {
    VQ_CHROMA_420 = 0,
    VQ_CHROMA_422 = 1,
    VQ_CHROMA_444 = 2,
    VQ_CHROMA_400 = 3 /* luma only */
} vq_chroma;

/* libvmaf's pooling methods over a run's frames (those the subsample selects). */
typedef enum vq_pooling {
    VQ_POOL_MIN = 0,
    VQ_POOL_MAX = 1,
    VQ_POOL_MEAN = 2,
    VQ_POOL_HARMONIC_MEAN = 3
} vq_pooling;

/* The structs below are part of the ABI: their fields change only with the soname's major
 * version. */
typedef struct vq_config {
    unsigned threads;   /* CPU worker threads; 0 = every core */
    size_t subsample;   /* score only frames whose index is a multiple of this; 0 or 1 = all */
    vq_backend backend; /* where features run */
    int gpu;            /* CUDA device ordinal */
} vq_config;

/* The pictures' format, the same for both videos of a session. */
typedef struct vq_format {
    int width;
    int height;
    int bit_depth; /* 8..16 */
    vq_chroma chroma;
} vq_format;

/* One picture in the caller's memory, copied by vq_session_push. Plane 0 is Y, 1 Cb, 2 Cr
 * (1 and 2 are ignored for VQ_CHROMA_400); chroma planes of odd sizes round up. Samples are
 * uint8_t for 8-bit video and uint16_t (the machine's byte order, which vq requires to be little
 * endian) for 9..16 bits. stride: bytes from one row's start to the next, at least a row's bytes. */
typedef struct vq_picture {
    const void* data[3];
    ptrdiff_t stride[3];
} vq_picture;

typedef struct vq_session vq_session; /* a run fed picture by picture */
typedef struct vq_result vq_result;   /* a finished run's scores */

/* "0.1.0": the library's version, which may be newer than the VQ_VERSION_* this was built with. */
const char* vq_version(void);

/* "ok", "usage error", ... */
const char* vq_status_string(vq_status status);

/* The message of this thread's last failing call ("" if none). */
const char* vq_last_error(void);

/* A vq_config with the defaults: every core, every frame, the CPU backend, GPU 0. */
vq_config vq_config_default(void);

/* --- Sessions ---------------------------------------------------------------------------- */

/* config may be NULL for vq_config_default(). */
vq_status vq_session_create(const vq_config* config, vq_session** session);
void vq_session_destroy(vq_session* session);
/* The message of this session's last failing call ("" if none). */
const char* vq_session_last_error(const vq_session* session);

/* Before start: a feature in libvmaf's syntax ("psnr=enable_mse=true", "cambi=window_size=33"),
 * or a VMAF model in libvmaf's --model syntax ("version=vmaf_v0.6.1", "path=model.json"), whose
 * scores come after every feature's. VQ_ERROR_USAGE for an unknown name, option or value. */
vq_status vq_session_add_feature(vq_session* session, const char* request);
vq_status vq_session_add_model(vq_session* session, const char* request);

/* *needs_reference = 0 when every requested feature is no-reference: then vq_session_push
 * accepts a NULL reference. */
vq_status vq_session_needs_reference(const vq_session* session, int* needs_reference);

/* Binds the features to the backends for this format. */
vq_status vq_session_start(vq_session* session, const vq_format* format);

/* After start: copies the next frame pair and hands it to the backends without waiting for its
 * scores. */
vq_status vq_session_push(vq_session* session, const vq_picture* reference,
                          const vq_picture* distorted);

/* During the run (after start): frames [0, *frames) have every score final, the models'
 * included; the number grows as pushed frames complete. Those frames' scores can be read with
 * vq_session_score_count, vq_session_score_name and vq_session_frame_value, which answer as the
 * finished result will. A name stays valid until the next push or finish. */
vq_status vq_session_frames_ready(const vq_session* session, size_t* frames);
vq_status vq_session_score_count(const vq_session* session, size_t* count);
vq_status vq_session_score_name(const vq_session* session, size_t score, const char** name);
/* frame < frames_ready; *present = 0 when the frame has no value for this score. */
vq_status vq_session_frame_value(const vq_session* session, size_t score, size_t frame,
                                 double* value, int* present);

/* Waits for every pushed frame and hands out the scores. The session can then only be
 * destroyed (or asked for its last error). */
vq_status vq_session_finish(vq_session* session, vq_result** result);

/* --- Whole files --------------------------------------------------------------------------- */

/* Scores two videos as `vq -r REF -d DIST` does: Y4M files, and containers (mp4, mkv, ...) when
 * vq was built with FFmpeg (its module, libvq_ffmpeg.so, is loaded from beside libvq.so; without
 * it such a file fails with VQ_ERROR_RUNTIME and a message saying so). features and models are
 * NULL-terminated lists of request strings (either may be NULL for none); reference_path may be
 * NULL when every feature is no-reference; config may be NULL for vq_config_default(). */
vq_status vq_run_files(const char* reference_path, const char* distorted_path,
                       const char* const* features, const char* const* models,
                       const vq_config* config, vq_result** result);

/* --- Results ------------------------------------------------------------------------------- */

void vq_result_destroy(vq_result* result);
const char* vq_result_last_error(const vq_result* result);

vq_status vq_result_frame_count(const vq_result* result, size_t* frames);
/* The scores ("psnr_y", "vmaf", ...) in the order libvmaf writes them. */
vq_status vq_result_score_count(const vq_result* result, size_t* count);
vq_status vq_result_score_name(const vq_result* result, size_t score, const char** name);
/* *present = 0 when the frame has no value for this score (a frame the subsample skips). */
vq_status vq_result_frame_value(const vq_result* result, size_t score, size_t frame,
                                double* value, int* present);
/* *present = 0 when a selected frame lacks the value or no frame is selected. */
vq_status vq_result_pooled(const vq_result* result, size_t score, vq_pooling method, double* value,
                           int* present);

/* Whole-run numbers some features write ("apsnr_y" of psnr=enable_apsnr=true). */
vq_status vq_result_aggregate_count(const vq_result* result, size_t* count);
vq_status vq_result_aggregate(const vq_result* result, size_t index, const char** name,
                              double* value);

/* Which backend computed each feature ("cpu", "cuda"), in request order, and the backends the run
 * used ("cpu", "cuda" or "cuda+cpu"). */
vq_status vq_result_receipt_count(const vq_result* result, size_t* count);
vq_status vq_result_receipt(const vq_result* result, size_t index, const char** feature,
                            const char** backend);
vq_status vq_result_backend_used(const vq_result* result, const char** backend);

#ifdef __cplusplus
}
#endif

#endif
