"""The state tracker against D3D12's rules, as written down once in cpp/include/dx12kit/resources/D3D12Rules.hpp.

The expectations here come from that header's table (parsed below: the known state bits, the write
states that must stand alone, the states each queue type supports) and from its rules on implicit
promotion and decay, not from the tracker's implementation:

- rule 1/2: a state outside the known bits, or a write state combined with anything, is refused;
- rule 3: a list of a compute or copy queue refuses a transition to a state its queue type does
  not support; the direct queue accepts every valid state;
- rule 4: a buffer in COMMON is promoted on first use: no barrier is inserted for it;
- rule 5: when an execute completes, buffers and every resource used on a copy queue are in
  COMMON; other resources keep the state their last use in the list left them in;
- and a barrier is a state change: every barrier execute inserts goes from the subresource's
  state (as the rules above give it) to the state the list first needed, and never from a state
  to itself.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import dx12kit as dx

S = dx.ResourceState
ALL = dx.ALL_SUBRESOURCES
RULES = Path(__file__).resolve().parents[2] / "cpp" / "include" / "dx12kit" / "resources" / "D3D12Rules.hpp"


def parse_rules() -> dict[str, int]:
    """The uint32_t constants of D3D12Rules.hpp, evaluated with dx12kit.ResourceState's values."""
    text = RULES.read_text()
    out = {}
    for name, expr in re.findall(r"inline constexpr uint32_t (k\w+) =\s*(.*?);", text, re.S):
        value = 0
        for term in expr.split("|"):
            term = term.strip()
            m = re.fullmatch(r"uint32_t\(D3D12_RESOURCE_STATE_(\w+)\)", term)
            if m:
                value |= int(S[m.group(1)])
            else:
                value |= int(term.rstrip("uU"), 0)
        out[name] = value
    return out


RULE = parse_rules()
QUEUE_STATES = {"direct": RULE["kKnownStateBits"], "compute": RULE["kComputeQueueStates"], "copy": RULE["kCopyQueueStates"]}
SINGLE_STATES = [S(1 << i) for i in range(14) if (1 << i) & RULE["kKnownStateBits"]]


def test_the_table_was_read():
    assert set(RULE) >= {"kKnownStateBits", "kWriteStates", "kCopyQueueStates", "kComputeQueueStates"}
    assert RULE["kWriteStates"] & int(S.RENDER_TARGET) and RULE["kCopyQueueStates"] & int(S.COPY_DEST)


def legal(state: int) -> bool:
    """Rules 1 and 2."""
    if state & ~RULE["kKnownStateBits"]:
        return False
    writes = state & RULE["kWriteStates"]
    return not writes or (state == writes and writes & (writes - 1) == 0)


@pytest.mark.parametrize("kind", ["direct", "compute", "copy"])
def test_queue_types_accept_exactly_their_states(device, kind):
    """Rule 3 (and 1/2 for combinations): what a list of each queue type may transition to."""
    q = device.queue(kind)
    tex = device.create_texture2d(4, 4, "rgba8_unorm", render_target=True, uav=True, name=f"t-{kind}")
    candidates = SINGLE_STATES + [S.PIXEL_SHADER_RESOURCE | S.NON_PIXEL_SHADER_RESOURCE,
                                  S.COPY_SOURCE | S.NON_PIXEL_SHADER_RESOURCE,
                                  S.RENDER_TARGET | S.COPY_SOURCE, S.COPY_DEST | S.UNORDERED_ACCESS]
    for state in candidates:
        cl = q.command_list()
        ok = legal(int(state)) and (int(state) & ~QUEUE_STATES[kind]) == 0
        if ok:
            cl.transition_barrier(tex, state)
        else:
            with pytest.raises(dx.Dx12Error):
                cl.transition_barrier(tex, state)
        del cl


def rules_after_execute(glob, lists_uses, buffers, queue_kind):
    """Rule 5 (and the plain carry-over): the global states after one execute."""
    new = {r: list(v) for r, v in glob.items()}
    for res, uses in lists_uses.items():
        for sub, state in uses:
            for i in (range(len(new[res])) if sub == ALL else [sub]):
                new[res][i] = state
    for res in new:
        if res in buffers or (queue_kind == "copy" and lists_uses.get(res)):
            new[res] = [S.COMMON] * len(new[res])
    return new


@pytest.mark.parametrize("kind", ["direct", "compute", "copy"])
def test_random_lists_follow_the_rules(device, kind):
    rng = np.random.default_rng({"direct": 1, "compute": 2, "copy": 3}[kind])
    q = device.queue(kind)
    tex = device.create_texture2d(8, 8, "r32_float", mip_levels=3, array_size=2, render_target=True, uav=True,
                                  name=f"rules-tex-{kind}")
    buf = device.create_buffer(1024, uav=True, name=f"rules-buf-{kind}")
    res = {tex.name: tex, buf.name: buf}
    buffers = {buf.name}
    allowed = [s for s in SINGLE_STATES + [S.PIXEL_SHADER_RESOURCE | S.NON_PIXEL_SHADER_RESOURCE]
               if legal(int(s)) and (int(s) & ~QUEUE_STATES[kind]) == 0]
    buf_allowed = [s for s in allowed if s not in (S.RENDER_TARGET, S.DEPTH_WRITE, S.DEPTH_READ, S.RESOLVE_DEST,
                                                    S.RESOLVE_SOURCE, S.STREAM_OUT)]
    glob = {tex.name: [S.COMMON] * tex.num_subresources, buf.name: [S.COMMON]}
    inserted_total = 0
    for _ in range(10):
        cl = q.command_list()
        uses: dict[str, list] = {tex.name: [], buf.name: []}
        first: dict[tuple[str, int], int] = {}  # first state each subresource needs in this list
        for _ in range(int(rng.integers(1, 12))):
            if rng.random() < 0.7:
                name, state = tex.name, allowed[int(rng.integers(len(allowed)))]
                sub = ALL if rng.random() < 0.4 else int(rng.integers(0, tex.num_subresources))
            else:
                name, state, sub = buf.name, buf_allowed[int(rng.integers(len(buf_allowed)))], ALL
            cl.transition_barrier(res[name], state, sub)
            for i in (range(len(glob[name])) if sub == ALL else [sub]):
                first.setdefault((name, i), state)
            uses[name].append((sub, state))
        q.wait(q.execute(cl))
        # Every inserted barrier changes a state: from the subresource's state under the rules to
        # what the list first needed there; none for a buffer in COMMON (promotion, rule 4).
        for _, name, sub, before, after in q.last_inserted_barriers:
            assert before != after, (name, sub, before)
            subs = range(len(glob[name])) if sub == ALL else [sub]
            for i in subs:
                assert glob[name][i] == before and first[(name, i)] == after, (name, i, before, after)
            assert not (name in buffers and before == S.COMMON), "a buffer in COMMON is promoted, not transitioned"
        needed = {(n, i) for (n, i), s in first.items() if glob[n][i] != s and not (n in buffers and glob[n][i] == S.COMMON)}
        covered = {(n, i) for _, n, sub, _, _ in q.last_inserted_barriers
                   for i in (range(len(glob[n])) if sub == ALL else [sub])}
        assert needed == covered, (needed ^ covered)
        inserted_total += len(q.last_inserted_barriers)
        glob = rules_after_execute(glob, uses, buffers, kind)
        for name, r in res.items():
            for i, state in enumerate(glob[name]):
                assert r.global_state(i) == state, (kind, name, i)
    assert inserted_total > 0  # the sequences did exercise execute-time resolution
