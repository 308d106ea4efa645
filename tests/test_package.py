"""Packaging: the wheel carries templates/ and static/, and a plain install serves pages."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the project's wheel once (no build isolation: hatchling is in the dev extra)."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)]
        + [str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (found,) = out.glob("*.whl")
    return found


def test_wheel_carries_templates_static_and_migrations(wheel: Path) -> None:
    """templates/ and static/ live at the top level but must ship inside the package."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "scorekeeper/templates/base.html" in names
    assert "scorekeeper/templates/mesa/_board.html" in names
    assert "scorekeeper/static/css/app.css" in names
    assert "scorekeeper/static/vendor/htmx-2.0.11.min.js" in names
    assert "scorekeeper/static/vendor/htmx-LICENSE.txt" in names
    assert any(n.startswith("scorekeeper/migrations/versions/") for n in names)
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_serves_the_home_page(wheel: Path, tmp_path: Path) -> None:
    """`pip install .` (not editable) gives a working app: pages render from the wheel alone."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
         str(wheel)],
        check=True,
        capture_output=True,
    )
    script = (
        "import scorekeeper, sys\n"
        "from scorekeeper.extensions import db\n"
        "assert 'site' in scorekeeper.__file__, scorekeeper.__file__\n"
        "app = scorekeeper.create_app("
        "{'SQLALCHEMY_DATABASE_URI': 'sqlite://', 'SECRET_KEY': 'x'})\n"
        "app.app_context().push(); db.create_all()\n"
        "r = app.test_client().get('/')\n"
        "assert r.status_code == 200 and 'nova-mesa' in r.text, r.status_code\n"
        "s = app.test_client().get('/static/vendor/htmx-2.0.11.min.js')\n"
        "assert s.status_code == 200, s.status_code\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
