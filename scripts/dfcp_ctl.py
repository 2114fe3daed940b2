#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Drive a running dfcp-engine through its console over the telemetry socket
(/dfcp/cmd,LINE; doc/observability.md, "The console"). Python standard library only.

As a module:

    from dfcp_ctl import Engine
    e = Engine("/var/run/dpdk/PREFIX/dpdk_telemetry.v2")
    e.cmd("set rate tx0 3G")     # {"ok": True, "out": "tx0: rate ..."}
    e.cmd("show tasks")["out"]["tasks"]
    e.close()

cmd() returns the engine's answer, {"ok": true, "out": ...} or {"ok": false, "error": "..."};
Engine.check() is cmd() that raises EngineError on an error answer. Engine.wait(path)
waits for the socket of an engine that is starting. The socket path is printed by the
engine at start ("telemetry: PATH"); Engine.socket_for(prefix) builds it from an EAL file
prefix as DPDK does.

As a program, each LINE is run in turn and its answer printed (JSON with --json, else the
text of "out" or the error); exit 0, 1 when a line was refused, 2 when the engine could not
be reached:

    scripts/dfcp_ctl.py --socket /var/run/dpdk/eng/dpdk_telemetry.v2 'set rate tx0 3G'
    scripts/dfcp_ctl.py --prefix eng 'show tasks' 'stop tx0'
"""
import argparse
import json
import os
import socket
import sys
import time

CMD = "/dfcp/cmd"


class EngineError(Exception):
    """An answer {"ok": false, "error": ...}, or an engine that cannot be reached."""


class Engine:
    """One connection to an engine's telemetry socket (AF_UNIX, SOCK_SEQPACKET)."""

    def __init__(self, path, timeout=15.0):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(path)
            self.info = json.loads(self.sock.recv(1 << 16).decode())  # the greeting
        except (OSError, ValueError) as e:
            self.sock.close()
            raise EngineError(f"{path}: {e}") from e

    @staticmethod
    def socket_for(prefix):
        """The telemetry socket of EAL file prefix `prefix` (root: /var/run/dpdk)."""
        base = "/var/run/dpdk" if os.geteuid() == 0 else \
            os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")
        return os.path.join(base, prefix, "dpdk_telemetry.v2")

    @classmethod
    def wait(cls, path, timeout=15.0):
        """Connect once the engine has made its socket and registered /dfcp/cmd."""
        deadline = time.time() + timeout
        while True:
            try:
                e = cls(path)
                if e.cmd("help").get("ok"):
                    return e
                e.close()
            except EngineError:
                pass
            if time.time() > deadline:
                raise EngineError(f"{path}: no engine console within {timeout:g} s")
            time.sleep(0.1)

    def cmd(self, line):
        """Run one console line; the engine's answer as a dict."""
        if "\n" in line:
            raise ValueError("one line at a time")
        try:
            self.sock.send(f"{CMD},{line}".encode())
            reply = json.loads(self.sock.recv(1 << 20).decode())
        except (OSError, ValueError) as e:
            raise EngineError(f"{self.path}: {e}") from e
        ans = reply.get(CMD)
        if isinstance(ans, str):  # the answer is one JSON string (DPDK's single string)
            return json.loads(ans)
        if ans is None:  # an engine without /dfcp/cmd (or one still starting)
            return {"ok": False, "error": f"no {CMD} on this engine: {reply!r:.200}"}
        return ans

    def check(self, line):
        """cmd() that raises EngineError on an error answer; the answer's "out"."""
        r = self.cmd(line)
        if not r.get("ok"):
            raise EngineError(f"{line}: {r.get('error')}")
        return r.get("out")

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--socket", help="the engine's telemetry socket")
    where.add_argument("--prefix", help="the engine's EAL file prefix (--file-prefix)")
    ap.add_argument("--json", action="store_true", help="print each answer as JSON")
    ap.add_argument("--timeout", type=float, default=15.0,
                    help="seconds to wait for the engine (15)")
    ap.add_argument("lines", nargs="+", metavar="LINE", help="console lines, e.g. 'help'")
    a = ap.parse_args()
    path = a.socket or Engine.socket_for(a.prefix)
    try:
        e = Engine.wait(path, a.timeout)
    except EngineError as err:
        print(f"dfcp_ctl: {err}", file=sys.stderr)
        return 2
    rc = 0
    with e:
        for line in a.lines:
            try:
                r = e.cmd(line)
            except EngineError as err:
                print(f"dfcp_ctl: {err}", file=sys.stderr)
                return 2
            if a.json:
                print(json.dumps(r))
            elif r.get("ok"):
                out = r.get("out")
                print(out if isinstance(out, str) else json.dumps(out, indent=1))
            else:
                print(f"error: {r.get('error')}", file=sys.stderr)
            rc = rc or (0 if r.get("ok") else 1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
