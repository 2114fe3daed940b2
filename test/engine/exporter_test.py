# SPDX-License-Identifier: BSD-3-Clause
"""tools/dfcp-exporter scraped for real (issue 33).

usage: exporter_test.py ENGINE SOURCE_ROOT

A txonly -> rxonly run on net_ring (configs/txonly.ini, 8 s, --live off); the exporter on a
free port against its telemetry socket; /metrics scraped twice 1 s apart: dfcp_up 1, the
txonly port's dfcp_port_tx_packets_total and its stream's dfcp_stream_packets_total present
and increasing, the text parsed by
prometheus_client.parser; after the engine exits a scrape still answers, with dfcp_up 0.
The exporter without a socket exits 2 naming it. Exit 77 without python3-prometheus-client.
"""
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

SYS_PY = "/usr/bin/python3"  # Debian's python3-prometheus-client is installed for it
try:
    import prometheus_client.parser as promparse
except ImportError:
    if os.path.realpath(sys.executable) != os.path.realpath(SYS_PY) and os.access(SYS_PY, os.X_OK) \
            and subprocess.run([SYS_PY, "-c", "import prometheus_client"],
                               capture_output=True).returncode == 0:
        os.execv(SYS_PY, [SYS_PY] + sys.argv)
    print("SKIP: the Python module prometheus_client is not importable "
          "(apt-get install python3-prometheus-client)")
    sys.exit(77)


# the CPU lock is engine_test.py's to test; here another engine on CPU 1 may run beside
os.environ.setdefault("DFCP_ALLOW_SHARED_CPU", "1")


def fail(msg):
    print("FAIL:", msg, flush=True)
    sys.exit(1)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def scrape(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        if r.status != 200:
            fail(f"/metrics: HTTP {r.status}")
        return r.read().decode()


def samples(text):
    """{(name, frozenset(labels)): value}; fails when the text does not parse."""
    out = {}
    try:
        for fam in promparse.text_string_to_metric_families(text):
            for s in fam.samples:
                out[(s.name, frozenset(s.labels.items()))] = s.value
    except Exception as e:  # noqa: BLE001 - any parse error fails the test
        fail(f"exposition text does not parse: {e}")
    return out


def value(smp, metric, **labels):
    return smp.get((metric, frozenset(labels.items())))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    engine, root = sys.argv[1:]
    exporter = [sys.executable, os.path.join(root, "tools", "dfcp-exporter")]

    p = subprocess.run(exporter + ["--socket", "/nonexistent/dpdk_telemetry.v2"],
                       capture_output=True, text=True, timeout=20)
    if p.returncode != 2 or "/nonexistent/dpdk_telemetry.v2" not in p.stderr:
        fail(f"exporter without a socket: exit {p.returncode}, stderr {p.stderr!r}")

    cmd = [engine, "--", "--config", os.path.join(root, "configs", "txonly.ini"),
           "--duration", "8", "--live", "off"]
    print("$", " ".join(cmd), flush=True)
    eng = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    path = None
    for line in eng.stdout:
        sys.stdout.write(line)
        m = re.search(r"telemetry: (\S+)", line)
        if m:
            path = m.group(1)
            break
    if path is None:
        eng.kill()
        fail("no telemetry line from the engine")
    port = free_port()
    ecmd = exporter + ["--socket", path, "--port", str(port)]
    print("$", " ".join(ecmd), flush=True)
    exp = subprocess.Popen(ecmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.time() + 15
        while True:
            try:
                first = samples(scrape(port))
                if value(first, "dfcp_port_tx_packets_total", port="p0"):
                    break
            except OSError:
                if exp.poll() is not None:
                    fail(f"exporter exited {exp.returncode}: {exp.stdout.read()}")
            if time.time() > deadline:
                fail("no dfcp_port_tx_packets_total{port=\"p0\"} within 15 s")
            time.sleep(0.2)
        time.sleep(1)
        text = scrape(port)
        second = samples(text)
        print("\n".join(l for l in text.splitlines() if l.startswith("dfcp_"))[:3000])
        if value(first, "dfcp_up") != 1 or value(second, "dfcp_up") != 1:
            fail("dfcp_up is not 1 while the engine runs")
        a = value(first, "dfcp_port_tx_packets_total", port="p0")
        b = value(second, "dfcp_port_tx_packets_total", port="p0")
        print(f"p0 tx packets: {a:.0f} then {b:.0f}")
        if not b > a:
            fail(f"p0 tx packets did not grow between scrapes ({a} -> {b})")
        if not value(second, "dfcp_port_rx_packets_total", port="p1"):
            fail("no rx packets counted on p1")
        if value(second, "dfcp_lcore_busy_ratio", lcore="1") is None:
            fail("no dfcp_lcore_busy_ratio{lcore=\"1\"}")
        sa = value(first, "dfcp_stream_packets_total", name="tx0/0", task="tx0", dir="tx")
        sb = value(second, "dfcp_stream_packets_total", name="tx0/0", task="tx0", dir="tx")
        print(f"stream tx0/0 packets: {sa} then {sb}")
        if sa is None or sb is None or not sb > sa:
            fail("dfcp_stream_packets_total of tx0/0 missing or not growing")

        out, _ = eng.communicate(timeout=40)
        sys.stdout.write(out[-600:])
        if eng.returncode != 0:
            fail(f"engine exited {eng.returncode}")
        after = samples(scrape(port))
        if value(after, "dfcp_up") != 0:
            fail(f"dfcp_up is {value(after, 'dfcp_up')} after the engine exited, want 0")
        if exp.poll() is not None:
            fail("exporter exited with the engine")
        print("after the engine: dfcp_up 0, the exporter answers")
    finally:
        if eng.poll() is None:
            eng.kill()
            eng.wait()
        if exp.poll() is None:
            exp.terminate()
            try:
                exp.wait(timeout=10)
            except subprocess.TimeoutExpired:
                exp.kill()
                exp.wait()
    if exp.returncode != 0:
        fail(f"exporter exited {exp.returncode} on SIGTERM, want 0")
    print("PASS exporter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
