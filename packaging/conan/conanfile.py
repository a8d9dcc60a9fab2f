# Conan 2 recipe for dra: a header-only library packaged exactly as
# `cmake --install` lays it out (headers, draConfig.cmake, dra.pc; with the
# option cli=True also the dra command in bin/, linked with mimalloc, and
# bin/kubectl-dra, a link to it).
import os

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy


class DraConan(ConanFile):
    name = "dra"
    version = "0.1.0"
    description = ("Header-only C++20 engine for Kubernetes Dynamic Resource Allocation: "
                   "ingest, validate, flatten, CEL selectors, allocation")
    license = "Apache-2.0"
    url = "https://github.com/dra-project/dra"
    topics = ("kubernetes", "dra", "scheduling", "cel", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    options = {"cli": [True, False]}
    default_options = {"cli": False}
    no_copy_source = True

    def export_sources(self):
        # The recipe lives in packaging/conan/; the sources at the repository root.
        root = os.path.join(self.recipe_folder, "..", "..")
        for pattern in ("CMakeLists.txt", "cmake/*", "include/*", "src/*", "examples/*", "LICENSE"):
            copy(self, pattern, root, self.export_sources_folder)

    def requirements(self):
        self.requires("range-v3/0.12.0")
        self.requires("simdjson/3.0.1")
        self.requires("re2/20230301")
        self.requires("libyaml/0.2.5")
        if self.options.cli:
            # The command runs on mimalloc (examples/cli/heap.hpp); it must replace malloc, not sit beside it.
            self.requires("mimalloc/2.1.2")

    def configure(self):
        if self.options.cli:
            self.options["mimalloc"].override = True

    def validate(self):
        check_min_cppstd(self, 20)

    def layout(self):
        cmake_layout(self)

    def generate(self):
        CMakeDeps(self).generate()
        toolchain = CMakeToolchain(self)
        for option in ("TESTS", "EXAMPLES", "BENCHMARKS", "FUZZERS"):
            toolchain.cache_variables[f"DRA_BUILD_{option}"] = False
        toolchain.cache_variables["DRA_BUILD_CLI"] = bool(self.options.cli)
        toolchain.cache_variables["DRA_INSTALL"] = True
        toolchain.generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        if self.options.cli:
            cmake.build()

    def package(self):
        CMake(self).install()
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))

    def package_id(self):
        # Headers alone are the same package for every configuration; the command is not.
        if not self.info.options.cli:
            self.info.clear()

    def package_info(self):
        # Consumers use the draConfig.cmake that `cmake --install` wrote.
        self.cpp_info.set_property("cmake_find_mode", "none")
        self.cpp_info.builddirs = [os.path.join("share", "cmake", "dra")]
        self.cpp_info.bindirs = ["bin"] if self.options.cli else []
        self.cpp_info.libdirs = []
