# Cross build for 64-bit Windows with mingw-w64 (Debian: g++-mingw-w64-x86-64-posix,
# mingw-w64-x86-64-dev), tests run under Wine:
#   cmake -S . -B build/mingw -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/mingw-w64-x86_64.cmake \
#         -DDX12KIT_CPP_TESTS=ON && cmake --build build/mingw && (cd build/mingw && ctest)
# The -posix compilers are named explicitly: the -win32 thread model has no std::mutex/std::thread,
# and installing it repoints the unsuffixed x86_64-w64-mingw32-g++.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(DX12KIT_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${DX12KIT_MINGW_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${DX12KIT_MINGW_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${DX12KIT_MINGW_TRIPLET}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${DX12KIT_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# ctest runs the .exe files through this wrapper (xvfb-run belongs outside: see the script).
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/wine-run.sh)
