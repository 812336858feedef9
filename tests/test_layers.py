"""The import contracts in pyproject.toml ([tool.importlinter]) hold, and each one catches an
import that breaks it: a copy of the code with one bad import planted per contract fails
`lint-imports`, and each contract's report names its planted import."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")

# contract id -> (module file to append to, the import, what the report must name)
PLANTED = {
    "apps": (
        "memory/tokens.py",
        "from handover.models import Case",
        "memory.tokens -> handover.models",
    ),
    "project-exhaustive": (
        "chatwidget/stray.py",
        "import json",
        "chatwidget.stray",
    ),
    "memory-layers": (
        "memory/window.py",
        "from memory import services",
        "memory.window -> memory.services",
    ),
    "handover-layers": (
        "handover/models.py",
        "from handover import selectors",
        "handover.models -> handover.selectors",
    ),
    "sites-layers": (
        "chatwidget/sites/hours.py",
        "from chatwidget.sites import selectors",
        "chatwidget.sites.hours -> chatwidget.sites.selectors",
    ),
    "shop-layers": (
        "chatwidget/shop/models/actions.py",
        "from chatwidget.shop.actions import tools",
        "chatwidget.shop.models.actions -> chatwidget.shop.actions.tools",
    ),
    "shop-knowledge-layers": (
        "chatwidget/shop/knowledge/query.py",
        "from chatwidget.shop.knowledge import window",
        "chatwidget.shop.knowledge.query -> chatwidget.shop.knowledge.window",
    ),
    "widget-layers": (
        "chatwidget/widget/protocol.py",
        "from chatwidget.widget import consumers",
        "chatwidget.widget.protocol -> chatwidget.widget.consumers",
    ),
    "assistant-layers": (
        "chatwidget/assistant/streaming.py",
        "from chatwidget.assistant import turns",
        "chatwidget.assistant.streaming -> chatwidget.assistant.turns",
    ),
    "golive-layers": (
        "chatwidget/golive/models.py",
        "from chatwidget.golive import report",
        "chatwidget.golive.models -> chatwidget.golive.report",
    ),
    "insights-layers": (
        "chatwidget/insights/charts.py",
        "from chatwidget.insights import admin",
        "chatwidget.insights.charts -> chatwidget.insights.admin",
    ),
    "integrations-layers": (
        "chatwidget/integrations/models.py",
        "from chatwidget.integrations import emit",
        "chatwidget.integrations.models -> chatwidget.integrations.emit",
    ),
    "acyclic": (
        "chatwidget/platform/cache_keys.py",
        "from chatwidget.platform import presence",
        "No cycles are allowed in chatwidget.platform.",
    ),
}


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess:
    args = [str(LINT_IMPORTS), "--no-logo", "--cache-dir", str(root / ".import_linter_cache")]
    for contract in contracts:
        args += ["--contract", contract]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def contract_ids() -> list[str]:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [c["id"] for c in config["tool"]["importlinter"]["contracts"]]


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    """One copy of the code with every planted import."""
    tree = tmp_path_factory.mktemp("planted")
    for package in ("chatwidget", "memory", "handover"):
        shutil.copytree(
            ROOT / package,
            tree / package,
            ignore=shutil.ignore_patterns("__pycache__", "locale", "*.mo", "demo_data"),
        )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    for path, line, _named in PLANTED.values():
        module = tree / path
        text = module.read_text() if module.exists() else ""
        module.write_text(text + f"\n{line}  # noqa\n")
    return tree


def test_the_contracts_hold():
    args = [str(LINT_IMPORTS), "--no-logo", "--no-cache"]
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:]
    assert "0 broken" in result.stdout


def test_every_contract_has_a_planted_import():
    assert sorted(PLANTED) == sorted(contract_ids())


@pytest.mark.parametrize("contract", sorted(PLANTED))
def test_each_contract_breaks_on_its_planted_import(planted, contract):
    result = lint_imports(planted, contract)
    assert result.returncode != 0, result.stdout[-3000:]
    _path, _line, named = PLANTED[contract]
    assert named in result.stdout, result.stdout[-3000:]
