// One UAV (u0) reached through a descriptor table: writes 0x12345678 at byte 0.
// Used by wine_repros/descriptor_table.cpp (raw D3D12, no dx12kit).
RWByteAddressBuffer b : register(u0);
[numthreads(1, 1, 1)]
void main() { b.Store(0, 0x12345678); }
