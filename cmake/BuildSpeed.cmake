# Build time of the binding files (cpp/bindings/*.cpp), most of a cold build: each one parses
# pybind11 and the core's headers (~3 CPU-s), instantiates pybind11's templates (~2 CPU-s) and
# optimises them (~6 CPU-s at -O3).
#   DX12KIT_UNITY_BATCH  the binding files are compiled N to a translation unit (CMake's unity
#                        build): each batch parses the headers once and emits each shared pybind11
#                        instantiation once. 0 compiles each file alone.
#   DX12KIT_PCH          the headers every binding file shares, precompiled once per target.
# Both are off for a target when the user set CMAKE_UNITY_BUILD / CMAKE_DISABLE_PRECOMPILE_HEADERS.
set(DX12KIT_UNITY_BATCH 8 CACHE STRING "Binding files per translation unit (unity build); 0: one file each")
option(DX12KIT_PCH "Precompile the headers the binding files share" ON)

function(dx12kit_build_speed target)
  if(DX12KIT_UNITY_BATCH GREATER 0)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${DX12KIT_UNITY_BATCH})
  endif()
  if(DX12KIT_PCH)
    target_precompile_headers(${target} PRIVATE
      <pybind11/pybind11.h> <pybind11/stl.h> <pybind11/numpy.h>
      "${PROJECT_SOURCE_DIR}/cpp/bindings/GpuArgs.hpp")
  endif()
endfunction()
