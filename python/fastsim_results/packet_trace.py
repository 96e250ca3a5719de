"""Per-packet event traces (packet_trace.bin, docs/outputs.md) as a DataFrame.

    from fastsim_results import load_packet_trace
    t = load_packet_trace("out/demo")            # the run folder, or the file itself
    t[t.event == "drop"].groupby("object").size()
    t[(t.object == "a") & (t.event == "window")][["time_s", "cwnd_pkts"]]

One row per record, sorted by time (stable: at equal times, each object's records keep
their order in the file). Columns: time_ps (int64, the simulator's integer time),
time_s (float), object and flow (categories; flow is NaN for packets of no named flow),
object_kind ("link" or "sender"), event (category: enqueue, drop, dequeue, deliver,
lost, send, ack, window), seq (uint64: data segment, or cumulative ACK), size (uint32,
bytes), retransmission, is_ack, early_drop (bool), cwnd_pkts and ssthresh_pkts (float,
window records only, else NaN; an infinite ssthresh is inf).
"""

import os
import struct

import numpy as np
import pandas as pd

__all__ = ["load_packet_trace", "EVENTS", "RECORD"]

MAGIC = b"FSPKTTR\0"
EVENTS = ["enqueue", "drop", "dequeue", "deliver", "lost", "send", "ack", "window"]
RECORD = np.dtype([("time", "<i8"), ("seq", "<u8"), ("object", "<u4"), ("flow", "<u4"), ("size", "<u4"),
                   ("event", "u1"), ("flags", "u1"), ("reserved", "<u2")])
NO_FLOW = 0xFFFFFFFF


def _header(data, path):
    if len(data) < 32 or data[:8] != MAGIC:
        raise ValueError(f"{path}: not a fastsim packet trace (no magic)")
    version, header_size, record_size, exponent, n_objects, n_flows = struct.unpack_from("<IIIiII", data, 8)
    if version != 1:
        raise ValueError(f"{path}: packet trace version {version}, this reader knows version 1")
    if (record_size != RECORD.itemsize or header_size < 32 or header_size > len(data)
            or (len(data) - header_size) % record_size):
        raise ValueError(f"{path}: not a fastsim packet trace (bad sizes)")
    at = 32

    def name():
        nonlocal at
        (n,) = struct.unpack_from("<H", data, at)
        if at + 2 + n > header_size:
            raise ValueError(f"{path}: not a fastsim packet trace (truncated name table)")
        s = data[at + 2:at + 2 + n].decode("utf-8")
        at += 2 + n
        return s

    if n_objects > header_size or n_flows > header_size:
        raise ValueError(f"{path}: not a fastsim packet trace (bad table sizes)")
    objects = []
    for _ in range(n_objects):
        kind = data[at]
        at += 2
        objects.append((name(), "link" if kind == 0 else "sender"))
    flows = [name() for _ in range(n_flows)]
    return header_size, exponent, objects, flows


def load_packet_trace(path, sort=True):
    """The records of `path` (a run folder or its packet_trace.bin) as a DataFrame (see
    the module's docstring); the object and flow tables are in `.attrs`."""
    if os.path.isdir(path):
        path = os.path.join(path, "packet_trace.bin")
    with open(path, "rb") as f:
        data = f.read()
    try:
        header_size, exponent, objects, flows = _header(data, path)
    except (struct.error, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not a fastsim packet trace (bad header: {e})") from None
    rec = np.frombuffer(data, dtype=RECORD, offset=header_size)
    kinds = [o[1] for o in objects]
    # A link and a flow may share a name: one category, told apart by object_kind.
    names = list(dict.fromkeys(o[0] for o in objects))
    name_codes = np.array([names.index(o[0]) for o in objects] or [0], dtype=np.int64)
    kind_codes = np.array([0 if k == "link" else 1 for k in kinds] or [0], dtype=np.int64)
    flow = rec["flow"].astype(np.int64)
    flow = np.where(flow == NO_FLOW, -1, flow)
    window = rec["event"] == EVENTS.index("window")
    ssthresh = np.where(rec["size"] == 0xFFFFFFFF, np.inf, rec["size"] / 1000.0)
    df = pd.DataFrame({
        "time_ps": rec["time"].astype(np.int64),
        "time_s": rec["time"] * 10.0 ** exponent,
        "object": pd.Categorical.from_codes(name_codes[rec["object"]], categories=names),
        "object_kind": pd.Categorical.from_codes(kind_codes[rec["object"]], categories=["link", "sender"]),
        "flow": pd.Categorical.from_codes(flow, categories=flows),
        "event": pd.Categorical.from_codes(rec["event"].astype(np.int64), categories=EVENTS),
        "seq": rec["seq"].astype(np.uint64),
        "size": rec["size"].astype(np.uint32),
        "retransmission": (rec["flags"] & 1) != 0,
        "is_ack": (rec["flags"] & 2) != 0,
        "early_drop": (rec["flags"] & 4) != 0,
        "cwnd_pkts": np.where(window, rec["seq"] / 1000.0, np.nan),
        "ssthresh_pkts": np.where(window, ssthresh, np.nan),
    })
    if sort:
        df = df.sort_values("time_ps", kind="stable", ignore_index=True)
    df.attrs["objects"] = [{"name": o[0], "kind": o[1]} for o in objects]
    df.attrs["flows"] = flows
    df.attrs["path"] = path
    return df
