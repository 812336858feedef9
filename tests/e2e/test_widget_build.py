"""The served widget files are the build of the readable source, and stay within budget.

The build (esbuild, locked in .widget-build/package-lock.json) is deterministic, so CI can
rebuild in memory and compare byte for byte: `node .widget-build/build.mjs --check`."""

import shutil
import subprocess

import pytest

from tests.bench.weight import measure
from tests.e2e.conftest import ROOT

BUILD = ROOT / ".widget-build"


def test_served_widget_files_are_the_build_of_the_source():
    if not shutil.which("node"):
        pytest.skip("node is not installed: cannot rebuild static/widget/v1 to compare")
    if not (BUILD / "node_modules" / "esbuild").exists():
        pytest.skip("esbuild is not installed: run `make setup-test` (npm ci in .widget-build)")
    out = subprocess.run(
        ["node", "build.mjs", "--check"], cwd=BUILD, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr + out.stdout + "\nRun `make widget` and commit."


def test_widget_weight_within_budget():
    weight = measure()
    assert set(weight["parts"]) >= {"loader.js", "panel.js"}
    assert weight["loader"]["gzip"] <= 8000, weight["loader"]
    assert weight["whole"]["gzip"] <= 30000, weight["whole"]


def test_the_source_is_readable_and_the_loader_names_the_panel():
    source = (ROOT / "static" / "widget" / "src" / "panel.js").read_text()
    assert "function createPanel(shell)" in source
    for path in (ROOT / "static" / "widget" / "src").glob("*.js"):
        assert len(path.read_text().splitlines()) <= 400, path
    assert "panel.js?v=" in (ROOT / "static" / "widget" / "v1" / "loader.js").read_text()
