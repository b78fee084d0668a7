// libvq.so exports exactly the functions vq.h declares (and its symbol version), nothing of the
// C++ library inside it.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

// The functions vq.h declares: every vq_NAME followed by '(' outside comments. (Scanned by hand:
// std::regex draws GCC's -Wmaybe-uninitialized false positives under the sanitizers.)
std::set<std::string> declared_functions() {
    std::ifstream file(VQ_HEADER_PATH);
    std::stringstream text;
    text << file.rdbuf();
    std::string code = text.str();
    for (std::size_t open; (open = code.find("/*")) != std::string::npos;)
        code.erase(open, code.find("*/", open) + 2 - open);
    const auto is_name_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    std::set<std::string> names;
    for (std::size_t at = code.find("vq_"); at != std::string::npos;
         at = code.find("vq_", at + 1)) {
        if (at > 0 && is_name_char(code[at - 1])) continue;
        std::size_t end = at;
        while (end < code.size() && is_name_char(code[end])) ++end;
        std::size_t next = end;
        while (next < code.size() && std::isspace(static_cast<unsigned char>(code[next]))) ++next;
        if (next < code.size() && code[next] == '(') names.insert(code.substr(at, end - at));
    }
    return names;
}

TEST(CapiExports, OnlyTheHeadersFunctions) {
    const std::string command = std::string("nm -D --defined-only ") + VQ_LIBRARY_PATH + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[4096];
    while (const std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    ASSERT_EQ(pclose(pipe), 0) << command << ":\n" << output;

    // "ADDRESS TYPE NAME@@VQ_0" lines; the version node itself is an absolute symbol.
    std::set<std::string> functions, others;
    std::istringstream lines(output);
    std::string address, type, name;
    while (lines >> address >> type >> name) {
        name = name.substr(0, name.find('@'));
        (type == "T" ? functions : others).insert(name);
    }
    EXPECT_EQ(functions, declared_functions()) << output;
    EXPECT_EQ(others, std::set<std::string>{"VQ_0"}) << output;
}

}  // namespace
