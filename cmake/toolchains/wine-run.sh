#!/bin/sh
# CMAKE_CROSSCOMPILING_EMULATOR of the mingw-w64 toolchain: runs a Windows program under Wine.
# Wine's DXGI needs an X display (without one D3D12 device creation fails with 0x887a0004), so run
# ctest inside one `xvfb-run -a` (scripts/test-windows.sh does). WINEPREFIX and WINEDEBUG come from
# the environment; the defaults keep Wine quiet and out of ~/.wine.
: "${WINEDEBUG:=-all}"
: "${WINEPREFIX:=${XDG_CACHE_HOME:-$HOME/.cache}/dx12kit/wineprefix}"
export WINEDEBUG WINEPREFIX
# Debian's wine64 package puts the loader in /usr/lib/wine (the `wine` package adds /usr/bin/wine).
WINE=${DX12KIT_WINE:-$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)}
exec "$WINE" "$@"
