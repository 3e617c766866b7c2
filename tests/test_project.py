"""The project's own promises: package lists agree, the lock pins them, notebooks as guided."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*-*.ipynb"))


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject_packages() -> set[str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = meta["optional-dependencies"]
    listed = (
        meta["dependencies"] + extras["dev"] + extras["dask"] + extras["openspiel"] + extras["docs"]
    )
    return {_name(r) for r in listed}


def _environment_packages() -> set[str]:
    names = set()
    in_deps = False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            in_deps = True
            continue
        m = re.match(r"\s+-\s+([A-Za-z0-9_.\-]+)", line)
        if in_deps and m:
            names.add(_name(m.group(1)))
    return names - {"python", "pip"}


def test_environment_yml_lists_the_same_packages_as_pyproject():
    assert _environment_packages() == _pyproject_packages()


def test_lock_file_pins_every_package_exactly():
    pins = {}
    for line in (ROOT / "requirements" / "lock.txt").read_text().splitlines():
        m = re.match(r"([A-Za-z0-9_.\-]+)==(\S+)", line)
        if m:
            pins[_name(m.group(1))] = m.group(2)
    missing = _pyproject_packages() - set(pins)
    assert not missing, f"not pinned in requirements/lock.txt: {sorted(missing)}"
    text = (ROOT / "requirements" / "lock.txt").read_text()
    assert "file://" not in text and "--find-links" not in text, "the lock names a local index"


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "make test" in ci
    assert "make test" in readme and "make analysis" in readme


def test_there_are_notebooks():
    assert any(nb.name == "00-tour.ipynb" for nb in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_follow_the_guide(path: Path):
    nb = nbformat.read(path, as_version=4)
    cells = nb.cells
    assert cells[0].cell_type == "markdown" and "question" in cells[0].source.lower()
    tagged = [c for c in cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "exactly one papermill 'parameters' cell"
    assert "N_GAMES" in tagged[0].source and "SEED" in tagged[0].source
    code = [c for c in cells if c.cell_type == "code"]
    assert all(c.get("outputs") is not None for c in code)
    assert all(c.execution_count is not None for c in code), "committed unexecuted"
    assert any("assert " in c.source for c in code[-3:]), "ends with assertion cells"


def test_a_test_session_leaves_the_users_study_cache_as_it_found_it(tmp_path: Path) -> None:
    """The root conftest.py gives every test session (and every notebook kernel it starts) a
    study cache of its own: with a temporary home folder and no ``$GAMELIB_CACHE``, a test that
    writes the default cache (a budget measures its costs there) leaves ``~/.cache/gamelib``
    absent — and does write it when the conftest is left out, so the check can fail."""
    import os
    import subprocess
    import sys

    probe = "tests/test_study.py::test_a_call_that_decided_inside_its_budget_is_not_a_stop"
    env = {k: v for k, v in os.environ.items() if k not in ("GAMELIB_CACHE", "MPLCONFIGDIR")}
    results = {}
    for flag in ([], ["--noconftest"]):
        home = tmp_path / ("without" if flag else "with")
        home.mkdir()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *flag, probe],
            cwd=ROOT, env={**env, "HOME": str(home)}, capture_output=True, text=True,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stdout[-2000:]
        results[bool(flag)] = (home / ".cache" / "gamelib").exists()
    assert results == {False: False, True: True}
