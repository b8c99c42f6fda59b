// dx12kit built-in pass (cpp/src/gpu/CommandListIndirectCbv.cpp): expands the commands of a command
// signature of root CBV arguments followed by one draw into what vkd3d 1.2 runs (a draw-only
// signature with a count buffer), on the GPU. One group per command i < maxCount:
//  - i below the count (the count buffer's value, at most maxCount; maxCount without one): each root
//    CBV argument's address is looked up in the referenced buffers (base address and size in Table);
//    the constant data it points at (copyWords words, zeros past the buffer's end) goes to the
//    command's staging slot in `scratch`, which the list sets as that root CBV before the command's
//    draw. An address in no referenced buffer, or not 256-byte aligned, is an error: the command
//    does not draw, and scratch[0] / scratch[1] record the lowest such command and why.
//  - every i: its draw arguments are copied, and its count (1: draws, 0: does not) written.
cbuffer Table : register(b0) {
    uint4 head;      // maxCount, command stride in words, has a count buffer, CBV arguments
    uint4 where;     // the draw argument's word in a command, referenced buffers, slot words, staging's first word
    uint4 dest;      // draw arguments' first word, counts' first word, groups in x, 0
    uint4 cand[8];   // referenced buffer c: base address low, high, size in bytes, 0
    uint4 cbv[8];    // CBV argument j: its word in a command, words to copy, 0, 0
};
RWStructuredBuffer<uint> scratch : register(u0);
StructuredBuffer<uint> args : register(t0);
StructuredBuffer<uint> countBuffer : register(t1);
StructuredBuffer<uint> c0 : register(t2);
StructuredBuffer<uint> c1 : register(t3);
StructuredBuffer<uint> c2 : register(t4);
StructuredBuffer<uint> c3 : register(t5);
StructuredBuffer<uint> c4 : register(t6);
StructuredBuffer<uint> c5 : register(t7);
StructuredBuffer<uint> c6 : register(t8);
StructuredBuffer<uint> c7 : register(t9);

uint ReadCandidate(uint c, uint w) {
    if (c == 0) return c0[w];
    if (c == 1) return c1[w];
    if (c == 2) return c2[w];
    if (c == 3) return c3[w];
    if (c == 4) return c4[w];
    if (c == 5) return c5[w];
    if (c == 6) return c6[w];
    return c7[w];
}

[numthreads(64, 1, 1)]
void main(uint3 g : SV_GroupID, uint3 t : SV_GroupThreadID) {
    uint i = g.y * dest.z + g.x;
    if (i >= head.x) return;
    uint n = head.x;
    if (head.z != 0) n = min(countBuffer[0], head.x);
    bool run = i < n;
    uint cmd = i * head.y;
    uint failed = 0;
    if (run) {
        for (uint j = 0; j < head.w; ++j) {
            uint lo = args[cmd + cbv[j].x];
            uint hi = args[cmd + cbv[j].x + 1];
            uint found = 8;
            uint offset = 0;
            uint size = 0;
            for (uint c = 0; c < where.y; ++c) {
                uint d = lo - cand[c].x;
                uint borrow = lo < cand[c].x ? 1 : 0;
                if (found == 8 && hi - cand[c].y - borrow == 0 && d < cand[c].z) {
                    found = c;
                    offset = d;
                    size = cand[c].z;
                }
            }
            if (found == 8) {
                failed = failed | 1;
            } else if ((offset & 255) != 0) {
                failed = failed | 2;
            } else {
                uint slot = where.w + (i * head.w + j) * where.z;
                uint avail = (size - offset) / 4;
                uint first = offset / 4;
                for (uint w = t.x; w < cbv[j].y; w += 64) scratch[slot + w] = w < avail ? ReadCandidate(found, first + w) : 0;
            }
        }
    }
    if (t.x == 0) {
        uint o = dest.x + 4 * i;
        scratch[o] = args[cmd + where.x];
        scratch[o + 1] = args[cmd + where.x + 1];
        scratch[o + 2] = args[cmd + where.x + 2];
        scratch[o + 3] = args[cmd + where.x + 3];
        scratch[dest.y + i] = (run && failed == 0) ? 1 : 0;
        if (failed != 0) {
            InterlockedMax(scratch[0], 0xFFFFFFFF - i);
            InterlockedOr(scratch[1], failed);
        }
    }
}
