"""Installs the `onyx` package built by CMake (target onyx_python) into the
current environment, with no index and no compiler run here:

    cmake --build build --target onyx_python
    pip install --no-build-isolation --no-index python/

ONYX_BUILD_DIR names the CMake build folder (default: ../build beside this
file). The package's files are those of build/python/onyx: the Python layer
and the compiled extension module `_onyx`.
"""

import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

here = os.path.dirname(os.path.abspath(__file__))
build_dir = os.environ.get("ONYX_BUILD_DIR", os.path.join(here, "..", "build"))
package_dir = os.path.join(build_dir, "python", "onyx")


class copy_built_package(build_py):
    """Takes the package from the CMake build instead of the sources."""

    def run(self):
        modules = glob.glob(os.path.join(package_dir, "_onyx*.so"))
        if not modules:
            raise SystemExit(
                "onyx: no compiled module in %s; build it first: "
                "cmake --build %s --target onyx_python (or set ONYX_BUILD_DIR)" % (package_dir, build_dir)
            )
        target = os.path.join(self.build_lib, "onyx")
        os.makedirs(target, exist_ok=True)
        for f in glob.glob(os.path.join(package_dir, "*.py")) + modules:
            shutil.copy2(f, target)


try:
    from wheel.bdist_wheel import bdist_wheel

    class platform_wheel(bdist_wheel):
        """The wheel holds a compiled module: not a pure-Python wheel."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

    wheel_commands = {"bdist_wheel": platform_wheel}
except ImportError:
    wheel_commands = {}

setup(
    name="onyx",
    version="0.1.0",
    description="onyx, a C++20 ONNX inference runtime, with ONNX Runtime's Python API",
    packages=["onyx"],
    cmdclass={"build_py": copy_built_package, **wheel_commands},
    python_requires=">=3.9",
    zip_safe=False,
)
