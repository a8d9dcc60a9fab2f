# vcpkg overlay port of dra: builds from the checkout this port lives in
# (packaging/vcpkg/ports/dra -> the repository root) and installs exactly
# what dra's `cmake --install` installs. Use it with
#   vcpkg install dra --overlay-ports=<checkout>/packaging/vcpkg/ports
# A registry port would replace SOURCE_PATH with vcpkg_from_github on a tag.
# The feature "cli" also builds the dra command, linked with mimalloc (installed as tools/dra/dra, with
# tools/dra/kubectl-dra, the kubectl plugin name, a link to it).
set(VCPKG_BUILD_TYPE release)  # header-only
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)

vcpkg_check_features(OUT_FEATURE_OPTIONS FEATURE_OPTIONS FEATURES cli DRA_BUILD_CLI)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    ${FEATURE_OPTIONS}
    -DDRA_BUILD_TESTS=OFF
    -DDRA_BUILD_EXAMPLES=OFF
    -DDRA_BUILD_BENCHMARKS=OFF
    -DDRA_BUILD_FUZZERS=OFF
    -DDRA_INSTALL=ON
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/dra)
vcpkg_fixup_pkgconfig()  # lib/pkgconfig/dra.pc
if("cli" IN_LIST FEATURES)
  vcpkg_copy_tools(TOOL_NAMES dra kubectl-dra AUTO_CLEAN)
endif()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
