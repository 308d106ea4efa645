"""The long-lived processes the tests start (servers and their workers, PostgreSQL): each in a
process group of its own, stopped by its id in teardown; whatever a teardown missed is stopped
when the session ends (tests/conftest.py), also after a failure or Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable, Sequence
from typing import Any

_GROUPS: dict[int, subprocess.Popen[bytes]] = {}  # process group id -> its leader
_STOPPERS: dict[int, tuple[str, Callable[[], None]]] = {}  # id(owner) -> (what, stop)


def spawn(command: Sequence[str], **options: Any) -> subprocess.Popen[bytes]:
    """Start `command` as the leader of a new process group (its children, e.g. gunicorn's
    workers, join it) and remember the group until `stop` ends it. Ctrl+C (SIGINT) acts in it as
    in a terminal, even when this run was started in the background (which ignores it)."""
    before = options.pop("preexec_fn", None)

    def prepare() -> None:
        """SIGINT back to its default action, then what the caller asked for."""
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if before is not None:
            before()

    process: subprocess.Popen[bytes] = subprocess.Popen(
        command, start_new_session=True, preexec_fn=prepare, **options
    )
    _GROUPS[process.pid] = process
    return process


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, wait: float = 20) -> None:
    """Send `sig` to the process group of a spawned process, give its leader `wait` seconds to
    exit, then SIGKILL whatever is left of the group (the leader, or a worker that outlived it)."""
    try:
        _signal_group(process.pid, sig)
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass
        _signal_group(process.pid, signal.SIGKILL)
        process.wait(timeout=wait)
    finally:
        _GROUPS.pop(process.pid, None)


def _signal_group(pgid: int, sig: int) -> None:
    """Send a signal to a process group, if anything is left in it."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def remember(owner: object, what: str, stopper: Callable[[], None]) -> None:
    """Remember how to stop something that is not a process group of ours (a PostgreSQL server
    that pg_ctl started), until `forget`."""
    _STOPPERS[id(owner)] = (what, stopper)


def forget(owner: object) -> None:
    """`owner` was stopped by its teardown."""
    _STOPPERS.pop(id(owner), None)


def stop_everything() -> list[str]:
    """Stop every spawned process group and remembered server still running (the last line of
    defence, when the session ends); what was left running."""
    left = []
    for process in list(_GROUPS.values()):
        if process.poll() is None:
            left.append(" ".join(map(str, process.args)))  # type: ignore[arg-type]
        stop(process, signal.SIGKILL, wait=10)
    for key, (what, stopper) in list(_STOPPERS.items()):
        left.append(what)
        try:
            stopper()
        finally:
            _STOPPERS.pop(key, None)
    return left
