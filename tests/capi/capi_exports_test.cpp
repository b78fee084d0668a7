// libvq.so exports exactly the functions vq.h declares (and its symbol version), nothing of the
// C++ library inside it.
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

// The functions vq.h declares: every NAME( outside comments.
std::set<std::string> declared_functions() {
    std::ifstream file(VQ_HEADER_PATH);
    std::stringstream text;
    text << file.rdbuf();
    const std::string code =
        std::regex_replace(text.str(), std::regex(R"(/\*[\s\S]*?\*/)"), std::string());
    std::set<std::string> names;
    const std::regex declaration(R"(\b(vq_\w+)\s*\()");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), declaration);
         it != std::sregex_iterator(); ++it)
        names.insert((*it)[1]);
    return names;
}

TEST(CapiExports, OnlyTheHeadersFunctions) {
    const std::string command =
        std::string("nm -D --defined-only ") + VQ_LIBRARY_PATH + " 2>&1";
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
