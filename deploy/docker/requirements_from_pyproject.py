"""Print the runtime requirements declared in pyproject.toml, one per line.

Used by deploy/Dockerfile so the builder stage installs the project's dependencies (plus the
named extras, e.g. ``postgres``) without installing the project itself: the image runs the
code from /app, next to manage.py, templates/ and static/.

    python requirements_from_pyproject.py pyproject.toml --extras postgres > requirements.txt

Standard library only (tomllib, Python 3.11+).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path


def requirements(pyproject: Path, extras: list[str]) -> list[str]:
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    project = data.get("project", {})
    if "dependencies" in project.get("dynamic", []):
        raise SystemExit(f"{pyproject}: dynamic dependencies are not supported here")
    name = re.sub(r"[-_.]+", "-", project.get("name", "")).lower()
    optional = project.get("optional-dependencies", {})
    result = list(project.get("dependencies", []))
    for extra in extras:
        if extra not in optional:
            raise SystemExit(f"{pyproject}: no optional-dependencies group named {extra!r}")
        for requirement in optional[extra]:
            # A self-reference such as "chatwidget[postgres]" names another group: expand it.
            match = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*\[([^\]]*)\]\s*$", requirement)
            if match and re.sub(r"[-_.]+", "-", match.group(1)).lower() == name:
                nested = [e.strip() for e in match.group(2).split(",") if e.strip()]
                result.extend(requirements(pyproject, nested))
            else:
                result.append(requirement)
    seen: set[str] = set()
    return [r for r in result if not (r in seen or seen.add(r))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pyproject", type=Path)
    parser.add_argument(
        "--extras", default="", help="comma-separated optional-dependencies groups to include"
    )
    args = parser.parse_args(argv)
    extras = [e.strip() for e in args.extras.split(",") if e.strip()]
    sys.stdout.write("".join(f"{r}\n" for r in requirements(args.pyproject, extras)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
