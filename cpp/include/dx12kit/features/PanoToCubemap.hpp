// An equirectangular panorama into every mip of a cube texture (Python CommandList.pano_to_cubemap);
// how: cpp/src/features/PanoToCubemap.cpp. The pass's pipeline is made once per device and kept in
// the device's extension slot (Device::BuiltinObject).
#pragma once

#include <memory>

namespace dx12kit {

class CommandList;
class Resource;

/// Fills every mip of `cube` from the equirectangular `panorama` with a compute pass recorded on
/// `list` (cpp/src/builtin/PanoToCubemap.hlsl). Direct or compute lists. Afterwards no pipeline is
/// set and the root arguments are unbound.
void PanoToCubemap(CommandList& list, const std::shared_ptr<Resource>& cube, const std::shared_ptr<Resource>& panorama);

}  // namespace dx12kit
