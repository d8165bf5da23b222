"""A throwaway PostgreSQL cluster for the tests and benchmarks: initdb into a temporary folder,
a free loopback port, trust auth, no fsync. `scripts/setup-dev` installs the server binaries;
when they are missing or the server will not start, `PgCluster.start` raises `PgUnavailable`
saying why, and the tests that need it fail with that message (never skip)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

USER = "arena"
SETTINGS = {
    # A test cluster: speed over durability (the stores' own transactions are what is tested).
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "shared_buffers": "64MB",
    "listen_addresses": "127.0.0.1",
}


class PgUnavailable(RuntimeError):
    """No PostgreSQL server could be started here; the message says why and what to run."""


def bin_dir() -> Path:
    """The folder holding initdb and postgres: $PG_BIN, PATH, or Debian's versioned folders."""
    candidates = [os.environ.get("PG_BIN", "")]
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(os.path.realpath(found)).parent))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    raise PgUnavailable(
        "PostgreSQL server binaries (initdb, postgres) not found; run `bash scripts/setup-dev` "
        "(it installs Debian's postgresql package) or set PG_BIN to their folder"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgCluster:
    def __init__(self) -> None:
        # Under /tmp when root: the server's own user must reach the folder ($TMPDIR may not).
        where = "/tmp" if os.geteuid() == 0 and os.path.isdir("/tmp") else None
        self.root = Path(tempfile.mkdtemp(prefix="cogs-arena-pg-", dir=where))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self._runas: list[str] = []

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 60.0) -> None:
        binaries = bin_dir()
        data = self.root / "data"
        if os.geteuid() == 0:
            # postgres refuses to run as root: the cluster belongs to an ordinary user.
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError as exc:
                raise PgUnavailable(
                    "running as root and no 'postgres' user to run the server as; install "
                    "Debian's postgresql package (bash scripts/setup-dev)"
                ) from exc
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self.root.chmod(0o755)
            self._runas = ["runuser", "-u", "postgres", "--"]
        log = self.root / "initdb.log"
        init = subprocess.run(
            [
                *self._runas,
                str(binaries / "initdb"),
                "-D",
                str(data),
                "-U",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if init.returncode != 0:
            log.write_text(init.stdout + init.stderr)
            raise PgUnavailable(f"initdb failed ({init.returncode}): {init.stderr[-1500:]}")
        self._run(binaries, data, timeout)

    def restart(self, timeout: float = 60.0) -> None:
        """Stops the server (a fast shutdown: every connection is dropped) and starts it again on
        the same data and port, as a database restart or failover looks to its clients."""
        if self.proc is None:
            raise PgUnavailable("the cluster was never started")
        self._shutdown()
        self._run(bin_dir(), self.root / "data", timeout)

    def _run(self, binaries: Path, data: Path, timeout: float) -> None:
        options: list[str] = ["-p", str(self.port), "-k", str(self.root)]
        for name, value in SETTINGS.items():
            options += ["-c", f"{name}={value}"]
        server_log = self.root / "server.log"
        with open(server_log, "ab") as out:
            self.proc = subprocess.Popen(
                [*self._runas, str(binaries / "postgres"), "-D", str(data), *options],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise PgUnavailable(
                    f"postgres exited with {self.proc.returncode}: "
                    + server_log.read_text(errors="replace")[-1500:]
                )
            if self._ready():
                return
            time.sleep(0.1)
        self.stop()
        raise PgUnavailable(f"postgres did not accept connections within {timeout:.0f}s")

    def _ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url(), connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def postmaster(self) -> int | None:
        """The server's own pid (under runuser when started as root), for CPU accounting."""
        if self.proc is None:
            return None
        if not self._runas:
            return self.proc.pid
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        return int(children.split()[0]) if children.split() else None

    def new_database(self, prefix: str = "t") -> str:
        """A fresh empty database; returns its URL."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        self._shutdown()
        with contextlib.suppress(OSError):
            shutil.rmtree(self.root)

    def _shutdown(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            # SIGINT to the group (runuser and the postmaster): PostgreSQL's fast shutdown.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
