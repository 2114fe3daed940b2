# SPDX-License-Identifier: BSD-3-Clause
"""Rate fidelity of the engine's pacers (issue 16; lib/pace, doc/performance.md "Pacing").

Cases (each one engine run of 3 s on net_ring wires, no devices):
  txonly-1g     txonly 1 Gbit/s at 1518 B -> rxonly on the same lcore: >= 99 % of the
                L1 rate received over the run, and the task's pace record agrees
  txonly-64     the same at 100 Mbit/s with 64 B frames (148.8 kpps)
  txonly-hog    txonly 1 Gbit/s at 1518 B with a busy loop pinned to the lcore's CPU: >= 97 %
  pipe          txonly at 800 Mbit/s into a router pipe of 500 Mbit/s: the pipe delivers
                500 Mbit/s +- 1 % (never more than its bandwidth)
  pipe-hog      the same with a busy loop pinned to the paced lcore's CPU: >= 97 %, <= 101 %
  delay         a 10 ms pipe on its own lcore (the generator and receiver on the main
                lcore): no packet arrives before it was sent + 10 ms
  delay-hog     the same with a busy loop pinned to the router's CPU
  backlog-hog   a DFCP sender at 1 Gbit/s into a 500 Mbit/s drop-tail pipe, the router (and
                the receiver) on lcore 1 with a busy loop pinned to its CPU: the router
                feeds the backlog it finds after each stall at the frames' wire times, so
                the pipe drops about every other frame: at most 15 % of the drops come
                16th or later in a run (fed at once, a stall's backlog lost its second
                half whole: ~45 %)
  lookahead-hog the same through `lookahead = 8ms` (and a 10 ms delay pipe after the
                bottleneck), the busy loop on the sender's CPU: the frames its catch-up
                bursts carry meet the pipe at their schedule slots, <= 15 % of the drops in
                runs (without lookahead: ~40 %)

  tcp-rate      two TCP senders of one local address, each rate = 100Mbit, straight to a
                receiver over net_ring (no pipe): their endpoint is paced at 200 Mbit/s
                L1 (each flow's pace record shows it), the two goodputs sum to 93-101 %
                of what 200 Mbit/s carries in payload, both transfers verify
  tcp-rate-mix  one flow of that address with a rate and one without: refused at start,
                naming both flows
  rate-receiver a receiver with rate: a config error naming the key
  rate-units    txonly rate = 1Mpps (64 B), 1G and 5% (of net_ring's 10 Gbit/s) in one run:
                each pace record shows the L1 rate it resolves to and the receiver gets it;
                a flow's rate = 1Mpps is refused naming the key (no frame size)
  l1-l2         txonly 300 Mbit/s at 64 B: the pace record's L1 rate, the port's tx_l1_mbps
                and its tx_mbps (L2 without FCS) x 84 / 60 agree within 1 %
  rate-profile  txonly rate = 0s:1G,2s:3G at 1518 B for 4 s, --intervals-json every 0.5 s:
                the periods before 2 s at 1 Gbit/s L1 (the first, with the start-up, left
                out), those after at 3 Gbit/s (+- 2 % over each step's periods, each period
                within 10 %), the
                last pace record at 3000 Mbit/s; bad profiles refused naming the point
  flow-profile  the tcp-rate pair with s2's rate = ramp 0s:20Mbit,1s:100Mbit: the endpoint's
                pace record ends at 200 Mbit/s, the goodputs carry the ramp's average; a
                flow's profile in pkt/s refused naming the point

The busy loop is a process the test starts (taskset) and always kills; it shares the paced
thread's CPU the way another process on a shared VM does. Usage: CASE ENGINE SOURCE_ROOT.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, run, skip, write  # noqa: E402

EAL = "-l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning"
L1 = 20  # preamble + IFG per frame (pkt_size includes the FCS)
OVERHEAD = 24  # the same for frame bytes without FCS (task and pipe byte counters)
DURATION = 3.0


class Hog:
    """A busy loop pinned to one CPU while the block runs (none when cpu is None)."""

    def __init__(self, cpu):
        self.cpu, self.p = cpu, None

    def __enter__(self):
        if self.cpu is None:
            return self
        if shutil.which("taskset") is None:
            skip("needs taskset for the CPU hog")
        self.p = subprocess.Popen(["taskset", "-c", str(self.cpu), sys.executable, "-c",
                                   "while True: pass"])
        print(f"# hog pid {self.p.pid} on CPU {self.cpu}", flush=True)
        return self

    def __exit__(self, *exc):
        if self.p is not None:
            self.p.kill()
            self.p.wait()
        return False


def engine(eng, tmp, text, name):
    cfg = write(os.path.join(tmp, name + ".ini"), text)
    out = os.path.join(tmp, name + ".json")
    p = run([eng, "--", "--config", cfg, "--summary-json", out], timeout=60)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    return load(out), p.stdout


def item(js, key, name):
    for x in js.get(key, []):
        if x.get("name") == name:
            return x
    fail(f"{key} {name} missing from the summary JSON")


def task(js, name):
    return item(js, "tasks", name)


def txonly_config(pkt_size, rate):
    return f"""[eal]
