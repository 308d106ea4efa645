"""A throw-away PostgreSQL server on 127.0.0.1 for the tests (Debian's postgresql package)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from . import processes

DATABASE = "tento_test"
PACKAGE = "postgresql"


def find_bin_dir() -> Path | None:
    """The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl, else PATH's."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True
    )
    for candidate in candidates:
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PgServer:
    """A PostgreSQL cluster in a temporary folder; start() it, use url, always stop() it."""

    bin_dir: Path
    root: Path
    port: int

    @classmethod
    def create(cls) -> PgServer | None:
        """A server ready to start, or None when PostgreSQL is not installed."""
        bin_dir = find_bin_dir()
        if bin_dir is None:
            return None
        root = Path(tempfile.mkdtemp(prefix="tento-pg-"))
        return cls(bin_dir=bin_dir, root=root, port=free_port())

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the test database (psycopg 3, trust auth on loopback)."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str) -> None:
        """Run a PostgreSQL program as the postgres user when we are root (initdb refuses root)."""
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        """initdb, start on 127.0.0.1:port with its socket in the temp folder, create the db;
        until `stop`, the session's end stops it if its owner did not (tests/processes.py)."""
        processes.remember(self, f"PostgreSQL on port {self.port} ({self.root})", self.stop)
        data = self.root / "data"
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        log = str(self.root / "server.log")
        self._run("pg_ctl", "-D", str(data), "-o", options, "-l", log, "-w", "-t", "60", "start")
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", DATABASE)

    def restart(self) -> None:
        """Restart the server as an upgrade would: a fast shutdown closes every connection (each
        backend says goodbye and exits), then it starts again with the same options and port."""
        data, log = str(self.root / "data"), str(self.root / "server.log")
        self._run("pg_ctl", "-D", data, "-l", log, "-m", "fast", "-w", "-t", "60", "restart")

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        data = self.root / "data"
        lock = data / "postmaster.pid"
        try:
            if lock.exists():
                postmaster = int(lock.read_text().split()[0])
                try:
                    self._run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")
                except BaseException:  # pg_ctl failed or was cut short: the server still goes
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(postmaster, signal.SIGQUIT)  # PostgreSQL's immediate shutdown
                    raise
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            processes.forget(self)


def new_database(server_url: str, prefix: str = "tento") -> str:
    """A new empty database on the server of `server_url`; its SQLAlchemy URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(server_url)
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    dsn = f"host={url.host} port={url.port} user={url.username} dbname={url.database}"
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    return url.set(database=name).render_as_string(hide_password=False)
