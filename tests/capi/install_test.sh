#!/bin/bash
# The C interface as a user gets it: `cmake --install` into a fresh prefix, then the README's C
# example (the first ```c block of its "## C API" section, exactly as printed) built against the
# installed tree twice, once through pkg-config and once as a CMake project with find_package(vq),
# and both programs run.
#
# Usage: install_test.sh CMAKE GENERATOR BUILD_DIR SOURCE_DIR WORK_DIR [EXTRA_CFLAGS]
# GENERATOR: the build's own CMake generator (the machine may have ninja and no make).
# EXTRA_CFLAGS: the sanitizer flags of a -DVQ_SANITIZE=ON build, whose library needs their runtime.
set -euo pipefail
cmake=$1 generator=$2 build=$3 source=$4 work=$5 extra_cflags=${6:-}

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log"

awk '/^## C API/ { section = 1 }
     section && !inside && /^```c$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$source/README.md" > "$work/example.c"
if [ ! -s "$work/example.c" ]; then
    echo "README.md has no \`\`\`c block in its '## C API' section" >&2
    exit 1
fi

pc_file=$(find "$prefix" -name vq.pc)
libdir=$(dirname "$(dirname "$pc_file")")
export PKG_CONFIG_PATH=$(dirname "$pc_file")
# shellcheck disable=SC2046 # pkg-config's words are separate arguments
cc -std=c99 -Wall -Wextra -pedantic -Werror $extra_cflags "$work/example.c" -o "$work/example_pc" \
    $(pkg-config --cflags --libs vq) -Wl,-rpath,"$libdir"

mkdir -p "$work/project"
cp "$work/example.c" "$work/project/"
cat > "$work/project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(vq_example LANGUAGES C)
find_package(vq 0 REQUIRED)
add_executable(example example.c)
target_link_libraries(example PRIVATE vq::vq)
CMAKE
"$cmake" -S "$work/project" -B "$work/project/build" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="-std=c99 -Wall -Wextra -pedantic -Werror $extra_cflags" \
    > "$work/project.log"
"$cmake" --build "$work/project/build" >> "$work/project.log"

"$work/example_pc" > "$work/out_pc.txt"
"$work/project/build/example" > "$work/out_cmake.txt"
cmp "$work/out_pc.txt" "$work/out_cmake.txt"
cat "$work/out_pc.txt"
# The example prints each score's mean: VMAF's and PSNR's among them.
grep -Eq '^vmaf [0-9]+\.[0-9]+$' "$work/out_pc.txt"
grep -Eq '^psnr_y [0-9]+\.[0-9]+$' "$work/out_pc.txt"

# The installed library finds its FFmpeg module beside itself: a file that is not Y4M reaches
# FFmpeg (which refuses it) or, in a build without FFmpeg, the message saying so.
cat > "$work/files.c" <<'C'
#include <stdio.h>
#include <vq/vq.h>
int main(int argc, char** argv) {
    vq_result* result;
    (void)argc;
    if (vq_run_files(argv[1], argv[1], NULL, NULL, NULL, &result) == VQ_OK) return 1;
    printf("%s\n", vq_last_error());
    return 0;
}
C
# shellcheck disable=SC2046
cc -std=c99 $extra_cflags "$work/files.c" -o "$work/files" $(pkg-config --cflags --libs vq) \
    -Wl,-rpath,"$libdir"
"$work/files" "$work/example.c" > "$work/files.txt"
cat "$work/files.txt"
if grep -q "cannot load the FFmpeg module" "$work/files.txt"; then
    echo "the installed libvq.so does not find its FFmpeg module" >&2
    exit 1
fi
echo "install_test: ok"
