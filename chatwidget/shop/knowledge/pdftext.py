"""A PDF's text for the knowledge index (size charts, care guides, terms as PDF), with
`pypdf`: pure Python, nothing executed (a PDF's JavaScript and forms are not run), bounded
in pages. Its title is the document's own title, else the first line of text. pypdf loads
with the first PDF (about 0.05 s of CPU that every process would pay at start, issue 24)."""

import io
import logging

from chatwidget.shop.knowledge.documents import Page

MAX_PAGES = 200
logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged file's warnings: one Problem


class PdfError(Exception):
    """The bytes are not a PDF this reader can read; the message says why, for a person."""


def pdf_to_page(data: bytes, *, fallback_title: str = "") -> Page:
    from pypdf import PdfReader  # noqa: PLC0415 - the module doc says why
    from pypdf.errors import PyPdfError  # noqa: PLC0415

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise PdfError("the PDF is encrypted")
        texts = [(page.extract_text() or "").strip() for page in reader.pages[:MAX_PAGES]]
        meta_title = (reader.metadata.title if reader.metadata else None) or ""
    except PdfError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise PdfError(f"not a readable PDF ({exc})") from None
    text = "\n\n".join(t for t in texts if t)
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    title = " ".join(str(meta_title).split()) or first_line[:120] or fallback_title
    return Page(title=title, text=text)
