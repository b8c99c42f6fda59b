# The D3D12 platform on Windows: d3d12.h, dxgi1_6.h and their import libraries from the Windows SDK
# (MSVC, clang-cl) or from mingw-w64 (x86_64-w64-mingw32-g++-posix; Debian: mingw-w64-x86-64-dev).
# dx12kit needs nothing else: its d3dx12-style helpers are its own (external/d3dx12/D3dx12Lite.hpp,
# on the include path through dx12kit_gpu), the same code the Linux build uses, and it compiles no
# HLSL in C++ (no d3dcompiler_47). external/d3dx12/README.md: using Microsoft's d3dx12.h instead.
# Defines the interface target Dx12kit::D3D12.
include(CheckIncludeFileCXX)
check_include_file_cxx(d3d12.h DX12KIT_HAVE_D3D12_H)
if(NOT DX12KIT_HAVE_D3D12_H)
  message(FATAL_ERROR
    "dx12kit: d3d12.h not found. Install the Windows SDK (Visual Studio: \"Desktop development "
    "with C++\"), or for a mingw-w64 cross build the mingw-w64 headers (Debian: mingw-w64-x86-64-dev).")
endif()
add_library(dx12kit_d3d12 INTERFACE)
add_library(Dx12kit::D3D12 ALIAS dx12kit_d3d12)
# dxguid: IID_* constants. (mingw-w64's libdxguid has no D3D12 IIDs; Platform.cpp defines the ones
# the code uses through INITGUID, as on Linux, which the SDK's selectany GUIDs tolerate.)
target_link_libraries(dx12kit_d3d12 INTERFACE d3d12 dxgi dxguid)
