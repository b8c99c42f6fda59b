# How d3dx12.h is found for Windows builds (never used on Linux, where vkd3d's headers cannot be
# mixed with DirectX-Headers; see cpp/include/dx12kit/platform/D3dx12Lite.hpp instead).
#   1. the DirectX-Headers CMake package (vcpkg: directx-headers), target Microsoft::DirectX-Headers;
#   2. d3dx12.h in the Windows SDK include path or in DX12KIT_D3DX12_DIR.
# Defines the interface target Dx12kit::D3dx12.
add_library(dx12kit_d3dx12 INTERFACE)
add_library(Dx12kit::D3dx12 ALIAS dx12kit_d3dx12)
find_package(directx-headers CONFIG QUIET)
if(TARGET Microsoft::DirectX-Headers)
  target_link_libraries(dx12kit_d3dx12 INTERFACE Microsoft::DirectX-Headers)
  target_compile_definitions(dx12kit_d3dx12 INTERFACE DX12KIT_USING_DIRECTX_HEADERS=1)
else()
  find_path(D3DX12_INCLUDE_DIR d3dx12.h HINTS ${DX12KIT_D3DX12_DIR} ENV DX12KIT_D3DX12_DIR)
  if(NOT D3DX12_INCLUDE_DIR)
    message(FATAL_ERROR
      "dx12kit: d3dx12.h not found. Install DirectX-Headers (vcpkg install directx-headers) "
      "or set DX12KIT_D3DX12_DIR to the folder holding d3dx12.h.")
  endif()
  target_include_directories(dx12kit_d3dx12 INTERFACE ${D3DX12_INCLUDE_DIR})
endif()
target_link_libraries(dx12kit_d3dx12 INTERFACE d3d12 dxgi dxguid d3dcompiler)
