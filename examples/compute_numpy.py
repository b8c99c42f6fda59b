"""Compute on numpy data: a histogram (atomic adds) and an element-wise kernel, checked against numpy.

Run: python examples/compute_numpy.py [OUT_DIR]   (writes compute_numpy.npz: data, histogram, squares)
"""
import sys
from pathlib import Path

import numpy as np

import dx12kit as dx

HISTOGRAM = """
cbuffer P : register(b0) { uint n; uint bins; };
RWStructuredBuffer<uint> data : register(u0);
RWStructuredBuffer<uint> histogram : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 i : SV_DispatchThreadID) {
    if (i.x < n) InterlockedAdd(histogram[data[i.x] % bins], 1);
}
"""
SQUARE_PLUS_ONE = """
cbuffer P : register(b0) { uint n; };
RWStructuredBuffer<float> x : register(u0);
RWStructuredBuffer<float> y : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 i : SV_DispatchThreadID) { if (i.x < n) y[i.x] = x[i.x] * x[i.x] + 1.0; }
"""


def main(out_dir: str = ".") -> Path:
    dev = dx.Device()
    queue = dev.queue("direct")
    rng = np.random.default_rng(1)
    n, bins = 10_000, 16
    data = rng.integers(0, 1000, n, dtype=np.uint32)
    x = rng.standard_normal(n).astype(np.float32)

    rs = dev.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0), dx.RootUAV(1)])
    histogram_pso = dev.create_compute_pipeline(dx.compile_hlsl(HISTOGRAM, profile="cs_5_0"), rs)
    square_pso = dev.create_compute_pipeline(dx.compile_hlsl(SQUARE_PLUS_ONE, profile="cs_5_0"), rs)

    data_buf = dev.create_buffer(data.nbytes, uav=True, name="data")
    hist_buf = dev.create_buffer(bins * 4, uav=True, name="histogram")   # new buffers read as zeros
    x_buf = dev.create_buffer(x.nbytes, uav=True, name="x")
    y_buf = dev.create_buffer(x.nbytes, uav=True, name="y")

    cl = queue.command_list()
    cl.upload(data_buf, data)
    cl.upload(x_buf, x)
    groups = (n + 63) // 64
    cl.set_pipeline_state(histogram_pso)
    cl.set_constants(0, [n, bins])
    cl.set_root_uav(1, data_buf)
    cl.set_root_uav(2, hist_buf)
    cl.dispatch(groups)
    cl.set_pipeline_state(square_pso)
    cl.set_constants(0, [n, 0])
    cl.set_root_uav(1, x_buf)
    cl.set_root_uav(2, y_buf)
    cl.dispatch(groups)
    queue.wait(queue.execute(cl))

    histogram = queue.read_buffer(hist_buf, dtype=np.uint32)
    squares = queue.read_buffer(y_buf, dtype=np.float32)
    assert np.array_equal(histogram, np.bincount(data % bins, minlength=bins))
    assert np.allclose(squares, x * x + 1.0)
    path = Path(out_dir) / "compute_numpy.npz"
    np.savez(path, data=data, x=x, histogram=histogram, squares=squares)
    print("histogram:", histogram.tolist())
    print("wrote", path)
    return path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
