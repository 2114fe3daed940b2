# SPDX-License-Identifier: BSD-3-Clause
"""The console (issue 33): console_test.py CASE ENGINE SOURCE_ROOT.

A txonly task (1518-byte frames, rate = 1G) into an rxonly task over a net_ring wire on one
lcore, --live off, --stats-period 0.5s, --intervals-json; tx0's L1 rate per period is read
from the intervals records, each of which lists the console lines run in it.

  stdin      dfcp-engine -i, lines written to its stdin: after 2 s `set rate tx0 3G`: the
             periods before are at 1 Gbit/s (± 2 %), the first whole period after the change (ending
             at most 1 s after it) within 1 % of 3 Gbit/s; `stop tx0`: the next period sends
             nothing; `start tx0`: the next one is at 3 Gbit/s again; `bogus` and `shwo ports`
             get an error with the commands (and "did you mean"), an unknown task the list of
             tasks; `quit` ends the run with the exit status of the same run stopped by SIGINT
             at the same point (doc/config.md, "Exit status")
  telemetry  no -i: scripts/dfcp_ctl.py --socket PATH 'set rate tx0 3G' (the program) and the
             module's Engine.cmd(): the same rate check; an error answer for `bogus`; `show
             tasks` as JSON; every command of `help` is in doc/observability.md's console table
  flows      a DFCP sender flow s1 and a TCP sender flow t1 (rate = 200Mbit each, their own
             net_ring wires), -i: `set rate s1 400Mbit` and `set rate t1 400Mbit`: their pace
             records in the first whole period after (ending at most 1 s after the change)
             say 400 Mbit/s and achieved it (± 2 %), 200 before; `stop s1`: s1's goodput
             stops in the next period; `start s1`: it grows again; `stop r1` (a receiver)
             and `set rate s1 1Mpps` are refused
  streams    tx0 with flows = 4 (512 B, rate = 400Mbit), -i: `stop tx0/1`: in the next period
             stream tx0/1 sends nothing and rx0 receives nothing of it (source port 1025),
             the other three still send, together about the task's 400 Mbit/s L1 (at least
             80 %: a loaded host falls short); `set rate tx0/2 50Mbit`: the next period
             tx0/2 sends at most 50 Mbit/s L1 (+ 2 %, at least 40), the others more;
             `start tx0/1`: it sends again; `stop tx0/9` is refused naming the streams;
             `show streams tx0` lists the four
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, write  # noqa: E402

INI = """[eal]
args = -l 0-1 --no-huge -m 512 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = {duration}
[port p0]
device = ring:w
preset = net_ring
[port p1]
device = ring:w
preset = net_ring
[task tx0]
kind = txonly
port = p0
pkt_size = 1518
rate = 1G
[task rx0]
kind = rxonly
port = p1
[lcore 1]
tasks = tx0, rx0
"""

FLOWS_INI = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = {duration}
[port p0]
device = ring:wf
preset = net_ring
[port p1]
device = ring:wf
preset = net_ring
[port p2]
device = ring:wt
preset = net_ring
[port p3]
device = ring:wt
preset = net_ring
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.0.2:6001
remote_mac = 02:00:00:00:00:02
duration = 60s
window = 128
rate = 200Mbit
[flow r1]
role = receiver
local = 10.0.0.2:6001
window = 128
[flow t1]
proto = tcp
role = sender
local = 10.0.0.3:40000
remote = 10.0.0.4:5201
remote_mac = 02:00:00:00:00:02
duration = 60s
rate = 200Mbit
[flow t2]
proto = tcp
role = receiver
local = 10.0.0.4:5201
[task tx]
kind = dfcp
port = p0
flows = s1
[task rx]
kind = dfcp
port = p1
flows = r1
[task ttx]
kind = tcp
port = p2
flows = t1
[task trx]
kind = tcp
port = p3
flows = t2
[lcore 1]
tasks = tx, rx, ttx, trx
"""

STREAMS_INI = INI.replace("pkt_size = 1518\nrate = 1G", "pkt_size = 512\nrate = 400Mbit\nflows = 4")

PERIOD = 0.5
TOL = 0.01


