"""The lock file (issue 31): deploy/requirements.lock pins every dependency and extra that
pyproject.toml declares, at a version its range admits, and every install takes it as
constraints: `make setup`/`setup-test` (so CI, which runs the README's test command), the
benchmarks' install and the image's builder stage. A dependency added to pyproject.toml
without `make lock` fails here, before an install picks whatever is newest."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "deploy" / "requirements.lock"


def pins() -> dict[str, str]:
    out = {}
    for line in LOCK.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", line)
        if match:
            out[canonicalize_name(match.group(1))] = match.group(2)
    return out


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    raw = list(project["dependencies"])
    for group in project["optional-dependencies"].values():
        raw.extend(group)
    return [Requirement(r) for r in raw]


def test_every_declared_dependency_is_pinned_within_its_range():
    locked = pins()
    for requirement in declared():
        if requirement.marker and not requirement.marker.evaluate({"python_version": "3.11"}):
            continue
        name = canonicalize_name(requirement.name)
        if name == "chatwidget":  # an extra of the project itself ("chatwidget[observability]")
            continue
        assert name in locked, f"{requirement} is not in {LOCK.name}: run `make lock`"
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"{requirement}: the lock pins {locked[name]}; run `make lock`"
        )


def test_the_lock_pins_exact_versions_only():
    for line in LOCK.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            assert re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[^\]]*\])?==\S+", line), line
    assert "uv" not in pins(), "the tool that writes the lock is not part of it"


def test_every_install_takes_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if "pip install" in line and "-e " in line]
    assert installs and all("-c $(LOCK)" in line for line in installs), installs
    assert "LOCK := deploy/requirements.lock" in makefile
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "COPY pyproject.toml deploy/requirements.lock" in dockerfile
    assert dockerfile.count("-c requirements.lock") == 2, "pip wheel and pip install"
    ignore = (ROOT / "deploy" / "Dockerfile.dockerignore").read_text().splitlines()
    assert "!deploy/requirements.lock" in ignore, "the build context carries the lock"
