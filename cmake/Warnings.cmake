# Project-wide warning flags, applied per target with dx12kit_warnings(<target>).
function(dx12kit_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /permissive-)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  endif()
  if(DX12KIT_SANITIZE AND NOT MSVC)
    # AddressSanitizer + UndefinedBehaviorSanitizer; any UB report aborts (no recovery), so a run
    # with a report fails (scripts/test-sanitizers.sh). The vptr check is off: D3D12 interfaces are
    # COM objects implemented in C (vkd3d), with vtables but no C++ type information to check.
    set(_san -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-sanitize=vptr)
    target_compile_options(${target} PRIVATE ${_san} -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE ${_san})
  endif()
endfunction()
