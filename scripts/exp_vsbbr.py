# SPDX-License-Identifier: BSD-3-Clause
"""DFCP against today's TCP beyond the thesis's scenarios (issue #34), as
scenario methods of scripts/experiments.py's Runner (a mixin: it uses the
Runner's set-up, runs and rows):

  burst   one pair, 1 Gbit/s, Gilbert-Elliott loss (mean burst GE_BURST
          packets, mean loss x %) at BURST_DELAYS ms one-way
  short   one pair, 1 Gbit/s, SHORT_PLR % loss at SHORT_DELAY ms one-way: the
          completion time of an x MiB transfer (DFCP: the receiver's first
          data to its last byte; TCP: iperf3 -n, its test start to the last
          byte received), and its goodput; none when it took over
          SHORT_LIMIT_S (loss-based TCP carries ~1.5 Mbit/s there)

Both use configs/exp-single.ini and the access links of every scenario.
"""
import os

GE_BURST = 4
BURST_DELAYS = [0, 50]
SHORT_PLR = 1
SHORT_DELAY = 50
# a short transfer's run ends after this long whatever it carried
SHORT_LIMIT_S = 30


class Scenarios:
    """Scenario methods; self is an experiments.Runner."""

    def single_ini(self, link, delay, plr):
        ini = self.Ini(open(os.path.join(self.SRC, "configs/exp-single.ini")).read())
        ini.set("pipe link", "bw", self.mbit(link))
        ini.set("pipe link", "delay", f"{delay}ms")
        ini.set("pipe link", "plr", f"{plr}%")
        return ini

    def burst(self, scen, x, variant, d, delay_ms=0):
        """Gilbert-Elliott bursts: x % lost on average, GE_BURST packets a burst."""
        link = self.link(1000)
        delay = delay_ms or 0
        ini = self.single_ini(link, delay, 0)
        ini.set("pipe link", "loss_model", "gilbert")
        ini.set("pipe link", "ge_loss", f"{x}%")
        ini.set("pipe link", "ge_burst", GE_BURST)
        tag = self.tag(f"{scen}-{x}-{variant}-{delay}ms")
        base = dict(scenario=scen, x=x, variant=variant, link_mbps=link, plr_pct=x,
                    delay_ms=delay, ge_burst=GE_BURST)
        self.add_access(ini, ["10.0.0.1"])
        if variant in self.DFCP_VARIANTS:
            self.dfcp_flow(ini, "flow f1", variant, link, delay + 20, d)
            self.dfcp_receivers(ini, variant)
            ini.set("engine", "duration", f"{d + 10 + delay / 100}s")
            js = self.run_engine(tag, ini, d + 40)
            p = self.pipe(js, "link") or {}
            self.row(**base, flow="f1", **self.dfcp_rx(js, "r1"), **self.dfcp_tx(js, "f1"),
                     lost_packets=p.get("lost_packets"), dropped_packets=p.get("dropped_packets"),
                     in_packets=p.get("in_packets"))
            return
        if not self.need_net():
            return
        self.net.hosts(["10.0.0.1"], ["10.0.1.1"])
        self.to_tcp(ini)
        js, good = self.run_tcp(tag, ini, [(self.TCP_CC[variant], "10.0.0.1", "10.0.1.1", 5201)],
                                d)
        p = self.pipe(js, "link") or {}
        self.row(**base, flow="tcp", goodput_mbps=good[0], lost_packets=p.get("lost_packets"),
                 dropped_packets=p.get("dropped_packets"))

    def short(self, scen, x, variant, d):
        """An x MiB transfer's completion time (s) and goodput."""
        link = self.link(1000)
        ini = self.single_ini(link, SHORT_DELAY, SHORT_PLR)
        nbytes = int(x) * 1024 * 1024
        tag = self.tag(f"{scen}-{x}-{variant}")
        base = dict(scenario=scen, x=x, variant=variant, link_mbps=link, plr_pct=SHORT_PLR,
                    delay_ms=SHORT_DELAY, bytes=nbytes)
        self.add_access(ini, ["10.0.0.1"])
        if variant in self.DFCP_VARIANTS:
            self.dfcp_flow(ini, "flow f1", variant, link, SHORT_DELAY + 20, SHORT_LIMIT_S)
            ini.set("flow f1", "bytes", nbytes)
            self.dfcp_receivers(ini, variant)
            ini.set("engine", "duration", f"{SHORT_LIMIT_S + 5}s")
            js = self.run_engine(tag, ini, SHORT_LIMIT_S + 40)
            r = self.dfcp_rx(js, "r1")
            self.row(**base, flow="f1", **r, completion_s=r["active_s"] if r.get("done") else None)
            return
        if not self.need_net():
            return
        self.net.hosts(["10.0.0.1"], ["10.0.1.1"])
        self.to_tcp(ini)
        js, good = self.run_tcp(tag, ini, [(self.TCP_CC[variant], "10.0.0.1", "10.0.1.1", 5201)],
                                SHORT_LIMIT_S, nbytes=nbytes)
        secs = self.tcp_secs.get(0)
        self.row(**base, flow="tcp", goodput_mbps=good[0],
                 completion_s=secs if good[0] > 0 else None)


# ---- a short TCP transfer (the short scenario's kernel side), run in the namespaces:
#   exp_vsbbr.py sink BIND_IP PORT NBYTES        prints {"bytes": B, "seconds": S}
#   exp_vsbbr.py send SRC_IP DST_IP PORT NBYTES CC
# The sink's seconds run from accept() (the connection established) to the last byte.

def tcp_sink(ip, port, nbytes):
    import json
    import socket
    import time
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((ip, port))
    ls.listen(1)
    ls.settimeout(SHORT_LIMIT_S + 10)
    c, _ = ls.accept()
    t0 = time.monotonic()
    got = 0
    c.settimeout(SHORT_LIMIT_S)
    try:
        while got < nbytes:
            b = c.recv(1 << 20)
            if not b:
                break
            got += len(b)
    except OSError:
        pass
    print(json.dumps({"bytes": got, "seconds": time.monotonic() - t0}), flush=True)


def tcp_send(src, dst, port, nbytes, cc):
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    s.bind((src, 0))
    s.settimeout(SHORT_LIMIT_S)
    s.connect((dst, port))
    buf = bytes(1 << 20)
    left = nbytes
    while left > 0:
        n = s.send(buf[:min(left, len(buf))])
        left -= n
    s.shutdown(socket.SHUT_WR)
    s.recv(1)  # the sink closes when it has everything
    s.close()


if __name__ == "__main__":
    import sys
    if sys.argv[1] == "sink":
        tcp_sink(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        tcp_send(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