class Engine:
    """An engine in the background; its output collected by a thread."""

    def __init__(self, engine, ini, iv, extra, stdin=False):
        self.cmd = [engine, "--", "--config", ini, "--stats-period", f"{PERIOD}s", "--live",
                    "off", "--intervals-json", iv] + extra
        print("$", " ".join(self.cmd), flush=True)
        self.p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE if stdin else
                                  subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines, self.iv = [], iv
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.append(line)

    def out(self):
        return "".join(self.lines)

    def wait_for(self, pattern, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = re.search(pattern, self.out())
            if m:
                return m
            if self.p.poll() is not None:
                break
            time.sleep(0.02)
        sys.stdout.write(self.out()[-3000:])
        fail(f"no {pattern!r} in the engine's output")

    def records(self):
        try:
            with open(self.iv) as f:
                return [json.loads(x) for x in f if x.strip()]
        except FileNotFoundError:
            return []

    def wait_run(self, seconds):
        """Until the intervals records reach `seconds` of run time."""
        deadline = time.time() + seconds + 15
        while time.time() < deadline:
            r = self.records()
            if r and r[-1]["time_s"] >= seconds - 0.01:
                return
            time.sleep(0.02)
        fail(f"the run did not reach {seconds} s")

    def send(self, line):
        print(">", line, flush=True)
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def finish(self, timeout=30):
        rc = self.p.wait(timeout=timeout)
        self.t.join(5)
        sys.stdout.write(self.out()[-2500:])
        return rc


def tx_l1(r):
    return {t["name"]: t for t in r["tasks"]}["tx0"]["tx_l1_mbps"]


def record_of(recs, line):
    """The index of the intervals record listing console line `line`."""
    for i, r in enumerate(recs):
        if line in r.get("console", []):
            return i
    fail(f"no intervals record lists {line!r}")


def near(v, want):
    return abs(v - want) <= TOL * want


def check_rate_change(recs, line):
    """tx0 at 1 Gbit/s in the whole periods before `line`, at 3 Gbit/s (±1 %) in the first
    whole period after it, which ends at most 1 s after the change."""
    k = record_of(recs, line)
    for r in recs:
        print(f"  {r['time_s']:6.3f} s  tx0 {tx_l1(r):9.3f} Mbit/s L1  {r['console']}")
    before = [tx_l1(r) for r in recs[1:k]]  # the first period also has the start-up
    if not before or not all(abs(v - 1000) <= 20 for v in before):
        fail(f"tx0 before {line!r}: {before} Mbit/s L1, want about 1000 (± 2 %)")
    if k + 1 >= len(recs):
        fail(f"no period after {line!r}")
    after = recs[k + 1]
    changed_at = recs[k]["time_s"] - recs[k]["interval_s"]  # the latest it can have been
    if not near(tx_l1(after), 3000):
        fail(f"tx0 in the period after {line!r}: {tx_l1(after)} Mbit/s L1, want 3000 ± 1 %")
    if after["time_s"] - changed_at > 1.0 + 0.05:
        fail(f"the period at 3 Gbit/s ends {after['time_s'] - changed_at:.3f} s after the change")
    pace = {p["name"]: p for p in after.get("pace", [])}.get("tx0")
    if pace is None or abs(pace["rate_l1_mbps"] - 3000) > 0.01:
        fail(f"tx0's pace record after the change: {pace}")
    return k


def sigint_status(engine, ini, tmp, seconds):
    """The exit status of the same run stopped by SIGINT after `seconds`."""
    e = Engine(engine, ini, os.path.join(tmp, "ref.jsonl"), [])
    e.wait_run(seconds)
    e.p.send_signal(signal.SIGINT)
    rc = e.finish()
    print("reference run stopped by SIGINT: exit", rc)
    return rc


def case_stdin(engine, root, tmp):
    ini = write(os.path.join(tmp, "c.ini"), INI.format(duration="30s"))
    iv = os.path.join(tmp, "iv.jsonl")
    t0 = time.time()
    e = Engine(engine, ini, iv, ["-i"], stdin=True)
    e.wait_run(2.0)
    e.send("set rate tx0 3G")
    e.wait_for(r"tx0: rate 3000000000 bit/s = 3000\.000 Mbit/s L1")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    e.send("stop tx0")
    e.wait_for(r"tx0: stopped")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    e.send("start tx0")
    e.wait_for(r"tx0: sending")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    for line in ("bogus", "shwo ports", "set rate tx9 1G", "set pkt_size tx0 70000"):
        e.send(line)
    e.wait_for(r"error: task tx0: pkt_size 70000")
    stop_at = e.records()[-1]["time_s"]
    e.send("quit")
    rc = e.finish()
    print(f"console run: {time.time() - t0:.1f} s, exit {rc}")
    out = e.out()
    for want in (r'error: unknown command "bogus"; commands: help, show, start, stop, set, '
                 r'clear, quit',
                 r'error: unknown command "shwo" \(did you mean "show"\?\)',
                 r'error: unknown task "tx9" \(did you mean "tx0"\?\); tasks: tx0, rx0',
                 r"console: quit: stopping the run as SIGINT does"):
        if not re.search(want, out):
            fail(f"no {want!r} in the output")
    recs = e.records()
    check_rate_change(recs, "set rate tx0 3G")
    s = record_of(recs, "stop tx0")
    if s + 1 >= len(recs) or {t["name"]: t for t in recs[s + 1]["tasks"]}["tx0"]["tx_packets"]:
        fail("tx0 still sent in the period after stop tx0")
    u = record_of(recs, "start tx0")
    if u + 1 >= len(recs) or not near(tx_l1(recs[u + 1]), 3000):
        fail("tx0 not back at 3 Gbit/s in the period after start tx0")
    want = sigint_status(engine, ini, tmp, stop_at)
    if rc != want:
        fail(f"quit exited {rc}, SIGINT at the same point {want}")


def case_telemetry(engine, root, tmp):
    sys.path.insert(0, os.path.join(root, "scripts"))
    from dfcp_ctl import Engine as Ctl  # noqa: E402

    ini = write(os.path.join(tmp, "c.ini"), INI.format(duration="5s"))
    iv = os.path.join(tmp, "iv.jsonl")
    e = Engine(engine, ini, iv, [])
    path = e.wait_for(r"telemetry: (\S+)").group(1)
    ctl = Ctl.wait(path)
    e.wait_run(2.0)
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "dfcp_ctl.py"), "--socket",
                        path, "set rate tx0 3G"], capture_output=True, text=True, timeout=30)
    print("dfcp_ctl.py:", p.returncode, p.stdout.strip(), p.stderr.strip())
    if p.returncode != 0 or "3000.000 Mbit/s L1" not in p.stdout:
        fail("dfcp_ctl.py set rate tx0 3G did not answer the new rate")
    r = ctl.cmd("bogus")
    print("bogus:", r)
    if r.get("ok") is not False or "unknown command" not in r.get("error", ""):
        fail("bogus: no error answer")
    tasks = {t["name"]: t for t in ctl.check("show tasks")["tasks"]}
    if tasks["rx0"]["rx_valid"] == 0 or tasks["tx0"]["kind"] != "txonly":
        fail(f"show tasks: {tasks}")
    cmds = [c["command"] for c in ctl.check("help")["commands"]]
    ctl.close()
    rc = e.finish()
    if rc != 0:
        fail(f"engine exited {rc}")
    check_rate_change(e.records(), "set rate tx0 3G")
    with open(os.path.join(root, "doc", "observability.md")) as f:
        doc = f.read()
    sec = doc[doc.index("## The console"):]
    sec = sec[:sec.index("\n## ", 4)] if "\n## " in sec[4:] else sec
    missing = [c for c in cmds if f"`{c}" not in sec]
    print("commands:", cmds)
    if len(cmds) < 10 or missing:
        fail(f"commands not in doc/observability.md's console section: {missing}")


