// Where -o writes the report, done so that writing never damages what the path names:
//  - a regular file or a new path: the report goes to a temporary file in the same folder,
//    renamed into place once complete, so a failed or interrupted run leaves the old file as it
//    was; a replaced file keeps its mode (and, where permitted, its owner);
//  - a symbolic link: the same, at the file the link leads to; the link stays a link;
//  - anything else (a character device such as /dev/null, a FIFO, a socket, a terminal,
//    /dev/stdout and the other /proc links to open files) and "-" (standard output): written
//    directly, never renamed over.
// The path is checked when the object is made, before a single frame is read.
#pragma once

#include <string>
#include <string_view>

namespace vq::cli {

class OutputFile {
public:
    // Throws vq::Error: usage for a directory, a missing parent folder, a parent that is not a
    // folder, or a folder or file without write permission; runtime when the temporary file
    // cannot be made for another reason.
    explicit OutputFile(std::string path);
    ~OutputFile();  // removes the temporary file if publish() did not complete
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Writes `contents` and puts them in place. Every write, the sync and the close are checked:
    // throws vq::Error (runtime) "cannot write 'PATH': <reason>" (a full disk, /dev/full).
    void publish(std::string_view contents);

private:
    [[noreturn]] void fail(int error) const;

    std::string path_;       // as given
    std::string target_;     // what is written: path_ or, through its links, a regular file
    std::string temporary_;  // beside target_, renamed over it; empty when writing directly
    int fd_ = -1;            // the temporary file's; direct targets are opened by publish()
};

}  // namespace vq::cli
