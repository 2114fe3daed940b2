# SPDX-License-Identifier: BSD-3-Clause
"""Generator features (issue 19): gen_test.py CASE ENGINE SOURCE_ROOT.

  imix        txonly pkt_size = 64,594,1518 with pkt_weights = 7,4,1 and count = 12000 over
              a net_ring wire: rxonly receives every frame in order, the bytes are exactly
              1000 x (7 x 60 + 4 x 590 + 1514) (no FCS) on both ends, and a tshark-free
              check of the sizes: the port's bytes / frames is the weighted mean
  imix-bad    a weight count that does not match the sizes: exit 1 naming pkt_weights
  rx-latency  rxonly's summary record: latency_ns percentiles (count = lat_samples,
              min <= p50 <= p99 <= max), jitter_ns present, the text summary line
  rfc2544     scripts/rfc2544.py on its default DUT (the router's pipe, 100 Mbit/s, queue
              1000, net_ring), 512-byte frames, 1 s trials, max 200 Mbit/s, 5 trials: the
              first trial (200) loses frames, the zero-loss rate found is at most the pipe's
              bandwidth plus what its queue absorbs in a trial (105) and at least half of it;
              the JSON has every trial and the table is printed; the 5 trials ran in one
              engine process (driven through its console: the same engine_pid in each)
  streams     txonly flows = 4 (rate = 400Mbit, 512 B) into rxonly for 2.5 s with --timeseries
              and --intervals-json: the time series has a row per stream and period (4
              senders tx0/N, 4 receivers rx0/IP:PORT), each near 100 Mbit/s L1; in the
              summary JSON the streams' packets and bytes add up to the tasks' tx_packets /
              tx_bytes and rx_valid / rx_bytes, each stream a quarter (± 1 %), no loss; the
              intervals records' stream packets add up to the same totals
  warmup      [engine] warmup = 1s on a 2.5 s paced run with the sender starting late
              (start = 1s): the after-warmup rate is the paced rate (within 10 %),
              the whole-run rate well below it, for rxonly and txonly
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, run, write  # noqa: E402

INI = """[eal]
args = -l 0-1 --no-huge -m 512 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = {duration}
stats_period = 0
{engine}
[port p0]
device = ring:w
preset = net_ring
[port p1]
device = ring:w
preset = net_ring
[task tx0]
kind = txonly
port = p0
{tx}
[task rx0]
kind = rxonly
port = p1
[lcore 1]
tasks = tx0, rx0
"""


def engine_run(engine, tmp, rc_want=0, duration="3s", engine_keys="", tx=""):
    ini = write(os.path.join(tmp, "g.ini"), INI.format(duration=duration, engine=engine_keys,
                                                        tx=tx))
    js = os.path.join(tmp, "g.json")
    p = run([engine, "--", "--config", ini, "--summary-json", js])
    if p.returncode != rc_want:
        fail(f"engine exited {p.returncode}, expected {rc_want}")
    return p, (load(js) if rc_want == 0 else None)


def tasks(s):
    return {x["name"]: x for x in s["tasks"]}


def case_imix(engine, root, tmp):
    p, s = engine_run(engine, tmp, tx="pkt_size = 64,594,1518\npkt_weights = 7,4,1\n"
                      "count = 12000\nrate = 200Mbit")
    t = tasks(s)
    want = 1000 * (7 * 60 + 4 * 590 + 1514)
    print("tx0", t["tx0"]["tx_packets"], t["tx0"]["tx_bytes"], "rx0", t["rx0"]["rx_packets"],
          t["rx0"]["rx_bytes"], "want", want)
    if t["tx0"]["tx_packets"] != 12000 or t["rx0"]["rx_valid"] != 12000:
        fail("not every frame sent and received as valid")
    if t["tx0"]["tx_bytes"] != want or t["rx0"]["rx_bytes"] != want:
        fail(f"bytes {t['tx0']['tx_bytes']} / {t['rx0']['rx_bytes']}, want {want}")
    if t["rx0"]["seq_lost"] != 0 or t["rx0"]["seq_reordered"] != 0 or t["rx0"]["rx_bad"]:
        fail("sequence gaps or bad frames")
    if "IMIX of 3 sizes, 12 frames a cycle" not in p.stdout + p.stderr:
        fail("no IMIX line at set-up")


def case_imix_bad(engine, root, tmp):
    p, _ = engine_run(engine, tmp, rc_want=1, tx="pkt_size = 64,594,1518\npkt_weights = 7,4")
    if "pkt_weights" not in p.stderr or "2 weights for 3 sizes" not in p.stderr:
        fail("the error does not name pkt_weights and the counts")


def case_rx_latency(engine, root, tmp):
    p, s = engine_run(engine, tmp, duration="1.5s", tx="rate = 100Mbit")
    rx = {x["name"]: x for x in s["rxonly"]}["rx0"]
    t = tasks(s)["rx0"]
    h = rx.get("latency_ns")
    print("rxonly", rx)
    if h is None or h["count"] != t["lat_samples"] or h["count"] == 0:
        fail(f"latency_ns {h} vs lat_samples {t['lat_samples']}")
    if not h["min"] <= h["p50"] <= h["p99"] <= h["max"]:
        fail("percentiles out of order")
    if "jitter_ns" not in rx or rx["jitter_ns"] > h["max"]:
        fail("jitter_ns missing or above the largest latency")
    if rx["warmup_s"] != 0 or rx["rx_mbps_after_warmup"] != rx["rx_mbps"]:
        fail("without warmup the after-warmup rate is the whole-run rate")
    if not any(ln.strip().startswith("rxonly rx0 ") and "jitter_ns" in ln
               and "latency_ns" in ln for ln in p.stdout.splitlines()):
        fail("no rxonly summary line with latency and jitter")


def case_streams(engine, root, tmp):
    ts, iv = os.path.join(tmp, "ts.csv"), os.path.join(tmp, "iv.jsonl")
    ini = write(os.path.join(tmp, "g.ini"), INI.format(
        duration="2.5s", engine="", tx="pkt_size = 512\nrate = 400Mbit\nflows = 4"))
    js = os.path.join(tmp, "g.json")
    p = run([engine, "--", "--config", ini, "--summary-json", js, "--timeseries", ts,
             "--intervals-json", iv])
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    s = load(js)
    with open(ts) as f:
        rows = list(csv.DictReader(f))
    print(len(rows), "time-series rows, e.g.", rows[:2])
    by_time = {}
    for r in rows:
        by_time.setdefault(r["time_s"], []).append(r)
    whole = [t for t in by_time if float(t) >= 0.9 and float(t) <= 2.1]
    if len(by_time) < 2 or not whole:
        fail(f"time-series periods {sorted(by_time)}")
    for t, rs in by_time.items():
        names = sorted(r["flow"] for r in rs)
        want = [f"rx0/198.18.0.1:{1024 + i}" for i in range(4)] + [f"tx0/{i}" for i in range(4)]
        if names != sorted(want):
            fail(f"period {t}: rows {names}, want {want}")
        roles = {r["flow"]: r["role"] for r in rs}
        if roles["tx0/0"] != "sender" or roles["rx0/198.18.0.1:1024"] != "receiver":
            fail(f"roles {roles}")
    for t in whole:
        for r in by_time[t]:
            if abs(float(r["throughput_mbps"]) - 100) > 3:
                fail(f"period {t}: {r['flow']} at {r['throughput_mbps']} Mbit/s L1, want 100")
    t = tasks(s)
    tx = {x["name"]: x for x in s["txonly"]}["tx0"]["streams"]
    rx = {x["name"]: x for x in s["rxonly"]}["rx0"]["streams"]
    print("tx streams", [(x["name"], x["packets"]) for x in tx])
    print("rx streams", [(x["name"], x["packets"], x["lost"]) for x in rx])
    if len(tx) != 4 or len(rx) != 4:
        fail(f"{len(tx)} tx and {len(rx)} rx streams, want 4 each")
    if sum(x["packets"] for x in tx) != t["tx0"]["tx_packets"] or \
            sum(x["bytes"] for x in tx) != t["tx0"]["tx_bytes"]:
        fail("the tx streams do not add up to tx0's tx_packets / tx_bytes")
    if sum(x["packets"] for x in rx) != t["rx0"]["rx_valid"] or \
            sum(x["bytes"] for x in rx) != t["rx0"]["rx_bytes"]:
        fail("the rx streams do not add up to rx0's rx_valid / rx_bytes")
    for x in tx + rx:
        if abs(x["packets"] - t["tx0"]["tx_packets"] / 4) > 0.01 * t["tx0"]["tx_packets"] / 4:
            fail(f"stream {x['name']}: {x['packets']} of {t['tx0']['tx_packets']} frames")
        if x.get("lost", 0) or x.get("reordered", 0):
            fail(f"stream {x['name']} lost or reordered frames")
    recs = [json.loads(ln) for ln in open(iv)]
    for d, total in (("tx", t["tx0"]["tx_packets"]), ("rx", t["rx0"]["rx_valid"])):
        got = sum(x["packets"] for r in recs for x in r.get("streams", []) if x["dir"] == d)
        if got != total:
            fail(f"intervals: {d} stream packets add up to {got}, the summary says {total}")


def case_warmup(engine, root, tmp):
    _, s = engine_run(engine, tmp, duration="2.5s", engine_keys="warmup = 1s",
                      tx="rate = 100Mbit\nstart = 1s")
    rx = {x["name"]: x for x in s["rxonly"]}["rx0"]
    print("rxonly", rx)
    # L1 rate 100 Mbit/s of 64-byte frames: 60 B of 84 counted
    paced = 100 * 60 / 84
    if rx["warmup_s"] != 1.0:
        fail(f"warmup_s {rx['warmup_s']}")
    if abs(rx["rx_mbps_after_warmup"] - paced) > 0.1 * paced:
        fail(f"after warmup {rx['rx_mbps_after_warmup']} Mbit/s, paced {paced:.1f}")
    if rx["rx_mbps"] > 0.8 * paced:
        fail(f"whole run {rx['rx_mbps']} Mbit/s: the idle first second is not in it")
    tx = {x["name"]: x for x in s["txonly"]}["tx0"]
    print("txonly", tx)
    if tx["warmup_s"] != 1.0 or abs(tx["tx_mbps_after_warmup"] - paced) > 0.1 * paced:
        fail(f"txonly after warmup {tx['tx_mbps_after_warmup']} Mbit/s, paced {paced:.1f}")
    if tx["tx_mbps"] > 0.8 * paced:
        fail(f"txonly whole run {tx['tx_mbps']} Mbit/s")


def case_rfc2544(engine, root, tmp):
    js = os.path.join(tmp, "r.json")
    p = run([sys.executable, os.path.join(root, "scripts", "rfc2544.py"), "--engine", engine,
             "--sizes", "512", "--max-rate", "200Mbit", "--dut-bw", "100Mbit", "--dut-queue",
             "1000", "--duration", "1", "--resolution", "0.1", "--iterations", "5",
             "--json", js], timeout=170)
    if p.returncode != 0:
        fail(f"rfc2544.py exited {p.returncode}")
    with open(js) as f:
        whole = json.load(f)
    r = whole["results"][0]
    trials = r["trials"]
    print("throughput", r["throughput_mbps"], "trials",
          [(t["offered_mbps"], t["pass"]) for t in trials])
    if trials[0]["offered_mbps"] != 200 or trials[0]["pass"] or trials[0]["lost"] == 0:
        fail("the first trial at 200 Mbit/s through a 100 Mbit/s pipe did not lose frames")
    if len(trials) > 5:
        fail(f"{len(trials)} trials, at most 5 asked")
    pids = {t["engine_pid"] for t in trials}
    if len(trials) < 5 or len(pids) != 1 or whole["engine_pid"] not in pids:
        fail(f"{len(trials)} trials in engine processes {sorted(pids)}: want >= 5 in one")
    if not 50 <= r["throughput_mbps"] <= 105:
        fail(f"throughput {r['throughput_mbps']} Mbit/s through a 100 Mbit/s pipe")
    if not any(t["pass"] and t["offered_mbps"] == r["throughput_mbps"] for t in trials):
        fail("the result is not a passed trial's rate")
    if "RFC 2544 throughput" not in p.stdout or "   512 " not in p.stdout:
        fail("no table")


CASES = {"rfc2544": case_rfc2544, "imix": case_imix, "imix-bad": case_imix_bad, "rx-latency": case_rx_latency,
         "warmup": case_warmup, "streams": case_streams}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "gen-"))
