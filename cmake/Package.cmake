# The C++ package: one static library with the whole core, target dx12kit::core.
#
#   dx12kit_core (dx12kit::core)  libdx12kit.a / dx12kit.lib: the objects of dx12kit_alloc,
#                                 dx12kit_shaders and dx12kit_gpu (compiled once, for those targets;
#                                 this archive only collects them), the public headers
#                                 (cpp/include/dx12kit/**), C++17, and what the core links: vkd3d
#                                 (Vkd3d::Vkd3d, cmake/FindVkd3d.cmake) on Linux, d3d12/dxgi/dxguid
#                                 (dx12kit::d3d12) on Windows, and the platform's threads.
#
# With DX12KIT_INSTALL (on for a plain CMake build, off under scikit-build-core: the wheel carries the
# Python module only) `cmake --install` puts the headers, the library and a CMake package
# (lib/cmake/dx12kit: dx12kitConfig.cmake, its version file and the exported targets) under the
# prefix, so that an engine writes
#     find_package(dx12kit CONFIG REQUIRED)
#     target_link_libraries(engine PRIVATE dx12kit::core)
# (tests/cpp_consumer/ is such a project; scripts/test-cpp-package.sh builds it against an install).
# Without DX12KIT_INSTALL the archive is left out of the default build; a project that includes
# dx12kit with add_subdirectory/FetchContent links dx12kit::core all the same.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(DX12KIT_INSTALL)
  add_library(dx12kit_core STATIC)
else()
  add_library(dx12kit_core STATIC EXCLUDE_FROM_ALL)
endif()
add_library(dx12kit::core ALIAS dx12kit_core)
target_sources(dx12kit_core PRIVATE
  $<TARGET_OBJECTS:dx12kit_alloc> $<TARGET_OBJECTS:dx12kit_shaders> $<TARGET_OBJECTS:dx12kit_gpu>)
set_target_properties(dx12kit_core PROPERTIES OUTPUT_NAME dx12kit EXPORT_NAME core LINKER_LANGUAGE CXX)
# The headers: the source tree while building, <prefix>/include once installed. (external/, the
# d3dx12-style helpers, is private to the core's sources: no public header includes it.)
target_include_directories(dx12kit_core PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/cpp/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(dx12kit_core PUBLIC cxx_std_17)
find_package(Threads REQUIRED)  # (cpp/'s Threads::Threads is visible in cpp/ only)
target_link_libraries(dx12kit_core PUBLIC Threads::Threads)
if(WIN32)
  target_link_libraries(dx12kit_core PUBLIC dx12kit_d3d12)
  set_target_properties(dx12kit_d3d12 PROPERTIES EXPORT_NAME d3d12)
else()
  target_link_libraries(dx12kit_core PUBLIC Vkd3d::Vkd3d)
endif()

if(NOT DX12KIT_INSTALL)
  return()
endif()

set(_dx12kit_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/dx12kit")
set(_dx12kit_exported dx12kit_core)
if(WIN32)
  list(APPEND _dx12kit_exported dx12kit_d3d12)
endif()
install(TARGETS ${_dx12kit_exported} EXPORT dx12kitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The whole header tree by directory (folders are renamed and added without touching this file).
install(DIRECTORY "${PROJECT_SOURCE_DIR}/cpp/include/dx12kit" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
install(EXPORT dx12kitTargets NAMESPACE dx12kit:: FILE dx12kitTargets.cmake DESTINATION ${_dx12kit_cmake_dir})
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/dx12kitConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/dx12kitConfig.cmake" INSTALL_DESTINATION ${_dx12kit_cmake_dir})
# 0.x: a new minor version may break the C++ API, so only the same major.minor is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/dx12kitConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
set(_dx12kit_config_files "${PROJECT_BINARY_DIR}/dx12kitConfig.cmake" "${PROJECT_BINARY_DIR}/dx12kitConfigVersion.cmake")
if(NOT WIN32)
  # Vkd3d::Vkd3d is recreated in the consumer by the same find module (pkg-config).
  list(APPEND _dx12kit_config_files "${CMAKE_CURRENT_LIST_DIR}/FindVkd3d.cmake")
endif()
install(FILES ${_dx12kit_config_files} DESTINATION ${_dx12kit_cmake_dir})