def flow_of(r, name, key):
    return {f["name"]: f for f in r.get(key, [])}.get(name)


def check_flow_rate(recs, line, name):
    """Flow `name`'s pacer at 200 Mbit/s before `line`, at 400 (configured, and achieved
    ± 2 %) in the first whole period after it, which ends at most 1 s after the change."""
    k = record_of(recs, line)
    for r in recs[1:k]:
        p = flow_of(r, name, "pace")
        if p is None or p["rate_l1_mbps"] != 200.0 or abs(p["achieved_l1_mbps"] - 200) > 4:
            fail(f"{name} before {line!r}: pace record {p}, want 200 Mbit/s (± 2 %)")
    if k + 1 >= len(recs):
        fail(f"no period after {line!r}")
    after = recs[k + 1]
    p = flow_of(after, name, "pace")
    if p is None or p["rate_l1_mbps"] != 400.0 or abs(p["achieved_l1_mbps"] - 400) > 8:
        fail(f"{name}'s pace record in the period after {line!r}: {p}, want 400 Mbit/s ± 2 %")
    if after["time_s"] - (recs[k]["time_s"] - recs[k]["interval_s"]) > 1.0 + 0.05:
        fail(f"{name}'s period at 400 Mbit/s ends more than 1 s after the change")


def case_flows(engine, root, tmp):
    ini = write(os.path.join(tmp, "f.ini"), FLOWS_INI.format(duration="8s"))
    iv = os.path.join(tmp, "iv.jsonl")
    e = Engine(engine, ini, iv, ["-i"], stdin=True)
    e.wait_run(1.5)
    e.send("set rate s1 400Mbit")
    e.wait_for(r"tx: flow s1 at 400\.000 Mbit/s L1")
    e.send("set rate t1 400Mbit")
    e.wait_for(r"ttx: flow t1 at 400\.000 Mbit/s L1")
    e.send("stop r1")
    e.wait_for(r"error: task rx: flow r1 is a receiver")
    e.send("set rate s1 1Mpps")
    e.wait_for(r"error: task tx: flow s1: a flow's rate is in bit/s")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    e.send("stop s1")
    e.wait_for(r"tx: flow s1 holds its source")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    e.send("start s1")
    e.wait_for(r"tx: flow s1 takes from its source again")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    rc = e.finish()
    recs = e.records()
    for r in recs:
        s1, t1 = flow_of(r, "s1", "flows"), flow_of(r, "t1", "flows")
        print(f"  {r['time_s']:6.3f} s  s1 {s1['goodput_mbps']:8.3f}  t1 {t1['goodput_mbps']:8.3f}"
              f" Mbit/s goodput  {r['console']}")
    if rc != 0:
        fail(f"engine exited {rc}")
    check_flow_rate(recs, "set rate s1 400Mbit", "s1")
    check_flow_rate(recs, "set rate t1 400Mbit", "t1")
    s = record_of(recs, "stop s1")
    if s + 1 >= len(recs) or flow_of(recs[s + 1], "s1", "flows")["goodput_mbps"] > 1.0:
        fail("s1's goodput still grew in the period after stop s1")
    u = record_of(recs, "start s1")
    if u + 1 >= len(recs) or flow_of(recs[u + 1], "s1", "flows")["goodput_mbps"] < 300:
        fail("s1's goodput did not grow again (about 400 Mbit/s) after start s1")


