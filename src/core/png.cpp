#include "core/png.hpp"

#include <dlfcn.h>
#include <png.h>

#include <csetjmp>
#include <type_traits>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {
namespace {

// The library the headers describe (libpng 1.6's ABI).
static_assert(PNG_LIBPNG_VER_SONUM == 16, "the soname below names libpng 1.6's library");
constexpr char png_library_file[] = "libpng16.so.16";

// The libpng functions vq calls, resolved once; their types are the headers' declarations.
struct PngLibrary {
    decltype(&png_create_write_struct) create_write_struct;
    decltype(&png_create_info_struct) create_info_struct;
    decltype(&png_set_longjmp_fn) set_longjmp_fn;
    decltype(&png_set_write_fn) set_write_fn;
    decltype(&png_get_io_ptr) get_io_ptr;
    decltype(&png_set_IHDR) set_IHDR;
    decltype(&png_write_info) write_info;
    decltype(&png_write_row) write_row;
    decltype(&png_write_end) write_end;
    decltype(&png_destroy_write_struct) destroy_write_struct;
};

PngLibrary load_png_library() {
    // Never closed: the process keeps it, as it would a linked library.
    void* handle = ::dlopen(png_library_file, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        throw runtime_error(
            fmt::format("cannot load libpng ('{}'): {}", png_library_file, ::dlerror()));
    const auto resolve = [handle](auto& function, const char* name) {
        void* address = ::dlsym(handle, name);
        if (!address)
            throw runtime_error(fmt::format("'{}' has no function {}", png_library_file, name));
        function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(address);
    };
    PngLibrary png;
    resolve(png.create_write_struct, "png_create_write_struct");
    resolve(png.create_info_struct, "png_create_info_struct");
    resolve(png.set_longjmp_fn, "png_set_longjmp_fn");
    resolve(png.set_write_fn, "png_set_write_fn");
    resolve(png.get_io_ptr, "png_get_io_ptr");
    resolve(png.set_IHDR, "png_set_IHDR");
    resolve(png.write_info, "png_write_info");
    resolve(png.write_row, "png_write_row");
    resolve(png.write_end, "png_write_end");
    resolve(png.destroy_write_struct, "png_destroy_write_struct");
    return png;
}

// Loaded on the first call (thread-safe); a failed load throws, and the next call tries again.
const PngLibrary& png_library() {
    static const PngLibrary library = load_png_library();
    return library;
}

void append_to_string(png_structp png, png_bytep data, png_size_t length) {
    static_cast<std::string*>(png_library().get_io_ptr(png))
        ->append(reinterpret_cast<const char*>(data), length);
}

}  // namespace

std::optional<std::string> encode_png(std::span<const std::uint8_t> pixels, int width, int height,
                                      PngColour colour) {
    const PngLibrary& lib = png_library();
    const std::size_t row_bytes = std::size_t(width) * std::size_t(colour);
    std::string bytes;
    png_structp png = lib.create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? lib.create_info_struct(png) : nullptr;
    volatile bool done = false;  // volatile: read after a longjmp
    // libpng reports errors by longjmp (what png_jmpbuf() sets up, spelled out because the
    // functions are the loaded library's): nothing with a destructor is made between here and it.
    if (png && info && setjmp(*lib.set_longjmp_fn(png, std::longjmp, sizeof(std::jmp_buf))) == 0) {
        lib.set_write_fn(png, &bytes, append_to_string, nullptr);
        lib.set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8,
                     colour == PngColour::gray ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        lib.write_info(png, info);
        for (int y = 0; y < height; ++y)
            lib.write_row(png, pixels.data() + std::size_t(y) * row_bytes);
        lib.write_end(png, nullptr);
        done = true;
    }
    lib.destroy_write_struct(&png, &info);
    if (!done) return std::nullopt;
    return bytes;
}

}  // namespace vq
