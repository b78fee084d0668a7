#include "frame_arrays.hpp"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>
#include <pybind11/numpy.h>

#include "vq/error.hpp"

namespace vq::python {
namespace py = pybind11;

namespace {

constexpr const char* plane_names[] = {"Y", "U", "V"};

std::string shape_of(const py::array& array) {
    std::string text = "(";
    for (py::ssize_t d = 0; d < array.ndim(); ++d)
        text += fmt::format("{}{}", d > 0 ? ", " : "", array.shape(d));
    return text + (array.ndim() == 1 ? ",)" : ")");
}

std::string type_name(py::handle object) {
    return py::str(py::type::handle_of(object).attr("__name__"));
}

// `object` as an array of the format's sample type, or a usage error naming it.
py::array sample_array(py::handle object, const std::string& what, const VideoFormat& format) {
    const bool wide = format.bit_depth > 8;
    if (!py::isinstance<py::array>(object))
        throw usage_error(fmt::format("{}: expected a numpy array, got {}", what, type_name(object)));
    auto array = py::reinterpret_borrow<py::array>(object);
    // array_t's check is numpy's type equivalence: native byte order only.
    const bool right_type = wide ? py::isinstance<py::array_t<std::uint16_t>>(array)
                                 : py::isinstance<py::array_t<std::uint8_t>>(array);
    if (!right_type)
        throw usage_error(fmt::format("{}: expected {} array for {}-bit video, got {}", what,
                                      wide ? "uint16" : "uint8", format.bit_depth,
                                      std::string(py::str(array.dtype()))));
    return array;
}

bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing();
#else
    return _Py_IsFinalizing();
#endif
}

// A buffer that borrows the array's memory: it holds a reference to the array and drops it, with
// the GIL, from whichever thread lets the last Picture go (often a worker's).
FrameBuffer borrow(py::array array) {
    auto* data = static_cast<std::byte*>(const_cast<void*>(array.data()));
    PyObject* owner = array.release().ptr();
    return FrameBuffer(data, [owner](std::byte*) {
        // At interpreter exit the array's memory goes with the interpreter; touching it then
        // (or taking a GIL that no longer exists) would crash.
        if (!Py_IsInitialized() || interpreter_finalizing()) return;
        const PyGILState_STATE state = PyGILState_Ensure();
        Py_DECREF(owner);
        PyGILState_Release(state);
    });
}

FrameBuffer new_buffer(const VideoFormat& format, const BufferAllocator& allocator) {
    if (allocator) return allocator(format.frame_bytes());
    return FrameBuffer(new std::byte[format.frame_bytes()]);
}

Picture from_packed(py::array array, const std::string& name, const VideoFormat& format,
                    const BufferAllocator& allocator) {
    const std::size_t samples = format.frame_bytes() / format.bytes_per_sample();
    const bool packed_shape =
        (array.ndim() == 2 && array.shape(1) == format.width &&
         std::size_t(array.shape(0)) * std::size_t(format.width) == samples) ||
        (array.ndim() == 1 && std::size_t(array.shape(0)) == samples);
    if (!packed_shape) {
        const std::string expected =
            samples % std::size_t(format.width) == 0
                ? fmt::format("shape ({}, {}) or ({},)", samples / std::size_t(format.width),
                              format.width, samples)
                : fmt::format("shape ({},)", samples);
        throw usage_error(fmt::format(
            "{}: a single array must hold the whole {} frame (Y, then U, then V), {}; got shape "
            "{} (pass a tuple (Y, U, V) for separate planes)",
            name, describe(format), expected, shape_of(array)));
    }
    if (!(array.flags() & py::array::c_style))
        throw usage_error(fmt::format(
            "{}: the frame array's strides do not match its packed layout (it is a view, not "
            "C-contiguous); pass numpy.ascontiguousarray(...) or a tuple (Y, U, V)",
            name));
    if (!allocator) return Picture(format, borrow(std::move(array)));
    Picture picture(format, new_buffer(format, allocator));
    std::memcpy(picture.data(), array.data(), format.frame_bytes());
    return picture;
}

Picture from_planes(const py::sequence& planes, const std::string& name, const VideoFormat& format,
                    const BufferAllocator& allocator) {
    if (planes.size() != std::size_t(format.plane_count()))
        throw usage_error(fmt::format("{}: expected {} for {} video, got a sequence of {}", name,
                                      format.plane_count() == 1 ? "(Y,)" : "a tuple (Y, U, V)",
                                      describe(format), planes.size()));
    Picture picture(format, new_buffer(format, allocator));
    const std::size_t sample = format.bytes_per_sample();
    for (int p = 0; p < format.plane_count(); ++p) {
        const std::string what = fmt::format("{} plane {}", name, plane_names[p]);
        const py::array plane = sample_array(planes[p], what, format);
        const int width = format.plane_width(p), height = format.plane_height(p);
        if (plane.ndim() != 2 || plane.shape(0) != height || plane.shape(1) != width)
            throw usage_error(fmt::format("{}: expected shape ({}, {}) for {} video, got {}", what,
                                          height, width, describe(format), shape_of(plane)));
        if (width > 1 && plane.strides(1) != py::ssize_t(sample))
            throw usage_error(fmt::format(
                "{}: samples are {} bytes apart, not {} (not contiguous within a row); pass "
                "numpy.ascontiguousarray(...)",
                what, plane.strides(1), sample));
        const auto* source = static_cast<const std::byte*>(plane.data());
        std::byte* destination = picture.data() + format.plane_offset(p);
        const std::size_t row_bytes = std::size_t(width) * sample;
        for (int y = 0; y < height; ++y)
            std::memcpy(destination + std::size_t(y) * row_bytes, source + y * plane.strides(0),
                        row_bytes);
    }
    return picture;
}

}  // namespace

Picture picture_from(py::handle frame, const std::string& name, const VideoFormat& format,
                     const BufferAllocator& allocator) {
    if (py::isinstance<py::tuple>(frame) || py::isinstance<py::list>(frame))
        return from_planes(py::reinterpret_borrow<py::sequence>(frame), name, format, allocator);
    if (!py::isinstance<py::array>(frame))
        throw usage_error(fmt::format(
            "{}: expected a numpy array or a tuple (Y, U, V) of arrays, got {}", name,
            type_name(frame)));
    return from_packed(sample_array(frame, name, format), name, format, allocator);
}

}  // namespace vq::python