def streams_of(r):
    return {x["name"]: x for x in r.get("streams", [])}


def case_streams(engine, root, tmp):
    ini = write(os.path.join(tmp, "s.ini"), STREAMS_INI.format(duration="8s"))
    iv = os.path.join(tmp, "iv.jsonl")
    e = Engine(engine, ini, iv, ["-i"], stdin=True)
    e.wait_run(1.5)
    e.send("stop tx0/1")
    e.wait_for(r"tx0: stream tx0/1 stopped")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    e.send("set rate tx0/2 50Mbit")
    e.wait_for(r"tx0: stream tx0/2: rate 50000000 bit/s = 50\.000 Mbit/s L1")
    e.send("stop tx0/9")
    e.wait_for(r"error: task tx0: no stream 9: streams tx0/0 \.\. tx0/3")
    e.send("show streams tx0")
    e.wait_for(r"stream tx0/3 dir tx packets \d+")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    e.send("start tx0/1")
    e.wait_for(r"tx0: stream tx0/1 sending")
    e.wait_run(e.records()[-1]["time_s"] + 2 * PERIOD)
    rc = e.finish()
    recs = e.records()
    for r in recs:
        st = streams_of(r)
        print(f"  {r['time_s']:6.3f} s " + " ".join(
            f"{n} {st[n]['l1_mbps']:7.2f}" for n in sorted(st)) + f"  {r['console']}")
    if rc != 0:
        fail(f"engine exited {rc}")
    if "stream tx0/0 dir tx" not in e.out():
        fail("show streams tx0 did not list the streams")
    k = record_of(recs, "stop tx0/1")
    if k + 1 >= len(recs):
        fail("no period after stop tx0/1")
    st = streams_of(recs[k + 1])
    if st["tx0/1"]["packets"] != 0 or st["rx0/198.18.0.1:1025"]["packets"] != 0:
        fail(f"stream 1 still sent or was received after stop tx0/1: {st['tx0/1']}")
    if any(st[f"tx0/{i}"]["packets"] == 0 for i in (0, 2, 3)):
        fail("another stream stopped with tx0/1")
    # the three take stream 1's share of the task's rate (a loaded host may fall short)
    total = sum(st[f"tx0/{i}"]["l1_mbps"] for i in range(4))
    if not 0.8 * 400 <= total <= 1.02 * 400:
        fail(f"tx0's streams at {total:.1f} Mbit/s L1 after stop tx0/1, want 400")
    k = record_of(recs, "set rate tx0/2 50Mbit")
    st = streams_of(recs[k + 1]) if k + 1 < len(recs) else {}
    if not st or not 0.8 * 50 <= st["tx0/2"]["l1_mbps"] <= 1.02 * 50 or \
            st["tx0/2"]["rate_l1_mbps"] != 50:
        fail(f"tx0/2 after set rate tx0/2 50Mbit: {st.get('tx0/2')}, want 50 Mbit/s L1")
    if st["tx0/0"]["l1_mbps"] < 2 * 50:
        fail("the other streams did not keep their share after set rate tx0/2 50Mbit")
    k = record_of(recs, "start tx0/1")
    st = streams_of(recs[k + 1]) if k + 1 < len(recs) else {}
    if not st or st["tx0/1"]["packets"] == 0 or st["tx0/1"]["stopped"]:
        fail("tx0/1 did not send again after start tx0/1")


CASES = {"stdin": case_stdin, "telemetry": case_telemetry, "flows": case_flows,
         "streams": case_streams}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "console-"))
