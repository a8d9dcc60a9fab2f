# vcpkg port of dra: installs exactly what dra's `cmake --install` installs.
set(VCPKG_BUILD_TYPE release)  # header-only

vcpkg_from_github(
  OUT_SOURCE_PATH SOURCE_PATH
  REPO dra-project/dra
  REF "v${VERSION}"
  SHA512 0  # set when a release is tagged
  HEAD_REF main
)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    -DDRA_BUILD_TESTS=OFF
    -DDRA_BUILD_EXAMPLES=OFF
    -DDRA_BUILD_BENCHMARKS=OFF
    -DDRA_BUILD_FUZZERS=OFF
    -DDRA_INSTALL=ON
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/dra)

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/lib" "${CURRENT_PACKAGES_DIR}/debug")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
