"""The visitor languages' catalogues (chatwidget.i18n): each complete, in step with the
German one, and every translation keeps the placeholders of its message."""

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.utils import translation

from chatwidget.i18n import (
    REFERENCE,
    catalogue_path,
    is_visitor_facing,
    visitor_catalogue_update,
    visitor_entries,
    visitor_only_languages,
)
from chatwidget.platform.languages import STAFF_LANGUAGES, VISITOR_LANGUAGES
from chatwidget.sites.models import STANDARD_GREETING
from chatwidget.widget.strings import WIDGET_STRINGS
from handover.services import notices
from memory.models import ProfileFact
from memory.redaction import HINTS, PLACEHOLDERS_BY_LANGUAGE, REMOVED_KINDS

# %(name)s, %(n)d, %s, %%, {name}; the unnamed ones only in a python-format message (a "%" in
# other text is a percent sign)
PLACEHOLDER = re.compile(
    r"%(?:\([^)]+\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]|\{[A-Za-z_][\w.]*\}"
)
NAMED = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\{[A-Za-z_][\w.]*\}")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(catalogue_path(language)))


def placeholders(text: str, python_format: bool = True) -> list[str]:
    return sorted((PLACEHOLDER if python_format else NAMED).findall(text))


def test_the_languages():
    assert set(visitor_only_languages()) == {"fr", "es", "it", "nl", "pl"}
    assert set(STAFF_LANGUAGES) == {"en", "de"} and set(STAFF_LANGUAGES) < set(VISITOR_LANGUAGES)


@pytest.mark.parametrize("language", visitor_only_languages())
def test_every_visitor_message_is_translated(language):
    po = catalogue(language)
    assert po.metadata["Language"] == language
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert untranslated == [] and fuzzy == [], "translate them (make messages adds new ones)"


@pytest.mark.parametrize("language", visitor_only_languages())
def test_the_catalogue_holds_exactly_the_visitor_messages_of_the_german_one(language):
    """`python -m chatwidget.i18n --visitor` (make messages) was run after the German
    catalogue changed: nothing missing, nothing left over."""
    reference = catalogue(REFERENCE)
    expected = visitor_catalogue_update(language, reference, catalogue_path(language))
    have = {(e.msgctxt, e.msgid) for e in catalogue(language)}
    assert have == {(e.msgctxt, e.msgid) for e in expected}
    assert len(have) > 150


@pytest.mark.parametrize("language", [REFERENCE, *visitor_only_languages()])
def test_placeholders_match_in_every_translation(language):
    wrong = [
        (e.msgid, e.msgstr)
        for e in catalogue(language)
        if e.msgstr
        and placeholders(e.msgid, "python-format" in e.flags)
        != placeholders(e.msgstr, "python-format" in e.flags)
    ]
    assert wrong == []
    # a message that is a paragraph break apart in English stays so (e-mails)
    lines = [e.msgid for e in catalogue(language) if e.msgid.count("\n") != e.msgstr.count("\n")]
    assert lines == []


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="GNU gettext (msgfmt) not installed")
@pytest.mark.parametrize("language", visitor_only_languages())
def test_msgfmt_accepts_the_catalogue(language, tmp_path):
    out = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "x.mo"), str(catalogue_path(language))],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr


def test_the_placeholder_pattern_sees_every_kind():
    assert placeholders("%(n)s of %(total)d, %s, {site} and 5%%") == sorted(
        ["%(n)s", "%(total)d", "%s", "{site}", "%%"]
    )


def test_what_a_visitor_reads_is_counted_as_visitor_facing():
    """The widget's strings, the greeting, the notices, the never-kept hints and the
    profile's labels (the last two marked in staff-facing files) are in every catalogue."""
    visitor = {e.msgid for e in visitor_entries(catalogue(REFERENCE))}
    expected = {
        STANDARD_GREETING,
        *(getattr(notices, name) for name in dir(notices) if name.startswith("NOTICE_")),
        *HINTS.values(),
        *_msgids(ProfileFact.Field.labels),
        *_msgids(WIDGET_STRINGS.values()),
    }
    assert expected - visitor == set()


def test_staff_facing_text_stays_out_of_the_visitor_catalogues():
    german = catalogue(REFERENCE)
    staff = [e for e in german if not is_visitor_facing(e)]
    assert len(staff) > 400, "admin, inbox, go-live: English and German only"
    french = {e.msgid for e in catalogue("fr")}
    assert "This user cannot take handover cases." not in french
    assert "Write a case note before resolving." not in french


def test_every_language_has_its_never_kept_placeholders():
    for language in VISITOR_LANGUAGES:
        table = PLACEHOLDERS_BY_LANGUAGE[language]
        assert set(table) == set(REMOVED_KINDS), language
    assert len({p for t in PLACEHOLDERS_BY_LANGUAGE.values() for p in t.values()}) == 6 * 7


def _msgids(lazy_texts) -> list[str]:
    """The msgids behind gettext_lazy texts: English has no catalogue of its own."""
    with translation.override("en"):
        return [str(text) for text in lazy_texts]


def test_the_catalogues_are_found(settings):
    """Each language's catalogue lies where Django looks (LOCALE_PATHS)."""
    for language in visitor_only_languages():
        assert Path(catalogue_path(language)).parent.parent.parent == Path(settings.LOCALE_PATHS[0])
