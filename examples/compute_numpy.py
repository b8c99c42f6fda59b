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

    # No root signature: each pipeline derives one from its shader, and bind() sets resources by their HLSL names.
    histogram_pso = dev.create_compute_pipeline(dx.compile_hlsl(HISTOGRAM))     # [numthreads]: compiled as cs_5_0
    square_pso = dev.create_compute_pipeline(dx.compile_hlsl(SQUARE_PLUS_ONE))

    data_buf = dev.create_buffer(data=data, uav=True, name="data")
    hist_buf = dev.create_buffer(bins * 4, uav=True, name="histogram")   # new buffers read as zeros
    x_buf = dev.create_buffer(data=x, uav=True, name="x")
    y_buf = dev.create_buffer(x.nbytes, uav=True, name="y")

    cl = queue.command_list()
    groups = (n + 63) // 64
    cl.set_pipeline_state(histogram_pso)
    cl.bind(P={"n": n, "bins": bins}, data=data_buf, histogram=hist_buf)   # cbuffer P as a dict of its fields
    cl.dispatch(groups)
    cl.set_pipeline_state(square_pso)
    cl.bind(P={"n": n}, x=x_buf, y=y_buf)
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
