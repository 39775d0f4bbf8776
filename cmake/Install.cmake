# Installation and packaging (included last by the top CMakeLists.txt).
#
#   cmake --install build/llvm-19 --prefix /opt/torch-tidy
#   cpack --config build/llvm-19/CPackConfig.cmake -G DEB     # torch-tidy-llvm19_<version>_<arch>.deb
#
# Layout under the prefix:
#   bin/run-torch-tidy                    the lint gate, finding the plugin below by default
#   bin/torch-tidy, bin/torch-clangd      the standalone executables, when they are built
#   lib/torch-tidy/llvm-N/TorchTidy.so    the plugin to --load, and next to it the
#   lib/torch-tidy/llvm-N/TorchTidyChecks.so  checks that TorchTidy.so loads from its own folder
#   lib/cmake/TorchTidy/                  find_package(TorchTidy): TorchTidy::plugin, torch_tidy_enable()
#   share/torch-tidy/                     Checks.def, README.md, docs/ (SARIF help text reads them)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# One folder per LLVM major: plugins for several majors can sit side by side,
# and the folder is private (no ldconfig, which a .so directly under lib/ or
# lib/<name>/ would make CPack call).
set(TORCH_TIDY_PLUGIN_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/torch-tidy/llvm-${LLVM_VERSION_MAJOR}")
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
      # Its manual page, compressed below.
      install(FILES "${CMAKE_BINARY_DIR}/install/${tool}.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
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

# --- Manual pages, licence, changelog -------------------------------------------
# Compressed as Debian wants them (gzip -9n: no name, no timestamp, so the same
# bytes every build).
function(torch_tidy_gzip in out)
  execute_process(COMMAND gzip -9nc "${in}" OUTPUT_FILE "${out}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${in} failed")
  endif()
endfunction()
foreach(tool run-torch-tidy torch-tidy torch-clangd)
  set(page "${CMAKE_SOURCE_DIR}/docs/man/${tool}.1")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${page}")
  torch_tidy_gzip("${page}" "${CMAKE_BINARY_DIR}/install/${tool}.1.gz")
endforeach()
# (The executables' pages are installed with them, in torch_tidy_install_executables.)
install(FILES "${CMAKE_BINARY_DIR}/install/run-torch-tidy.1.gz"
  DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")

set(TORCH_TIDY_PACKAGE_NAME "torch-tidy-llvm${LLVM_VERSION_MAJOR}")
set(TORCH_TIDY_PACKAGE_MAINTAINER "torch-tidy developers <dev@torch-tidy.invalid>" CACHE STRING
  "Maintainer field of the .deb (set it to your team when you publish the package)")
set(doc "${CMAKE_INSTALL_DATADIR}/doc/${TORCH_TIDY_PACKAGE_NAME}")
# Debian's machine-readable copyright file, from LICENSE.
file(READ "${CMAKE_SOURCE_DIR}/LICENSE" licence)
string(REGEX REPLACE ".*---- LLVM Exceptions to the Apache 2.0 License ----\n\n" "" exception "${licence}")
string(REGEX REPLACE "\n+$" "" exception "${exception}")
string(REGEX REPLACE "\n\n" "\n.\n" exception "${exception}")
string(REGEX REPLACE "\n" "\n " exception "${exception}")
file(WRITE "${CMAKE_BINARY_DIR}/install/copyright"
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: torch-tidy
Source: the torch-tidy repository

Files: *
Copyright: 2026 torch-tidy developers
License: Apache-2.0 WITH LLVM-exception
 Licensed under the Apache License, Version 2.0 (the 'License'); you may not
 use this software except in compliance with the License.
 .
 On Debian systems, the full text of the Apache License, Version 2.0 can be
 found in the file `/usr/share/common-licenses/Apache-2.0'.
 .
 ---- LLVM Exceptions to the Apache 2.0 License ----
 .
 ${exception}
")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/LICENSE")
# A native package's changelog: one entry for this version, pointing at CHANGELOG.md.
file(WRITE "${CMAKE_BINARY_DIR}/install/changelog"
"${TORCH_TIDY_PACKAGE_NAME} (${PROJECT_VERSION}) unstable; urgency=medium

  * Release ${PROJECT_VERSION}; what changed is in
    /usr/share/torch-tidy/CHANGELOG.md.

 -- ${TORCH_TIDY_PACKAGE_MAINTAINER}  Wed, 02 Dec 2026 00:00:00 +0000
")
torch_tidy_gzip("${CMAKE_BINARY_DIR}/install/changelog" "${CMAKE_BINARY_DIR}/install/changelog.gz")
install(FILES "${CMAKE_BINARY_DIR}/install/copyright" "${CMAKE_BINARY_DIR}/install/changelog.gz"
  DESTINATION "${doc}")
install(FILES LICENSE DESTINATION "${TORCH_TIDY_DATA_INSTALL_DIR}")
if(EXISTS "${CMAKE_SOURCE_DIR}/CHANGELOG.md")
  install(FILES CHANGELOG.md DESTINATION "${TORCH_TIDY_DATA_INSTALL_DIR}")
endif()

# --- CPack: a .deb per LLVM major ----------------------------------------------
set(CPACK_PACKAGE_NAME "${TORCH_TIDY_PACKAGE_NAME}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "torch-tidy developers")
set(CPACK_PACKAGE_CONTACT "${TORCH_TIDY_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "clang-tidy checks for LibTorch training bugs (for clang-tidy-${LLVM_VERSION_MAJOR})")
# Lines of at most 80 columns, as Debian's control files want them.
set(CPACK_PACKAGE_DESCRIPTION
  "torch-tidy is a clang-tidy plugin whose torch-* checks find the bugs that let
LibTorch training code compile and run while the model learns the wrong thing.
This package holds the plugin for clang-tidy-${LLVM_VERSION_MAJOR}, the run-torch-tidy lint gate
(parallel, changed-lines, SARIF) and the find_package(TorchTidy) CMake package.")
set(CPACK_STRIP_FILES ON)
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
