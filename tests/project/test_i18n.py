"""Visitor- and staff-facing text exists in English and German."""

import shutil
import subprocess
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "chatwidget" / "locale" / "de" / "LC_MESSAGES" / "django.po"


def test_every_message_has_a_german_translation():
    po = polib.pofile(str(PO))
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert untranslated == [] and fuzzy == []


def test_catalogue_compiles_and_placeholders_match(tmp_path):
    from chatwidget.i18n import compile_all

    assert any(p.name == "django.mo" for p in compile_all())
    if shutil.which("msgfmt"):
        out = subprocess.run(
            ["msgfmt", "--check-format", "-o", str(tmp_path / "x.mo"), str(PO)],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr


@pytest.mark.skipif(not shutil.which("xgettext"), reason="GNU gettext (xgettext) not installed")
def test_catalogue_is_up_to_date_with_the_code(tmp_path):
    """Every marked string in the code is in the catalogue (run `make messages` if not)."""
    out = subprocess.run(
        [
            "xgettext",
            "--from-code=UTF-8",
            "-L",
            "Python",
            "-o",
            str(tmp_path / "code.pot"),
            "--keyword=gettext_lazy",
            "--keyword=gettext_noop",
            "--keyword=_",
            *[
                str(p)
                for d in ("chatwidget", "memory", "handover")
                for p in (ROOT / d).rglob("*.py")
                if "migrations" not in p.parts
            ],
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    known = {e.msgid for e in polib.pofile(str(PO))}
    missing = [e.msgid for e in polib.pofile(str(tmp_path / "code.pot")) if e.msgid not in known]
    assert missing == []


def test_widget_config_in_german(client, site):
    data = client.get(f"/widget/v1/{site.key}/config.json?lang=de").json()
    assert data["lang"] == "de"
    assert (
        data["strings"]["send"] != "Send"
        and data["strings"]["placeholder"] == "Nachricht eingeben…"
    )
