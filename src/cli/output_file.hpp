// Where -o writes the report, done so that writing never damages what the path names:
//  - a regular file or a new path: the report goes to an unnamed file in the same folder
//    (O_TMPFILE), named and renamed into place once complete, so a failed or interrupted run, even
//    one killed by SIGKILL, leaves the old file as it was and no temporary file; where the file
//    system has no unnamed files, a named temporary (".XXXXXX.vq-partial") is made only once the
//    run is done, removed on any catchable signal; a replaced file keeps its mode (and, where
//    permitted, its owner);
//  - a symbolic link: the same, at the file the link leads to; the link stays a link;
//  - anything else (a character device such as /dev/null, a FIFO, a socket, a terminal,
//    /dev/stdout and the other /proc links to open files) and "-" (standard output): written
//    directly, never renamed over.
// The path is checked when the object is made, before a single frame is read.
#pragma once

#include <sys/stat.h>

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace vq::cli {

class OutputFile {
public:
    // Throws vq::Error: usage for an empty path, a directory, a missing parent folder, a parent
    // that is not a folder, or a folder or file without write permission; runtime when the
    // temporary file cannot be made for another reason.
    explicit OutputFile(std::string path);
    ~OutputFile();  // removes the temporary file if publish() did not complete
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Writes what `write` streams (as it streams it: a report of any length is never held whole)
    // and puts it in place. Every write, the sync and the close are checked: throws vq::Error
    // (runtime) "cannot write 'PATH': <reason>" (a full disk, /dev/full).
    void publish(const std::function<void(std::ostream&)>& write);
    void publish(std::string_view contents);

private:
    [[noreturn]] void fail(int error) const;
    void write_to(int fd, const std::function<void(std::ostream&)>& write) const;

    std::string path_;                     // as given
    std::string target_;                   // what is written: path_ or, through its links, a file
    bool replaces_file_ = false;           // target_ is a regular file or a new one, renamed over
    std::optional<struct stat> replaced_;  // the regular file replaced, whose mode is kept
    std::string temporary_;  // the named temporary beside target_ while publish() renames it
    int fd_ = -1;            // the unnamed file's; direct targets are opened by publish()
};

}  // namespace vq::cli
