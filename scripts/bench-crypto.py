#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""DFCP goodput with and without encryption (issue #36; a benchmark, not a test).

configs/dfcp-ring.ini (one lcore, net_ring) with its bytes raised, or with --plr the
random-loss router of bench-lossy.py, in the modes named (alternated run by run, the
median of each printed): off, auth (auth_key: SipHash tags), gcm / chacha
(crypto = aes-128-gcm / chacha20-poly1305, crypto_backend = auto), gcm-cdev
(crypto_backend = cryptodev) and gcm-ossl / chacha-ossl (crypto_backend = openssl); the
backend each run used is printed. Every run must end verified.

  flock /tmp/dfcp-heavy.lock scripts/bench-crypto.py --runs 3 --bytes 1GiB
  flock /tmp/dfcp-heavy.lock scripts/bench-crypto.py --runs 3 --bytes 1GiB --plr 10%
"""
import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = {
    "off": "",
    "auth": "auth_key = {key}\ncrypto = off\n",
    "gcm": "auth_key = {key}\ncrypto = aes-128-gcm\n",
    "chacha": "auth_key = {key}\ncrypto = chacha20-poly1305\n",
    "gcm-cdev": "auth_key = {key}\ncrypto = aes-128-gcm\ncrypto_backend = cryptodev\n",
    "gcm-ossl": "auth_key = {key}\ncrypto = aes-128-gcm\ncrypto_backend = openssl\n",
    "chacha-ossl": "auth_key = {key}\ncrypto = chacha20-poly1305\ncrypto_backend = openssl\n",
}


def base_config(args):
    if args.plr is None:
        with open(os.path.join(ROOT, "configs", "dfcp-ring.ini")) as f:
            text = f.read()
        text = re.sub(r"(?m)^duration = .*$", f"duration = {args.limit}s", text)
        return re.sub(r"(?m)^bytes = .*$", f"bytes = {args.bytes}", text)
    spec = importlib.util.spec_from_file_location("bench_lossy",
                                                  os.path.join(ROOT, "scripts", "bench-lossy.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CONFIG.format(limit=args.limit, plr=args.plr, seed=1, nbytes=args.bytes,
                             csum="auto")


def with_keys(text, keys):
    # the keys of both flows: after the sender's bytes and the receiver's sink
    text = re.sub(r"(?m)^(bytes = .*)$", lambda m: m.group(1) + "\n" + keys.rstrip("\n"), text)
    return re.sub(r"(?m)^(sink = verify)$", lambda m: m.group(1) + "\n" + keys.rstrip("\n"),
                  text)


def one_run(args, tmp, base, mode, n, key):
    cfg = os.path.join(tmp, f"{mode}{n}.ini")
    out = os.path.join(tmp, f"{mode}{n}.json")
    with open(cfg, "w") as f:
        f.write(with_keys(base, MODES[mode].format(key=key)))
    cmd = [args.engine, "--", "--config", cfg, "--summary-json", out, "--live", "off",
           "--allow-shared-cpu"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=args.limit + 60)
    try:
        r = [f for f in json.load(open(out))["flows"] if f["name"] == "r1"][0]
    except (OSError, ValueError, KeyError, IndexError) as e:
        sys.stdout.write(p.stdout[-3000:])
        sys.exit(f"{mode} run {n}: exit {p.returncode}, no summary ({e})")
    m = re.search(r" through (\S+) \(", p.stdout)
    backend = m.group(1) if m else "?"
    gp = r["goodput_mbps"] / 1000
    print(f"{mode:12s} run {n}: {gp:6.2f} Gbit/s in {r['active_s']:.2f} s, exit "
          f"{p.returncode}, {'verify ok' if 'verify ok' in p.stdout else 'NOT VERIFIED'}"
          f"{', ' + backend if mode not in ('off', 'auth') else ''}; load "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    if p.returncode != 0 or "verify ok" not in p.stdout:
        sys.stdout.write(p.stdout[-3000:])
        sys.exit(1)
    return gp


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bytes", default="1GiB")
    ap.add_argument("--plr", default=None, help="through bench-lossy.py's router at this loss")
    ap.add_argument("--modes", default="off,auth,gcm,chacha")
    ap.add_argument("--limit", type=int, default=60, help="engine duration limit (s)")
    ap.add_argument("--engine", default=os.environ.get("ENGINE",
                                                       "build/app/dfcp-engine/dfcp-engine"))
    args = ap.parse_args()
    modes = args.modes.split(",")
    base = base_config(args)
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.bytes}, "
          f"plr {args.plr or 0}, modes {modes}", flush=True)
    res = {m: [] for m in modes}
    with tempfile.TemporaryDirectory() as tmp:
        key = os.path.join(tmp, "key")
        with open(key, "wb") as f:
            f.write(os.urandom(32))
        for n in range(args.runs):
            for m in modes:
                res[m].append(one_run(args, tmp, base, m, n, key))
    for m in modes:
        print(f"{m:12s} median {statistics.median(res[m]):.2f} Gbit/s of "
              f"{' '.join(f'{v:.2f}' for v in res[m])}")
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
