"""Real Redis processes for the ``cluster`` tests (issue 28), from this machine's binaries.

:class:`Servers` starts ``redis-server`` processes on free ports in one temporary
directory and stops every one it started (by its own process handle) at :meth:`close`:

* :meth:`Servers.cluster`: 3 primaries with a replica each, made with
  ``redis-cli --cluster create ... --cluster-replicas 1 --cluster-yes``
  (``cluster-node-timeout`` 1.5 s, so a killed primary's replica takes over in seconds;
  ``cluster-require-full-coverage no``, as docs/deploy.md asks: with Redis's default
  every node refuses every command, ``CLUSTERDOWN``, from the moment the dead primary
  is marked failed until its replica is promoted, and every game pauses);
* :meth:`Servers.sentinel`: a primary, its replica and 3 ``redis-server --sentinel``
  processes watching it (down after 1 s);
* :meth:`Servers.single`: one plain Redis (the load tests' control plane: request
  queues and the save log, kept apart from the Redis under test).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server")
REDIS_CLI = shutil.which("redis-cli")
HOST = "127.0.0.1"


def free_port(start: int) -> int:
    """The first port from ``start`` nobody listens on (and that binds now)."""
    for port in range(start, start + 2000):
        with socket.socket() as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue
            # a cluster node also listens on port + 10000 (its bus)
            if start < 20000:
                with socket.socket() as bus:
                    try:
                        bus.bind((HOST, port + 10000))
                    except OSError:
                        continue
            return port
    raise RuntimeError(f"no free port from {start}")


def ops_base(start: int = 7300, workers: int = 3) -> int:
    """A port ``B`` with ``B + 1`` to ``B + workers`` free (the reliability worker
    ``w<k>`` serves its operator's endpoints on ``B + k``: a taken ``B + k`` made that
    worker exit 1 at start)."""
    base = start
    while True:
        base = free_port(base)
        if all(free_port(base + k) == base + k for k in range(1, workers + 1)):
            return base
        base += workers + 1


def cli(port: int, *args: str, timeout: float = 60.0) -> str:
    """``redis-cli -p port args...``; its stdout (raises on a non-zero exit)."""
    done = subprocess.run([REDIS_CLI or "redis-cli", "-h", HOST, "-p", str(port), *args],
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"redis-cli {' '.join(args)}: {done.stdout}{done.stderr}")
    return done.stdout


def info(port: int, section: str) -> dict[str, str]:
    """``INFO section`` (or ``CLUSTER INFO`` for ``section="cluster-info"``) as a dict."""
    args = ["cluster", "info"] if section == "cluster-info" else ["info", section]
    out: dict[str, str] = {}
    for line in cli(port, *args, timeout=5).splitlines():
        key, sep, value = line.strip().partition(":")
        if sep:
            out[key] = value
    return out


@dataclass
class Node:
    """One redis-server process we started."""

    port: int
    proc: subprocess.Popen[bytes]
    args: list[str]
    role: str = "primary"
    node_id: str = ""

    def alive(self) -> bool:
        return self.proc.poll() is None


@dataclass
class Servers:
    """Every Redis process one test started (see the module docstring)."""

    tmp: Path
    nodes: dict[int, Node] = field(default_factory=dict)

    def start(self, port: int, *extra: str, sentinel: bool = False) -> Node:
        """Start one ``redis-server`` (its own directory and log) and wait for PING."""
        home = self.tmp / str(port)
        home.mkdir(parents=True, exist_ok=True)
        conf = home / ("sentinel.conf" if sentinel else "redis.conf")
        if not conf.exists():
            conf.write_text("")
        args = [REDIS_SERVER or "redis-server", str(conf), *(["--sentinel"] if sentinel else []),
                "--port", str(port), "--bind", HOST, "--dir", str(home),
                "--logfile", str(home / "log.txt"), "--save", "", "--appendonly", "no",
                "--protected-mode", "no", *extra]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        node = Node(port, proc, args)
        self.nodes[port] = node
        self.wait_ping(port)
        return node

    def restart(self, port: int) -> Node:
        """Start a killed node again with its arguments (and its cluster config)."""
        old = self.nodes[port]
        proc = subprocess.Popen(old.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.nodes[port] = Node(port, proc, old.args, old.role, old.node_id)
        self.wait_ping(port)
        return self.nodes[port]

    def wait_ping(self, port: int, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with contextlib.suppress(Exception):
                if cli(port, "ping", timeout=2).strip() == "PONG":
                    return
            time.sleep(0.05)
        raise TimeoutError(f"redis on {port} does not answer")

    def kill(self, port: int) -> float:
        """SIGKILL the node on ``port``; the monotonic time of the kill."""
        self.nodes[port].proc.send_signal(signal.SIGKILL)
        self.nodes[port].proc.wait(10)
        return time.monotonic()

    def close(self) -> None:
        for node in self.nodes.values():
            if node.alive():
                node.proc.send_signal(signal.SIGKILL)
        for node in self.nodes.values():
            with contextlib.suppress(Exception):
                node.proc.wait(10)

    # -- shapes -----------------------------------------------------------------------
    def single(self, base: int = 7150) -> int:
        """One plain Redis; its port."""
        return self.start(free_port(base)).port

    def cluster(self, base: int = 7100, primaries: int = 3, *extra: str) -> list[int]:
        """A cluster of ``primaries`` primaries with a replica each, every node started
        with the ``extra`` arguments too (later ones win); the ports, primaries first
        (as ``--cluster create`` assigns them)."""
        ports: list[int] = []
        for _ in range(primaries * 2):
            ports.append(self.start(free_port(max([base, *ports]) + 1 if ports else base),
                                    *self.cluster_args(), *extra).port)
        cli(ports[0], "--cluster", "create", *[f"{HOST}:{p}" for p in ports],
            "--cluster-replicas", "1", "--cluster-yes", timeout=120)
        self.wait_cluster_ok(ports)
        for port in ports:
            self.nodes[port].node_id = cli(port, "cluster", "myid").strip()
            self.nodes[port].role = info(port, "replication")["role"]
        return ports

    @staticmethod
    def cluster_args() -> list[str]:
        return ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", "1500", "--cluster-replica-validity-factor", "0",
                "--cluster-require-full-coverage", "no", "--appendonly", "no"]

    def wait_cluster_ok(self, ports: list[int], timeout: float = 60.0) -> None:
        """Until every live node of ``ports`` says ``cluster_state:ok`` and agrees on
        the slots (every slot covered)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            states = []
            for port in ports:
                if not self.nodes[port].alive():
                    continue
                with contextlib.suppress(Exception):
                    got = info(port, "cluster-info")
                    states.append(got.get("cluster_state") == "ok"
                                  and got.get("cluster_slots_ok") == "16384")
                    continue
                states.append(False)
            if states and all(states):
                return
            time.sleep(0.1)
        raise TimeoutError("cluster not ok")

    def primary_of_replica(self, replica: int) -> int:
        """The port of the primary ``replica`` follows."""
        return int(info(replica, "replication")["master_port"])

    def replica_of(self, primary: int, ports: list[int]) -> int:
        """The port of a node of ``ports`` that replicates ``primary``."""
        for port in ports:
            if port != primary and self.nodes[port].alive():
                got = info(port, "replication")
                if got["role"] == "slave" and int(got.get("master_port", "0")) == primary:
                    return port
        raise LookupError(f"no replica of {primary}")

    async def wait_role(self, port: int, role: str, timeout: float = 30.0) -> float:
        """Until the node on ``port`` reports ``role`` (``master``/``slave``); the
        monotonic time it did."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with contextlib.suppress(Exception):
                if (await asyncio.to_thread(info, port, "replication"))["role"] == role:
                    return time.monotonic()
            await asyncio.sleep(0.05)
        raise TimeoutError(f"{port} is not {role}")

    def sentinel(self, base: int = 7200, sentinel_base: int = 26400,
                 master: str = "mymaster") -> tuple[int, int, list[int]]:
        """A primary, its replica and 3 sentinels (quorum 2): ``(primary, replica,
        sentinel ports)``."""
        primary = self.start(free_port(base)).port
        replica = self.start(free_port(primary + 1), "--replicaof", HOST, str(primary)).port
        sentinels: list[int] = []
        for _ in range(3):
            port = free_port(max([sentinel_base, *sentinels]) + 1 if sentinels
                             else sentinel_base)
            home = self.tmp / str(port)
            home.mkdir(parents=True, exist_ok=True)
            (home / "sentinel.conf").write_text(
                f"sentinel monitor {master} {HOST} {primary} 2\n"
                f"sentinel down-after-milliseconds {master} 1000\n"
                f"sentinel failover-timeout {master} 5000\n"
                f"sentinel parallel-syncs {master} 1\n")
            sentinels.append(self.start(port, sentinel=True).port)
        end = time.monotonic() + 30
        while time.monotonic() < end:  # the sentinels know each other and the replica
            with contextlib.suppress(Exception):
                got = cli(sentinels[0], "sentinel", "master", master, timeout=5).split()
                fields = dict(zip(got[::2], got[1::2], strict=False))
                if int(fields.get("num-other-sentinels", 0)) >= 2 and int(
                        fields.get("num-slaves", 0)) >= 1:
                    return primary, replica, sentinels
            time.sleep(0.2)
        raise TimeoutError("sentinels did not settle")
