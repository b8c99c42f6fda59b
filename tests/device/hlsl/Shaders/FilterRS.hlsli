// The root signature of the filter shaders, MiniEngine style: adjacent strings, one per clause.
#ifndef FILTER_RS_HLSLI
#define FILTER_RS_HLSLI

#define Filter_RootSig \
    "RootFlags(0), " \
    "RootConstants(b0, num32BitConstants = 4), " \
    "DescriptorTable(SRV(t0, numDescriptors = 1)), " \
    "UAV(u0)"

#endif
