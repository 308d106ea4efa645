"""No process of a test run outlives it, also when its tests fail: a nested pytest run whose
tests fail with a real server running (one inside its with block, one whose teardown never ran)
leaves no process behind when it exits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBES = textwrap.dedent(
    """
    import json, os
    from pathlib import Path

    from tests import processes
    from tests.faults.server import running, start, upgrade

    PIDS = Path(os.environ["TENTO_PROBE_PIDS"])


    def note(pid):
        PIDS.write_text(json.dumps([*json.loads(PIDS.read_text() or "[]"), pid]))


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


def test_a_failing_run_leaves_no_server_or_worker_running(tmp_path: Path) -> None:
    """Servers (gunicorn and its workers) and other processes the tests start are stopped when
    the session ends, whether their test passed, failed inside a with block, or failed before
    its own stop."""
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "test_probe.py").write_text(PROBES)
    pids = tmp_path / "pids.json"
    pids.write_text("[]")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
         "-p", "tests.conftest", "--rootdir", str(folder), str(folder / "test_probe.py")],
        cwd=ROOT, env={**os.environ, "TENTO_PROBE_PIDS": str(pids)},
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    started = json.loads(pids.read_text())
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    assert "2 failed" in run.stdout, run.stdout[-3000:]
    assert len(started) == 3, run.stdout[-3000:]
    assert [pid for pid in started if alive(pid) or group_alive(pid)] == []
    assert "left running by the tests, now stopped" in run.stderr
