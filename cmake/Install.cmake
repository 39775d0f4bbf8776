# Installation and packaging (included last by the top CMakeLists.txt).
#
#   cmake --install build/llvm-19 --prefix /opt/torch-tidy
#   cpack --config build/llvm-19/CPackConfig.cmake -G DEB     # torch-tidy-llvm19_<version>_<arch>.deb
#
# Layout under the prefix:
#   bin/run-torch-tidy                    the lint gate, finding the plugin below by default
#   bin/torch-tidy, bin/torch-clangd      the standalone executables, when they are built
#   lib/torch-tidy/TorchTidy.so           the plugin to --load, and next to it the
#   lib/torch-tidy/TorchTidyChecks.so       checks that TorchTidy.so loads from its own folder
#   lib/cmake/TorchTidy/                  find_package(TorchTidy): TorchTidy::plugin, torch_tidy_enable()
#   share/torch-tidy/                     Checks.def, README.md, docs/ (SARIF help text reads them)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TORCH_TIDY_PLUGIN_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/torch-tidy")
set(TORCH_TIDY_DATA_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/torch-tidy")
set(TORCH_TIDY_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/TorchTidy")

# --- The plugin: both libraries in one folder ----------------------------------
install(TARGETS TorchTidy TorchTidyChecks
  LIBRARY DESTINATION "${TORCH_TIDY_PLUGIN_INSTALL_DIR}")

# --- The standalone executables (tools/), whenever they are defined ------------
# Deferred to the end of the top directory, so the order of add_subdirectory()
# and this file does not matter.
function(torch_tidy_install_executables)
  foreach(tool torch-tidy torch-clangd)
    if(TARGET ${tool})
      install(TARGETS ${tool} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL torch_tidy_install_executables)

# --- run-torch-tidy, told where the plugin and the docs are --------------------
function(torch_tidy_relative out from to)
  # Relative path between two install folders (each relative to the prefix, or absolute).
  foreach(v from to)
    if(NOT IS_ABSOLUTE "${${v}}")
      set(${v} "/prefix/${${v}}")
    endif()
  endforeach()
  file(RELATIVE_PATH rel "${from}" "${to}")
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()
set(TORCH_TIDY_INSTALL_LLVM_MAJOR "${LLVM_VERSION_MAJOR}")
torch_tidy_relative(TORCH_TIDY_INSTALL_PLUGIN_DIR "${CMAKE_INSTALL_BINDIR}" "${TORCH_TIDY_PLUGIN_INSTALL_DIR}")
torch_tidy_relative(TORCH_TIDY_INSTALL_DATA_DIR "${CMAKE_INSTALL_BINDIR}" "${TORCH_TIDY_DATA_INSTALL_DIR}")
configure_file(scripts/run-torch-tidy "${CMAKE_BINARY_DIR}/install/run-torch-tidy" @ONLY)
install(PROGRAMS "${CMAKE_BINARY_DIR}/install/run-torch-tidy" DESTINATION "${CMAKE_INSTALL_BINDIR}")

# --- Docs and the check list ---------------------------------------------------
install(FILES checks/Checks.def DESTINATION "${TORCH_TIDY_DATA_INSTALL_DIR}/checks")
install(FILES README.md .clang-tidy.example DESTINATION "${TORCH_TIDY_DATA_INSTALL_DIR}")
install(DIRECTORY docs/ DESTINATION "${TORCH_TIDY_DATA_INSTALL_DIR}/docs" FILES_MATCHING PATTERN "*.md")

# --- find_package(TorchTidy) ---------------------------------------------------
configure_package_config_file(cmake/TorchTidyConfig.cmake.in
  "${CMAKE_BINARY_DIR}/install/TorchTidyConfig.cmake"
  INSTALL_DESTINATION "${TORCH_TIDY_CMAKE_INSTALL_DIR}"
  PATH_VARS TORCH_TIDY_PLUGIN_INSTALL_DIR TORCH_TIDY_DATA_INSTALL_DIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/install/TorchTidyConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/install/TorchTidyConfig.cmake"
              "${CMAKE_BINARY_DIR}/install/TorchTidyConfigVersion.cmake"
  DESTINATION "${TORCH_TIDY_CMAKE_INSTALL_DIR}")

# --- CPack: a .deb per LLVM major ----------------------------------------------
set(CPACK_PACKAGE_NAME "torch-tidy-llvm${LLVM_VERSION_MAJOR}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "torch-tidy developers")
set(CPACK_PACKAGE_CONTACT "torch-tidy developers <dev@torch-tidy.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "clang-tidy checks for LibTorch training bugs (for clang-tidy-${LLVM_VERSION_MAJOR})")
set(CPACK_PACKAGE_DESCRIPTION
  "torch-tidy is a clang-tidy plugin whose torch-* checks find the bugs that let LibTorch \
training code compile and run while the model learns the wrong thing. This package holds \
the plugin for clang-tidy-${LLVM_VERSION_MAJOR}, the run-torch-tidy lint gate (parallel, \
changed-lines, SARIF) and the find_package(TorchTidy) CMake package.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-tidy-${LLVM_VERSION_MAJOR}, python3")
# The libraries the binaries link (libstdc++; libclang-cpp and gRPC for the
# standalone executables) become dependencies too, where dpkg-shlibdeps exists.
find_program(TORCH_TIDY_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(TORCH_TIDY_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "git")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libtorch-dev")
# One torch-tidy at a time: the packages for other LLVM majors share file names.
set(CPACK_DEBIAN_PACKAGE_PROVIDES "torch-tidy")
set(CPACK_DEBIAN_PACKAGE_CONFLICTS "torch-tidy")
set(CPACK_DEBIAN_PACKAGE_REPLACES "torch-tidy")
set(CPACK_SOURCE_GENERATOR "")
include(CPack)
