"""No process of a test run outlives it, also when its tests fail: a nested pytest run whose
tests fail with a real server running (one inside its with block, one whose teardown never ran)
leaves no process behind when it exits, run in one process or on pytest-xdist's workers."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBES = textwrap.dedent(
    """
    import os
    from pathlib import Path

    from tests import processes
    from tests.faults.server import running, start, upgrade

    PIDS = Path(os.environ["TENTO_PROBE_PIDS"])


    def note(pid):
        with PIDS.open("a") as pids:  # one line a pid: xdist's workers append side by side
            pids.write(f"{pid}\\n")


    def database(tmp_path):
        url = f"sqlite:///{tmp_path / 'probe.sqlite3'}"
        upgrade(url)
        return url


    def test_fails_inside_a_running_server(tmp_path):
        with running(database(tmp_path), tmp_path) as server:
            note(server.process.pid)
            assert False, "a failure while the server runs"


    def test_fails_and_its_teardown_never_runs(tmp_path):
        server = start(database(tmp_path), tmp_path)
        note(server.process.pid)
        sleeper = processes.spawn(["sleep", "600"])
        note(sleeper.pid)
        assert False, "a failure that skips the stop"
    """
)


def alive(pid: int) -> bool:
    """True while a process (or a zombie nobody reaped) with this id exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def group_alive(pgid: int) -> bool:
    """True while any process of this process group exists."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def still_running(pids: list[int], reaping: float = 60) -> list[int]:
    """The processes (or process groups) among `pids` that exist after up to `reaping` seconds.
    A stopped server's workers that outlived their master are zombies until init reaps them,
    which it may do a few seconds later; a process the run left running stays for good (the
    probes' sleep lasts 600 s)."""
    deadline = time.monotonic() + reaping
    while True:
        left = [pid for pid in pids if alive(pid) or group_alive(pid)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_a_failing_run_leaves_no_server_or_worker_running(
    tmp_path: Path, workers: list[str]
) -> None:
    """Servers (gunicorn and its workers) and other processes the tests start are stopped when
    the session ends, whether their test passed, failed inside a with block, or failed before
    its own stop; under xdist each worker stops what its tests left, and the run says so."""
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "test_probe.py").write_text(PROBES)
    pids = tmp_path / "pids.txt"
    pids.write_text("")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "-p", "tests.conftest", *workers, "--rootdir", str(folder), str(folder / "test_probe.py")],
        cwd=ROOT, env={**os.environ, "TENTO_PROBE_PIDS": str(pids)},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    started = [int(pid) for pid in pids.read_text().split()]
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    assert "2 failed" in run.stdout, run.stdout[-3000:]
    assert len(started) == 3, run.stdout[-3000:]
    assert still_running(started) == []
    assert "left running by the tests, now stopped" in run.stderr
