// vq::Error: the one exception type the library throws. Its kind decides the CLI's exit status.
#pragma once

#include <stdexcept>
#include <string>

namespace vq {

enum class ErrorKind {
    usage,    // a bad flag, option string or configuration: exit status 2
    runtime,  // a failure while reading, computing or writing: exit status 1
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const noexcept { return kind_; }

private:
    ErrorKind kind_;
};

inline Error usage_error(const std::string& message) { return Error(ErrorKind::usage, message); }
inline Error runtime_error(const std::string& message) {
    return Error(ErrorKind::runtime, message);
}

}  // namespace vq
