# Build time of the binding files (cpp/bindings/*.cpp), most of a cold build: each one parses
# pybind11 and the core's headers, instantiates pybind11's templates and optimises them at -O3
# (BindBuffer.cpp alone, -ftime-report: parsing 3.1, instantiation 1.7, optimisation 6.1 CPU-s).
#   DX12KIT_UNITY_BATCH  the binding files are compiled N to a translation unit (CMake's unity
#                        build): each batch parses the headers once and emits each shared pybind11
#                        instantiation once. 0 compiles each file alone (quicker while editing one).
#   DX12KIT_PCH          the headers every binding file shares, precompiled once per target. Off:
#                        on top of the unity build it does not pay (below), and the precompiled
#                        header is one serial 12 CPU-s step before any batch can start.
# Measured 2026-11-29 (gcc 12, -O3, ccache off, user+sys CPU-s; the machine at load ~20, so wall
# times say little): the first 8 binding files 80.9 CPU-s one by one; as one unit 22.1, or 20.8 over
# the precompiled header (which costs 12.1 once, for 7 units); -O2 instead of -O3 saves 8% (not
# taken). All of dx12core (43 files, link included) as built (unity, no PCH): 130.9 CPU-s (138.8 with PCH), against
# ~435 extrapolated from the 8 one by one (10.1 per file). Module.cpp stays alone (its own
# compile definition keeps CMake from batching it). Files of a batch share one scope: a name in
# one file's anonymous namespace can clash with, or hide, another's (ExceptionTranslation.cpp).
set(DX12KIT_UNITY_BATCH 8 CACHE STRING "Binding files per translation unit (unity build); 0: one file each")
set(DX12KIT_CORE_UNITY_BATCH 8 CACHE STRING "Core files (dx12kit_alloc, _shaders, _gpu) per translation unit; 0: one file each")
option(DX12KIT_PCH "Precompile the headers the binding files share" OFF)

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

# The core libraries (dx12kit_alloc, dx12kit_shaders, dx12kit_gpu) batched the same way
# (DX12KIT_CORE_UNITY_BATCH): the core's 58 files parse mostly the same headers (6 of them, parsed
# alone: 7.3 CPU-s, as one unit: 3.2). Files whose internal names clash with another file's are
# compiled alone (SKIP_UNITY_BUILD_INCLUSION in cpp/CMakeLists.txt; tests/test_unity_names.py).
function(dx12kit_core_build_speed target)
  if(DX12KIT_CORE_UNITY_BATCH GREATER 0)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${DX12KIT_CORE_UNITY_BATCH})
  endif()
endfunction()
