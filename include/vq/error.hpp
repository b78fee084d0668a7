// vq::Error: the one exception type the library throws. Its kind decides the CLI's exit status.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace vq {

// Text for a one-line message: every control character (a newline or an escape sequence in a
// file name, say) becomes \xNN, so that no name can break a message over lines or drive the
// terminal.
inline std::string one_line(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string line;
    line.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            line += c;
        } else {
            line += "\\x";
            line += hex[byte >> 4];
            line += hex[byte & 15];
        }
    }
    return line;
}

enum class ErrorKind {
    usage,    // a bad flag, option string or configuration: exit status 2
    runtime,  // a failure while reading, computing or writing: exit status 1
};

class Error : public std::runtime_error {
public:
    // Every message is one line, whatever names it quotes.
    Error(ErrorKind kind, const std::string& message)
        : std::runtime_error(one_line(message)), kind_(kind) {}
    ErrorKind kind() const noexcept { return kind_; }

private:
    ErrorKind kind_;
};

inline Error usage_error(const std::string& message) { return Error(ErrorKind::usage, message); }
inline Error runtime_error(const std::string& message) {
    return Error(ErrorKind::runtime, message);
}

}  // namespace vq
