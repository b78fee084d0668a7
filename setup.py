"""Builds the Python package `vq`: the pure-Python layer from python/vq and the native module
vq._vq built by CMake (Release, -DVQ_PYTHON=ON, only that target), with the FFmpeg module beside
it when vq is built with FFmpeg. Extra CMake arguments come from $VQ_CMAKE_ARGS (e.g.
"-DVQ_CUDA=OFF"); ccache and Ninja are used when present."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        package_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build_dir = Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                     "-DVQ_PYTHON=ON", "-DVQ_TESTS=OFF", "-DVQ_BENCH=OFF",
                     f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
                          "-DCMAKE_CUDA_COMPILER_LAUNCHER=ccache"]
        configure += shlex.split(os.environ.get("VQ_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "vq_python", "-j",
                        str(os.cpu_count() or 1)], check=True)
        package_dir.mkdir(parents=True, exist_ok=True)
        built = build_dir / "python" / "vq"
        for library in [*built.glob("_vq*.so"), *built.glob("libvq_ffmpeg.so")]:
            shutil.copy2(library, package_dir / library.name)


def version() -> str:
    cmake = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(vq VERSION ([0-9.]+)", cmake).group(1)


setup(
    version=version(),
    packages=["vq"],
    package_dir={"vq": "python/vq"},
    package_data={"vq": ["py.typed"]},
    ext_modules=[CMakeExtension("vq._vq")],
    cmdclass={"build_ext": CMakeBuild},
    # Beside CMake's build folders (build*/ is ignored), not inside `build/`.
    options={"build": {"build_base": "build-pip"}},
    zip_safe=False,
)