args = {EAL}
[engine]
duration = {DURATION}s
stats_period = 0
[port p0]
device = ring:wire0
preset = net_ring
[port p1]
device = ring:wire0
preset = net_ring
[task tx0]
kind = txonly
port = p0
pkt_size = {pkt_size}
rate = {rate}
[task rx0]
kind = rxonly
port = p1
[lcore 1]
tasks = tx0, rx0
"""


def txonly_case(eng, tmp, pkt_size, rate_bps, rate, need, hog):
    with Hog(1 if hog else None):
        js, _ = engine(eng, tmp, txonly_config(pkt_size, rate), "txonly")
    rx, pace = task(js, "rx0"), item(js, "pace", "tx0")
    got = rx["rx_packets"] * (pkt_size + L1) * 8 / js["duration_s"]
    print(f"received {got / 1e6:.3f} of {rate_bps / 1e6:.0f} Mbit/s L1 "
          f"({100 * got / rate_bps:.2f} %); pace {pace}")
    if rx["rx_bad"] or rx["seq_lost"]:
        fail("verification errors or lost packets on the wire")
    if got < need * rate_bps:
        fail(f"received {100 * got / rate_bps:.2f} % of the rate, want >= {100 * need:.0f} %")
    if got > 1.005 * rate_bps:
        fail("received more than the configured rate")
    if abs(pace["rate_mbps"] - rate_bps / 1e6) > 1e-6:
        fail("the pace record shows another configured rate")
    if pace["pkts"] != task(js, "tx0")["tx_packets"]:
        fail("the pace record and the task disagree on packets sent")
    # lost schedule time is all the pacer may miss: achieved + lost ~ configured
    if pace["achieved_ppm"] < need * 1e6 or pace["achieved_ppm"] > 1.002e6:
        fail(f"pace achieved_ppm {pace['achieved_ppm']} out of range")


def case_txonly_1g(eng, src, tmp):
    txonly_case(eng, tmp, 1518, 1e9, "1Gbit", 0.99, False)


def case_txonly_64(eng, src, tmp):
    txonly_case(eng, tmp, 64, 1e8, "100Mbit", 0.99, False)


def case_txonly_hog(eng, src, tmp):
    txonly_case(eng, tmp, 1518, 1e9, "1Gbit", 0.97, True)


def router_config(bw, delay, rate, gen_lcore, router_lcore, pkt_size=1518, queue=1024):
    # a stalled router keeps its link busy only on what its queue holds, and refills it
    # from its rx ring: queue and rx ring cover pace_catchup (doc/performance.md, "Pacing")
    lcores = (f"[lcore {gen_lcore}]\ntasks = tx0, rx0\n[lcore {router_lcore}]\ntasks = r0\n"
              if gen_lcore != router_lcore else f"[lcore {router_lcore}]\ntasks = tx0, r0, rx0\n")
    return f"""[eal]
