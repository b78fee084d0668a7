// Finding and loading the FFmpeg module (see ffmpeg_module.hpp); built only with FFmpeg.
#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "io/ffmpeg_module.hpp"
#include "io/scale.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

using Entry = const FfmpegModule* (*)();

std::string loader_error() {
    const char* why = dlerror();
    return why ? why : "unknown error";
}

// The shared library this code is linked into (libvq.so), or nothing when it is in the program.
std::optional<std::filesystem::path> own_library() {
    Dl_info info;
    link_map* object = nullptr;
    if (!dladdr1(reinterpret_cast<void*>(&ffmpeg_module), &info, reinterpret_cast<void**>(&object),
                 RTLD_DL_LINKMAP) ||
        !object || !object->l_name || !*object->l_name)
        return std::nullopt;  // the program's own link map has no name
    return std::filesystem::path(object->l_name);
}

std::string module_path() {
    if (const char* chosen = std::getenv(ffmpeg_module_variable); chosen && *chosen) return chosen;
    if (const auto library = own_library()) return (library->parent_path() / ffmpeg_module_file).string();
    std::error_code error;
    const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return ffmpeg_module_file;  // no /proc: let the loader search its usual places
    return (program.parent_path() / ffmpeg_module_file).string();
}

const FfmpegModule& load() {
    // A program linked with the module has it already; a second copy would hold a second set of
    // FFmpeg's process-wide settings (its log callback).
    if (const auto linked = reinterpret_cast<Entry>(dlsym(RTLD_DEFAULT, ffmpeg_module_entry)))
        return *linked();
    const std::string path = module_path();
    // RTLD_LOCAL: FFmpeg's symbols stay out of the program's namespace.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        throw runtime_error(
            fmt::format("cannot load the FFmpeg module '{}' (which reads containers): {}", path,
                        loader_error()));
    const auto entry = reinterpret_cast<Entry>(dlsym(handle, ffmpeg_module_entry));
    if (!entry)
        throw runtime_error(
            fmt::format("the FFmpeg module '{}' is not vq's: {}", path, loader_error()));
    return *entry();  // the module stays loaded for the life of the process
}

}  // namespace

const FfmpegModule& ffmpeg_module() {
    // A static initialised by a throwing call is tried again on the next call.
    static const FfmpegModule& module = load();
    return module;
}

std::unique_ptr<FrameSource> scale_frames(std::unique_ptr<FrameSource> source,
                                          const ScaleSpec& spec) {
    return ffmpeg_module().scale(std::move(source), spec);
}

}  // namespace vq
