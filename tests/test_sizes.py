"""The house's size rules (issue 24): no module of the apps over 400 lines outside
migrations, no function over 80. A file or a function that grows past them is split by
responsibility, not trimmed to fit."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("chatwidget", "memory", "handover")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80


def modules() -> list[Path]:
    return [
        path
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def test_no_module_is_over_400_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in modules()
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_is_over_80_lines():
    long = {}
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.name}"] = lines
    assert long == {}