args = {EAL}
[engine]
duration = {DURATION}s
stats_period = 0
drain = 100ms
[port gen]
device = ring:a
preset = net_ring
[port ra]
device = ring:a
preset = net_ring
rx_desc = 4096
[port rb]
device = ring:b
preset = net_ring
[port sink]
device = ring:b
preset = net_ring
[pipe link]
bw = {bw}
delay = {delay}
queue = {queue}
[task tx0]
kind = txonly
port = gen
pkt_size = {pkt_size}
rate = {rate}
[task r0]
kind = router
port_a = ra
port_b = rb
a_to_b = link
b_to_a = pass
[task rx0]
kind = rxonly
port = sink
{lcores}"""


def pipe_case(eng, tmp, low, hog):
    with Hog(1 if hog else None):
        js, _ = engine(eng, tmp, router_config("500Mbit", "0ms", "800Mbit", 1, 1), "pipe")
    p = item(js, "pipes", "link")
    # the pipe's output during the run: the drain adds what its full queue held at the
    # stop (1024 frames, 25 ms at 500 Mbit/s; fewer only if a stall had drained it, which
    # makes this an underestimate)
    secs = js["duration_s"]
    out = (p["out_bytes"] + OVERHEAD * p["out_packets"] - 1024 * 1538) * 8 / secs
    print(f"pipe out during the run {out / 1e6:.3f} Mbit/s of 500 ({100 * out / 5e8:.2f} %), "
          f"dropped {p['dropped_packets']}, catch-up stalls {p['catchup_stalls']}")
    if p["dropped_packets"] == 0:
        fail("an 800 Mbit/s offer into a 500 Mbit/s pipe dropped nothing")
    if out > 1.01 * 5e8:
        fail("the pipe delivered more than its bandwidth")
    if out < low * 5e8:
        fail(f"the pipe delivered {100 * out / 5e8:.2f} %, want >= {100 * low:.0f} %")


def case_pipe(eng, src, tmp):
    pipe_case(eng, tmp, 0.99, False)


def case_pipe_hog(eng, src, tmp):
    pipe_case(eng, tmp, 0.97, True)


def delay_case(eng, tmp, hog):
    # the router alone on lcore 1; generator and receiver on the main lcore 0
    with Hog(1 if hog else None):
        js, _ = engine(eng, tmp, router_config("1Gbit", "10ms", "200Mbit", 0, 1, 1000, 1000),
                       "delay")
    rx, p = task(js, "rx0"), item(js, "pipes", "link")
    print(f"received {rx['rx_valid']} packets, latency min/avg/max {rx['lat_min_ns'] / 1e6:.3f}/"
          f"{rx['lat_avg_ns'] / 1e6:.3f}/{rx['lat_max_ns'] / 1e6:.3f} ms, "
          f"pipe dropped {p['dropped_packets']}")
    if rx["rx_valid"] < 0.5 * 200e6 / ((1000 + L1) * 8) * DURATION:
        fail("less than half of the offered packets arrived")
    if rx["lat_samples"] != rx["rx_valid"]:
        fail("packets without a latency sample")
    # departure >= arrival + serialization (8.2 us at 1 Gbit/s) + 10 ms
    if rx["lat_min_ns"] < 10_000_000:
        fail(f"a packet left the 10 ms pipe after {rx['lat_min_ns'] / 1e6:.3f} ms")


def case_delay(eng, src, tmp):
    delay_case(eng, tmp, False)


def case_delay_hog(eng, src, tmp):
    delay_case(eng, tmp, True)


def ring_ports(wire_a, wire_b, desc):
    """Four net_ring ports: two on wire a, two on wire b, each with desc descriptors."""
    out = ""
    for wire, names in (("a", wire_a), ("b", wire_b)):
        for n in names:
            out += (f"[port {n}]\ndevice = ring:{wire}\npreset = net_ring\n"
                    f"rx_desc = {desc}\ntx_desc = {desc}\n")
    return out


def backlog_config(lookahead=None):
    la = f"lookahead = {lookahead}\n" if lookahead else ""
    nxt = "next = dly\n[pipe dly]\ndelay = 10ms\nline_pkts = 8192\n" if lookahead else ""
    return f"""[eal]
