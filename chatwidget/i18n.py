"""The translation catalogues: compile them without GNU gettext, and keep the visitor-only
catalogues in step with the German one (pure Python, polib).

`python -m chatwidget.i18n` compiles every .po to .mo; run by `make setup`, the Dockerfile and
CI. The .mo files are build output and stay out of git.

`python -m chatwidget.i18n --visitor` (part of `make messages`, after `makemessages -l de`)
brings `locale/<lang>/LC_MESSAGES/django.po` of every visitor-only language (fr, es, it, nl,
pl) to the visitor-facing messages of the German catalogue: new ones are added untranslated
(a test fails until someone translates them), gone ones are dropped, translations are kept.

A message is visitor-facing when one of its places is in a `VISITOR_SOURCES` file (the
widget, its notices, the privacy page, the visitor's e-mails and pages, the demo's lines), or
when the line before it in the source says `# Translators: visitor` (a visitor-facing
string in a mostly staff-facing file, e.g. the profile's field labels). Staff-facing text
stays English and German: those languages are `settings.LANGUAGES`
(chatwidget.platform.languages).
"""

import argparse
from fnmatch import fnmatch
from pathlib import Path

import polib

from chatwidget.platform.languages import STAFF_LANGUAGES, VISITOR_LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "chatwidget" / "locale"
REFERENCE = "de"  # the complete catalogue the visitor ones are drawn from
VISITOR_MARK = "Translators: visitor"
#: gettext's plural rule of each visitor-only language (no visitor message uses plurals yet).
PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "pl": (
        "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
    ),
}

#: Files whose every message a visitor reads (fnmatch patterns, relative to the repository).
VISITOR_SOURCES = (
    "chatwidget/widget/strings.py",  # the widget's UI
    "chatwidget/widget/protocol.py",  # error frames
    "chatwidget/widget/socket.py",
    "chatwidget/widget/consumers.py",
    "chatwidget/assistant/demo.py",  # demo mode's answers
    "chatwidget/assistant/replies.py",
    "chatwidget/assistant/tools_loop.py",  # a shop lookup's words in the answer
    "chatwidget/shop/actions/services.py",
    "handover/services/notices.py",  # handover notices in the transcript
    "memory/redaction/kinds.py",  # the never-kept hints
    "memory/privacy.py",  # the privacy page's table
    "memory/profiles/selectors.py",  # "What do you know about me?"
    "templates/privacy.html",
    "templates/handover/*",  # continuation and transcript e-mails and pages
)


def compile_all(root: Path = ROOT) -> list[Path]:
    written = []
    for po_path in root.glob("*/locale/*/LC_MESSAGES/*.po"):
        if ".venv" in po_path.parts:
            continue
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


def visitor_only_languages() -> tuple[str, ...]:
    return tuple(lang for lang in VISITOR_LANGUAGES if lang not in STAFF_LANGUAGES)


def catalogue_path(language: str, locale: Path = LOCALE) -> Path:
    return locale / language / "LC_MESSAGES" / "django.po"


def is_visitor_facing(entry: polib.POEntry) -> bool:
    if VISITOR_MARK in (entry.comment or ""):
        return True
    return any(
        fnmatch(path, pattern) for path, _line in entry.occurrences for pattern in VISITOR_SOURCES
    )


def visitor_entries(reference: polib.POFile) -> list[polib.POEntry]:
    """The visitor-facing messages of the reference catalogue, in its order."""
    return [e for e in reference if not e.obsolete and is_visitor_facing(e)]


def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return entry.msgctxt, entry.msgid


def visitor_catalogue_update(language: str, reference: polib.POFile, path: Path) -> polib.POFile:
    """The catalogue at `path` holding exactly the reference's visitor-facing messages, with
    the translations it had (places, comments and flags from the reference)."""
    old = polib.pofile(str(path)) if path.exists() else None
    kept = {_key(e): e for e in old if not e.obsolete} if old is not None else {}
    po = polib.POFile(wrapwidth=79)
    po.metadata = dict(reference.metadata)
    po.metadata.update(old.metadata if old is not None else {})
    po.metadata["Language"] = language
    po.metadata["Plural-Forms"] = PLURAL_FORMS.get(language, "nplurals=2; plural=(n != 1);")
    for ref in visitor_entries(reference):
        before = kept.get(_key(ref))
        entry = polib.POEntry(
            msgctxt=ref.msgctxt,
            msgid=ref.msgid,
            msgid_plural=ref.msgid_plural or "",
            comment=ref.comment,
            occurrences=ref.occurrences,
            flags=[f for f in ref.flags if f != "fuzzy"],
        )
        if before is not None:
            entry.msgstr = before.msgstr
            entry.msgstr_plural = before.msgstr_plural
            if "fuzzy" in before.flags:
                entry.flags.append("fuzzy")
        po.append(entry)
    return po


def visitor_catalogues_update(locale: Path = LOCALE) -> list[Path]:
    reference = polib.pofile(str(catalogue_path(REFERENCE, locale)))
    written = []
    for language in visitor_only_languages():
        path = catalogue_path(language, locale)
        path.parent.mkdir(parents=True, exist_ok=True)
        visitor_catalogue_update(language, reference, path).save(str(path))
        written.append(path)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--visitor", action="store_true", help="update the visitor-only catalogues first"
    )
    if parser.parse_args().visitor:
        for path in visitor_catalogues_update():
            print(f"updated {path.relative_to(ROOT)}")
    for path in compile_all():
        print(f"compiled {path.relative_to(ROOT)}")
