"""Every error about an unknown name suggests the closest known names ("did you mean"), by one shared rule
(dx12kit/base/CloseNames.hpp; Python: dx12kit._names), which is difflib.get_close_matches'."""
from __future__ import annotations

import difflib

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import _names
from dx12kit.enums import AddressMode, Blend, ComparisonFunc, Filter, QueueKind, StencilOp


@pytest.mark.parametrize("word,names", [
    ("computee", ["direct", "compute", "copy", "graphics"]),
    ("linaer", [m.value for m in Filter]),
    ("SRC_ALPAH", [m.value for m in Blend]),
    ("less_eqaul", [m.value for m in ComparisonFunc]),
    ("zzzz", ["direct", "compute"]),
    ("incr", [m.value for m in StencilOp]),
    ("clmap", [m.value for m in AddressMode]),
])
def test_the_shared_helper_picks_what_difflib_picks(word, names):
    assert _names.close_names(word, names) == difflib.get_close_matches(word.lower(), names)
    close = difflib.get_close_matches(word.lower(), names)
    assert _names.did_you_mean(word, names) == ("; did you mean " + ", ".join(f"'{n}'" for n in close) + "?" if close else "")


def test_queue_kinds(device):
    with pytest.raises(dx.InvalidArgumentError, match="'computee' is not one of direct, compute, copy, graphics; did you mean 'compute'\\?"):
        device.queue("computee")
    assert QueueKind.COMPUTE.value == "compute"


def test_sampler_filters_address_modes_and_comparisons(device):
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'linear'"):
        device.create_sampler(filter="linaer")
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'clamp'"):
        device.create_sampler(address="clmap")
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'less_equal'"):
        device.create_sampler(filter="comparison_min_mag_mip_linear", comparison="less_eqaul")


def test_blend_and_stencil_names():
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'src_alpha'"):
        dx.BlendState(src_blend="src_alpah")
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'incr'"):
        dx.StencilFace(pass_op="incrr")


def test_resource_state_names(device, queue):
    buf = device.create_buffer(256)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="'copy_sorce' is not a resource state .*; did you mean 'COPY_SOURCE'"):
        cl.transition_barrier(buf, "copy_sorce")


def test_topologies_and_heap_types(device):
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'upload'"):
        device.create_buffer(16, heap="uplaod")
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'full'"):
        device.defragment(algorithm="ful")


def test_root_signature_language():
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT'"):
        dx.rootsig.parse_root_signature("RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOT)")
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'DescriptorTable'"):
        dx.rootsig.parse_root_signature("DescriptorTabel(UAV(u0))")


def test_render_graph_queues_and_formats(device):
    g = dx.RenderGraph(device)
    with pytest.raises(dx.GraphError, match="did you mean 'rgba8_unorm'"):
        g.create_texture("t", 8, 8, "rgba8_unrom")
    t = g.create_texture("t", 8, 8, "rgba8_unorm")
    with pytest.raises(dx.GraphError, match="did you mean 'compute'"):
        g.add_pass("p", lambda cl, r: None, queue="comptue", writes=[t])


def test_formats_still_suggest(device):
    with pytest.raises(dx.InvalidArgumentError, match="did you mean 'rgba8_unorm'"):
        device.create_texture2d(4, 4, "rgba8_unrom")
    with pytest.raises(dx.InvalidArgumentError, match="did you mean"):
        device.create_texture2d(data=np.zeros((4, 4, 4), np.uint8), format="rgba8_unrom")