args = {EAL}
[engine]
duration = 10s
stats_period = 0
drain = 200ms
{ring_ports(("hosts", "ra"), ("rb", "sinks"), 4096)}[pipe link]
bw = 500Mbit
queue = 1000
{nxt}[task r0]
kind = router
port_a = ra
port_b = rb
a_to_b = link
b_to_a = pass
{la}[flow f1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.1.1:6001
remote_mac = 02:00:00:00:00:02
rate = 1Gbit
duration = 2s
path_rate = 500Mbit
path_rtt = 20ms
[flow r1]
role = receiver
local = 10.0.1.1:6001
sink = verify
path_rate = 500Mbit
path_rtt = 20ms
[task d0]
kind = dfcp
port = hosts
flows = f1
[task d1]
kind = dfcp
port = sinks
flows = r1
[lcore 0]
tasks = d0
[lcore 1]
tasks = r0, d1
"""


def backlog_case(eng, tmp, cpu, lookahead):
    with Hog(cpu):
        js, _ = engine(eng, tmp, backlog_config(lookahead), "backlog")
    p = item(js, "pipes", "link")
    print(f"pipe in {p['in_packets']} dropped {p['dropped_packets']} "
          f"({100 * p['dropped_packets'] / max(1, p['in_packets']):.1f} %), "
          f"most drops in a row {p['drop_run_max']}, in bursts {p['drop_burst_packets']}, "
          f"catch-up stalls {p['catchup_stalls']}")
    if p["dropped_packets"] < p["in_packets"] // 5:
        fail("a 1 Gbit/s sender into a 500 Mbit/s pipe: under 20 % dropped")
    # the router's stalls fed at once: ~45 % of the drops 16th or later in a run; fed at
    # the wire times: 2-4 % (what remains: the sender's own stalls, whose catch-up burst
    # is real)
    if p["drop_burst_packets"] > 0.15 * p["dropped_packets"]:
        fail(f"{p['drop_burst_packets']} of {p['dropped_packets']} drops came in runs of 16 "
             f"or more: frames met the pipe in bursts, not at their wire times")
    return js


def case_backlog_hog(eng, src, tmp):
    backlog_case(eng, tmp, 1, None)


def case_lookahead_hog(eng, src, tmp):
    js = backlog_case(eng, tmp, 0, os.environ.get("LOOKAHEAD", "8ms"))
    r = next(f for f in js["flows"] if f["name"] == "r1")
    if r.get("verify") not in (None, "ok") or r["goodput_bytes"] <= 0:
        fail(f"the transfer did not verify: {r.get('verify')}")


def tcp_rate_config(rate_b="100Mbit", role_rate=""):
    """Two TCP senders on 10.0.0.1 (ports 40000, 40001) to receivers on 10.0.0.2, .3."""
    rate_b_line = f"rate = {rate_b}\n" if rate_b else ""
    return f"""[eal]
args = {EAL}
[engine]
duration = {DURATION}s
stats_period = 0
drain = 300ms
[port p0]
device = ring:w0
preset = net_ring
[port p1]
device = ring:w0
preset = net_ring
[flow s1]
proto = tcp
role = sender
local = 10.0.0.1:40000
remote = 10.0.0.2:5201
remote_mac = 02:00:00:00:00:02
rate = 100Mbit
[flow s2]
proto = tcp
role = sender
local = 10.0.0.1:40001
remote = 10.0.0.3:5201
remote_mac = 02:00:00:00:00:02
seed = 2
{rate_b_line}[flow r1]
proto = tcp
role = receiver
local = 10.0.0.2:5201
sink = verify
{role_rate}[flow r2]
proto = tcp
role = receiver
local = 10.0.0.3:5201
sink = verify
seed = 2
[task tx]
kind = tcp
port = p0
flows = s1, s2
[task rx]
kind = tcp
port = p1
flows = r1, r2
[lcore 1]
tasks = tx, rx
"""


def case_tcp_rate(eng, src, tmp):
    js, _ = engine(eng, tmp, tcp_rate_config(), "tcp-rate")
    flows = {f["name"]: f for f in js.get("tcp", [])}
    for n in ("s1", "s2"):
        pace = item(js, "pace", n)
        print(f"pace {n}: {pace}")
        if abs(pace["rate_mbps"] - 200.0) > 1e-6:
            fail(f"flow {n}'s pace record shows {pace['rate_mbps']} Mbit/s, want the "
                 f"endpoint's 200")
    for n in ("r1", "r2"):
        if flows[n].get("bad_bytes", 0) != 0 or flows[n]["goodput_bytes"] <= 0:
            fail(f"receiver {n}: nothing delivered or bytes wrong")
    got = sum(flows[n]["goodput_mbps"] for n in ("r1", "r2")) * 1e6
    # payload per L1 byte of a full segment: mss / (mss + 54 B of headers + 24), options
    # (up to 40 B) inside the tolerance
    mss = flows["s1"]["mss"]
    want = 200e6 * mss / (mss + 54 + 24)
    print(f"goodput {got / 1e6:.1f} Mbit/s of the {want / 1e6:.1f} that 200 Mbit/s L1 carries")
    if got < 0.93 * want or got > 1.01 * want:
        fail(f"goodput {got / 1e6:.1f} Mbit/s: not paced at 200 Mbit/s L1")


def refused(eng, tmp, text, name, want):
    cfg = write(os.path.join(tmp, name + ".ini"), text)
    p = run([eng, "--", "--config", cfg], timeout=60)
    if p.returncode == 0 or want not in p.stdout + p.stderr:
        fail(f"exit {p.returncode}; expected a refusal with {want!r}")


def case_tcp_rate_mix(eng, src, tmp):
    refused(eng, tmp, tcp_rate_config(rate_b=""), "tcp-mix",
            "flows s1 (rate) and s2 (no rate) share the local address 10.0.0.1")


def case_rate_receiver(eng, src, tmp):
    refused(eng, tmp, tcp_rate_config(role_rate="rate = 1Gbit\n"), "rx-rate",
            "[flow r1] rate: paces a sender")


def three_txonly_config(rates):
    """Three txonly -> rxonly pairs on their own wires, one lcore: (name, size, rate)."""
    text = f"[eal]\nargs = {EAL}\n[engine]\nduration = {DURATION}s\nstats_period = 0\n"
    names = []
    for i, (name, size, rate) in enumerate(rates):
        text += f"""[port t{i}]
device = ring:w{i}
preset = net_ring
[port r{i}]
device = ring:w{i}
preset = net_ring
[task {name}]
kind = txonly
port = t{i}
pkt_size = {size}
rate = {rate}
[task rx{i}]
kind = rxonly
port = r{i}
"""
        names += [name, f"rx{i}"]
    return text + f"[lcore 1]\ntasks = {', '.join(names)}\n"


def case_rate_units(eng, src, tmp):
    """txonly rate in packets, bit/s with the prefix alone, and a share of the line rate
    (net_ring: 10 Gbit/s): each resolved to its L1 bit/s and sent at it."""
    rates = [("pps", 64, "1Mpps", 1e6 * 84 * 8), ("bare", 1518, "1G", 1e9),
             ("share", 1518, "5%", 0.05 * 10e9)]
    js, out = engine(eng, tmp, three_txonly_config([r[:3] for r in rates]), "units")
    for i, (name, size, rate, bps) in enumerate(rates):
        pace, rx = item(js, "pace", name), task(js, f"rx{i}")
        got = rx["rx_packets"] * (size + L1) * 8 / js["duration_s"]
        print(f"{name}: rate = {rate}: pace {pace['rate_l1_mbps']} Mbit/s L1 (want "
              f"{bps / 1e6:.3f}), received {got / 1e6:.3f}")
        if abs(pace["rate_l1_mbps"] - bps / 1e6) > 1e-6 or \
                pace["rate_mbps"] != pace["rate_l1_mbps"]:
            fail(f"{name}: rate = {rate} became {pace['rate_l1_mbps']} Mbit/s, want {bps / 1e6}")
        if got < 0.95 * bps or got > 1.005 * bps:
            fail(f"{name}: received {100 * got / bps:.2f} % of the rate")
    # a packet rate where no frame size is known: refused, naming the key
    refused(eng, tmp, tcp_rate_config(rate_b="1Mpps"), "flow-pps",
            "[flow s2] rate: a packet rate needs a frame size; give bit/s")


def case_l1_l2(eng, src, tmp):
    """At 64 B the pace record (L1) and the port's tx_l1_mbps agree, and tx_mbps (L2, no FCS)
    is that x 60 / 84: within 1 %."""
    js, out = engine(eng, tmp, txonly_config(64, "300Mbit"), "l1l2")
    pace, p0 = item(js, "pace", "tx0"), item(js, "ports", "p0")
    l1, l2 = pace["achieved_l1_mbps"], p0["tx_mbps"]
    print(f"pace achieved {l1} Mbit/s L1; port tx_l1_mbps {p0['tx_l1_mbps']}, tx_mbps {l2} L2")
    if abs(p0["tx_l1_mbps"] - l1) > 0.01 * l1:
        fail("the port's tx_l1_mbps and the pace record's L1 rate differ by over 1 %")
    if abs(l2 * (64 + L1) / (64 - 4) - l1) > 0.01 * l1:
        fail("port tx_mbps x 84 / 60 (L2 without FCS to L1) is not the pace record's rate")
    if pace["achieved_mbps"] != l1 or pace["rate_mbps"] != pace["rate_l1_mbps"]:
        fail("the old JSON keys do not carry the L1 figures")
    if not any("tx_l1_mbps" in ln and ln.strip().startswith("port p0") for ln in out.splitlines()):
        fail("the port line of the text summary has no tx_l1_mbps")
    if not any(ln.strip().startswith("pace tx0 rate_l1_mbps 300.000") for ln in out.splitlines()):
        fail("the pace line of the text summary does not say L1")


def case_rate_profile(eng, src, tmp):
    """A step profile: 1 Gbit/s for 2 s, then 3 Gbit/s, seen in the per-period records."""
    text = txonly_config(1518, "0s:1G, 2s:3G").replace(f"duration = {DURATION}s",
                                                       "duration = 4s")
    cfg, iv = write(os.path.join(tmp, "prof.ini"), text), os.path.join(tmp, "iv.json")
    p = run([eng, "--", "--config", cfg, "--stats-period", "0.5s", "--live", "off",
             "--intervals-json", iv], timeout=60)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    with open(iv) as f:
        recs = [json.loads(x) for x in f if x.strip()]
    seen = {1000.0: [], 3000.0: []}  # (Mbit/s, s) of the whole periods at each step
    for r in recs[1:]:  # the first period also has the start-up
        t1, t0 = r["time_s"], r["time_s"] - r["interval_s"]
        got = {t["name"]: t for t in r["tasks"]}["tx0"]["tx_l1_mbps"]
        want = 1000.0 if t1 <= 2.0 else 3000.0 if t0 >= 2.0 else None
        print(f"{t0:.3f} .. {t1:.3f} s: {got:.1f} Mbit/s L1, want {want}")
        if want is None or r["interval_s"] < 0.25:  # the change, or a short last period
            continue
        seen[want].append((got, r["interval_s"]))
        if abs(got - want) > 0.1 * want:
            fail(f"{t0:.3f} .. {t1:.3f} s: {got:.1f} Mbit/s L1, want {want} +- 10 %")
    for want, periods in seen.items():
        # a stall's catch-up moves bytes into the next period: the step's periods together
        mean = sum(v * dt for v, dt in periods) / max(sum(dt for _, dt in periods), 1e-9)
        print(f"step {want}: {len(periods)} whole periods, {mean:.1f} Mbit/s L1")
        if len(periods) < 2 or abs(mean - want) > 0.02 * want:
            fail(f"the periods at the {want} Mbit/s step: {periods}, want {want} +- 2 %")
    pace = {x["name"]: x for x in recs[-1]["pace"]}["tx0"]
    if abs(pace["rate_l1_mbps"] - 3000.0) > 1e-6:
        fail(f"the last pace record shows {pace['rate_l1_mbps']} Mbit/s, want 3000")
    for bad, want in (("0s:1G, 2s:3G, 2s:4G", "[task tx0] rate: point 3 \"2s:4G\": times must "
                       "increase"),
                      ("1s:1G", "a profile starts at 0s"),
                      ("ramp 0s:1G, 2s:3Gbt", "point 2 \"2s:3Gbt\": expected a rate"),
                      ("0s:1G, 2x:3G", "point 2 \"2x:3G\": expected a time")):
        refused(eng, tmp, txonly_config(1518, bad), "bad-prof", want)


def case_flow_profile(eng, src, tmp):
    """A TCP sender's ramp: its endpoint ends paced at 100 + 100 Mbit/s; over the run the
    two flows carry 100 + (60 x 1 + 100 x 2) / 3 Mbit/s L1 of payload."""
    js, _ = engine(eng, tmp, tcp_rate_config(rate_b="ramp 0s:20Mbit, 1s:100Mbit"), "fprof")
    flows = {f["name"]: f for f in js.get("tcp", [])}
    pace = item(js, "pace", "s2")
    print(f"pace s2: {pace}")
    if abs(pace["rate_mbps"] - 200.0) > 1e-6:
        fail(f"the endpoint ends paced at {pace['rate_mbps']} Mbit/s, want 200")
    mss = flows["s1"]["mss"]
    l1 = 100e6 + (60e6 * 1 + 100e6 * (DURATION - 1)) / DURATION
    want = l1 * mss / (mss + 54 + 24)
    got = sum(flows[n]["goodput_mbps"] for n in ("r1", "r2")) * 1e6
    print(f"goodput {got / 1e6:.1f} Mbit/s of the {want / 1e6:.1f} the profile carries")
    if got < 0.93 * want or got > 1.01 * want:
        fail(f"goodput {got / 1e6:.1f} Mbit/s: the profile was not followed")
    refused(eng, tmp, tcp_rate_config(rate_b="0s:100Mbit, 1s:1Mpps"), "fprof-pps",
            "[flow s2] rate: point 2: 1000000 pkt/s; a flow's rate is in bit/s")


CASES = {
    "txonly-1g": case_txonly_1g,
    "txonly-64": case_txonly_64,
    "txonly-hog": case_txonly_hog,
    "pipe": case_pipe,
    "pipe-hog": case_pipe_hog,
    "delay": case_delay,
    "delay-hog": case_delay_hog,
    "backlog-hog": case_backlog_hog,
    "lookahead-hog": case_lookahead_hog,
    "tcp-rate": case_tcp_rate,
    "tcp-rate-mix": case_tcp_rate_mix,
    "rate-receiver": case_rate_receiver,
    "rate-units": case_rate_units,
    "l1-l2": case_l1_l2,
    "rate-profile": case_rate_profile,
    "flow-profile": case_flow_profile,
}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "pace-test-"))
