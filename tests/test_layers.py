"""The import contracts in pyproject.toml ([tool.importlinter]) hold, and they catch an import
that breaks the layers: a copy of the code with one such import added fails `lint-imports`."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess:
    args = [str(LINT_IMPORTS), "--no-cache"]
    for contract in contracts:
        args += ["--contract", contract]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def tree(tmp_path) -> Path:
    """A copy of the three packages and the contracts, to add imports to."""
    for package in ("chatwidget", "memory", "handover"):
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "locale", "*.mo"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_contracts_hold():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-4000:]


def test_memory_importing_handover_breaks_a_contract(tree):
    before = lint_imports(tree, "memory-independent")
    (tree / "memory" / "probe.py").write_text("from handover.models import Case  # noqa\n")
    after = lint_imports(tree, "memory-independent")
    assert after.returncode != 0
    assert "memory.probe -> handover.models" in after.stdout
    assert "memory.probe" not in before.stdout


def test_infrastructure_importing_a_transport_breaks_the_layers(tree):
    protocol = tree / "chatwidget" / "protocol.py"
    before = lint_imports(tree, "layers")
    protocol.write_text(protocol.read_text() + "\nfrom chatwidget import consumers  # noqa\n")
    after = lint_imports(tree, "layers")
    assert after.returncode != 0
    assert "chatwidget.protocol is not allowed to import chatwidget.consumers" in after.stdout
    assert "chatwidget.protocol" not in before.stdout


def test_a_cycle_between_modules_breaks_a_contract(tree):
    before = lint_imports(tree, "acyclic")
    hours = tree / "chatwidget" / "hours.py"  # chatwidget.models imports chatwidget.hours
    hours.write_text(hours.read_text() + "\nfrom chatwidget import models  # noqa\n")
    after = lint_imports(tree, "acyclic")
    assert after.returncode != 0
    assert ".hours -> .models" in after.stdout or ".models -> .hours" in after.stdout
    assert ".hours" not in before.stdout
