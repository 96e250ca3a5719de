"""load_packet_trace on a real run with packet traces: record counts agree with
summary.json's link and flow counters, the columns are typed, each object's records are
in time order, and a capture's pcap header parses (and tcpdump or tshark, where the
machine has one, reads it)."""

import json
import os
import shutil
import struct
import subprocess
import tempfile
import unittest

import numpy as np

from fastsim_results import load_packet_trace

from .support import fastsim

SCENARIO = {
    "name": "pt", "seed": 3, "duration": "2s", "sample_interval": "0.5s",
    "topology": {"dumbbell": {"bottleneck": {"rate": "10Mbps", "delay": "5ms", "buffer": "20pkt",
                                             "loss_rate": 0.002},
                              "access": {"rate": "100Mbps", "buffer": "1000pkt"}}},
    "flows": [{"id": "a", "rtt": "20ms", "sack": True}, {"id": "b", "rtt": "40ms", "start": "0.3s"}],
    "output": {"packet_trace": {"flows": ["a", "b"], "links": ["bottleneck"], "pcap": ["bottleneck", "bottleneck_rev"]}}}


class PacketTraceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="fastsim-py-ptrace-")
        spec = os.path.join(cls.tmp.name, "s.json")
        with open(spec, "w") as f:
            json.dump(SCENARIO, f)
        cls.out = os.path.join(cls.tmp.name, "out")
        fastsim("run", spec, "--out", cls.out, "--quiet")
        with open(os.path.join(cls.out, "summary.json")) as f:
            cls.summary = json.load(f)
        cls.trace = load_packet_trace(cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_columns_are_typed(self):
        t = self.trace
        self.assertEqual(t["time_ps"].dtype, np.int64)
        self.assertEqual(t["seq"].dtype, np.uint64)
        self.assertEqual(t["size"].dtype, np.uint32)
        self.assertEqual(t["retransmission"].dtype, bool)
        self.assertEqual(list(t["event"].cat.categories),
                         ["enqueue", "drop", "dequeue", "deliver", "lost", "send", "ack", "window"])
        self.assertEqual(list(t["object"].cat.categories), ["bottleneck", "a", "b"])
        self.assertEqual(t.attrs["objects"], [{"name": "bottleneck", "kind": "link"},
                                              {"name": "a", "kind": "sender"}, {"name": "b", "kind": "sender"}])
        self.assertEqual(t.attrs["flows"], ["a", "b"])
        self.assertTrue(t["time_ps"].is_monotonic_increasing)  # sorted by time
        self.assertLessEqual(t["time_s"].max(), 2.0)

    def test_counts_agree_with_summary(self):
        t = self.trace
        link = next(l for l in self.summary["links"] if l["id"] == "bottleneck")
        at = t[t.object == "bottleneck"]
        n = at["event"].value_counts()
        self.assertEqual(n["drop"], link["drops"])
        self.assertGreater(link["drops"], 0)
        self.assertEqual(n["enqueue"] + n["drop"], link["arrivals"])
        self.assertEqual(n["deliver"], link["departures"])
        self.assertEqual(n["lost"], link["random_losses"])
        for f in self.summary["flows"]:
            own = t[t.object == f["id"]]
            sends = own[own.event == "send"]
            self.assertEqual(len(sends), f["data_packets_sent"])
            self.assertEqual(int(sends["retransmission"].sum()), f["retransmits"])
            window = own[own.event == "window"]
            self.assertEqual(window["cwnd_pkts"].iloc[0], 10.0)  # the initial window
            self.assertTrue(np.isinf(window["ssthresh_pkts"].iloc[0]))
            self.assertTrue(own[own.event != "window"]["cwnd_pkts"].isna().all())
        # Every record of the bottleneck names its flow; data and ACKs are told apart.
        self.assertFalse(at["flow"].isna().any())
        self.assertTrue(t[(t.object == "a") & (t.event == "ack")]["is_ack"].all())

    def test_pcap_header_and_reader(self):
        path = os.path.join(self.out, "links", "bottleneck.pcap")
        with open(path, "rb") as f:
            data = f.read()
        magic, major, minor, _, _, snaplen, linktype = struct.unpack_from("<IHHiIII", data, 0)
        self.assertEqual((magic, major, minor, linktype), (0xa1b23c4d, 2, 4, 101))
        at, n = 24, 0
        while at < len(data):
            _, _, incl, orig = struct.unpack_from("<IIII", data, at)
            self.assertLessEqual(incl, snaplen)
            self.assertEqual(data[at + 16] >> 4, 4)  # IPv4
            at += 16 + incl
            n += 1
        self.assertEqual(at, len(data))
        starts = self.trace[(self.trace.object == "bottleneck") & (self.trace.event == "dequeue")]
        self.assertEqual(n, len(starts))
        for tool in (["tcpdump", "-nn", "-r", path], ["tshark", "-r", path]):
            if shutil.which(tool[0]):
                r = subprocess.run(tool, capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(len(r.stdout.splitlines()), n)

    def test_pcap_acks_carry_sack_blocks(self):
        # Flow a uses SACK: after its losses, ACKs on the reverse bottleneck carry SACK
        # blocks (option 5 behind two NOPs), edges above the acknowledgement number.
        with open(os.path.join(self.out, "links", "bottleneck_rev.pcap"), "rb") as f:
            data = f.read()
        at, sacked = 24, 0
        while at < len(data):
            incl = struct.unpack_from("<I", data, at + 8)[0]
            ip = data[at + 16:at + 16 + incl]
            words = struct.unpack_from(">10H", ip, 0)
            self.assertEqual(sum(words) % 0xFFFF, 0)  # a valid IPv4 header checksum
            src = ip[12:16]
            tcp = ip[20:]
            ack = struct.unpack_from(">I", tcp, 8)[0]
            if src == bytes([10, 0, 0, 2]) and (tcp[12] >> 4) > 5:  # flow 0's receiver
                self.assertEqual(tcp[20:23], bytes([1, 1, 5]))
                n = (tcp[23] - 2) // 8
                self.assertIn(n, (1, 2, 3))
                for i in range(n):
                    left, right = struct.unpack_from(">II", tcp, 24 + 8 * i)
                    self.assertGreater(left, ack)
                    self.assertGreater(right, left)
                sacked += 1
            at += 16 + incl
        self.assertGreater(sacked, 0)

    def test_not_a_trace(self):
        with self.assertRaisesRegex(ValueError, "not a fastsim packet trace"):
            load_packet_trace(os.path.join(self.out, "summary.json"))
        with open(os.path.join(self.out, "packet_trace.bin"), "rb") as f:
            data = f.read()
        header_size = struct.unpack_from("<I", data, 12)[0]
        bad = os.path.join(self.tmp.name, "bad.bin")
        for cut in (40, header_size + 5):  # inside the name tables; a partial record
            with open(bad, "wb") as f:
                f.write(data[:cut])
            with self.assertRaisesRegex(ValueError, "not a fastsim packet trace"):
                load_packet_trace(bad)


if __name__ == "__main__":
    unittest.main()
