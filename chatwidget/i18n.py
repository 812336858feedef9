"""Compile the .po translation catalogues to .mo without GNU gettext (pure Python, polib).

`python -m chatwidget.i18n` — run by `make setup`, the Dockerfile and CI. The .mo files are
build output and stay out of git.
"""

from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def compile_all(root: Path = ROOT) -> list[Path]:
    written = []
    for po_path in root.glob("*/locale/*/LC_MESSAGES/*.po"):
        if ".venv" in po_path.parts:
            continue
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"compiled {path.relative_to(ROOT)}")
