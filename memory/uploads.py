"""A visitor's photo or file, checked and cleaned before anything is stored (issue 33).

Pure: bytes in, cleaned bytes (or a refusal) out; no database, no storage, no logging of
content. The type is read from the content (magic bytes, then the decoder), never from the
name or the browser's Content-Type. Images are decoded by Pillow (HEIC/HEIF through
pillow-heif), turned by their EXIF orientation and encoded again without any metadata, which
drops EXIF, GPS, XMP and ICC comments with it; HEIC becomes JPEG. A decompression bomb
(more pixels than `max_pixels`) is refused from its header, before it is decoded.

A photo can carry a card number or a one-time code as easily as a message: the image's text
(OCR, Tesseract through pytesseract) and a PDF's text (pypdf) go through the same never-kept
rules as a typed message (memory.redaction.redact). A match refuses the upload with the
kinds found (the caller tells the visitor with the same hint as for typed text), and the
file is stored nowhere. A PDF is kept only as what was checked: its pages written again,
without the document's metadata, annotations, form fields, attached files or scripts
(places its page text does not show, where a card number or a name would pass unread).

pytesseract and pypdf load with the first upload that needs them:
every web and worker process imports this module, most never read a file (about 0.15 s of
CPU at each start, issue 24).
"""

from __future__ import annotations

import io
import logging
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PIL import Image, ImageOps, UnidentifiedImageError
from pillow_heif import register_heif_opener

from memory.redaction import redact

if TYPE_CHECKING:
    from pypdf import PdfReader

register_heif_opener()  # HEIC/HEIF from phones: Image.open reads them (as format "HEIF")

log = logging.getLogger(__name__)

IMAGE_TYPES = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
PDF_TYPE = "application/pdf"
# what the widget's file picker offers (its `accept`); the server trusts none of it
ACCEPTED = "image/jpeg,image/png,image/webp,image/heic,image/heif,application/pdf,.heic,.heif"
OCR_LANGUAGES = "eng+deu"
OCR_MAX_SIDE = 2000  # px: larger images are scaled down for OCR only (time, not accuracy)
PDF_MAX_PAGES = 50  # a longer PDF is refused as too large: every page is read
# what a page keeps when the PDF is written again: its drawing, nothing attached to it
PDF_PAGE_KEYS = frozenset(
    {"/Type", "/Parent", "/Resources", "/Contents", "/MediaBox", "/CropBox", "/Rotate", "/Group"}
)
# a scan is a PDF of images: each is read by OCR like a photo; a PDF with more images than
# this (or one whose images cannot be decoded) is refused, as it cannot be checked
PDF_MAX_IMAGES = 20
DIGIT_GAPS = re.compile(r"(?<=\d)[ \t]+(?=\d)")


class UploadRefused(Exception):
    """Why an upload is not taken. `code`: too_large, bad_type, too_many_pixels,
    never_kept, unreadable; `removed`: for never_kept, the kinds found (never the values)."""

    def __init__(self, code: str, removed: dict[str, int] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.removed = removed or {}


@dataclass(frozen=True)
class CleanUpload:
    data: bytes
    content_type: str
    kind: str  # image | pdf
    name: str
    width: int = 0
    height: int = 0
    notes: dict = field(default_factory=dict)


def sniff(data: bytes) -> str | None:
    """The type by the content's first bytes: jpeg, png, webp, heic, pdf, or None."""
    head = data[:32]
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp" and head[8:12] in (
        b"heic",
        b"heix",
        b"hevc",
        b"heim",
        b"heis",
        b"mif1",
        b"msf1",
    ):
        return "heic"
    if head.lstrip()[:5] == b"%PDF-":
        return "pdf"
    return None


def clean_name(name: str, *, kind_ext: str) -> str:
    """A display name: the base name's safe characters, the extension of what it now is."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    base = "".join(c for c in base if c.isalnum() or c in "-_ ")[:60].strip() or "upload"
    return f"{base}.{kind_ext}"


def upload_clean(*, data: bytes, name: str, max_bytes: int, max_pixels: int) -> CleanUpload:
    """The cleaned upload, or UploadRefused. Size first (nothing is decoded past it), then
    the type by content, then decoding, the never-kept check and re-encoding."""
    if len(data) > max_bytes:
        raise UploadRefused("too_large")
    kind = sniff(data)
    if kind is None:
        raise UploadRefused("bad_type")
    if kind == "pdf":
        return _pdf_clean(data, name, max_pixels=max_pixels)
    return _image_clean(data, name, max_pixels=max_pixels)


def _open_image(data: bytes, *, max_pixels: int) -> Image.Image:
    """The decoded image. A bomb is refused from its header, before any pixel is decoded:
    more than `max_pixels` (the setting), or more than Pillow's own MAX_IMAGE_PIXELS limit
    (its DecompressionBombError). Pillow's globals are left alone (requests run in threads).
    A file Pillow cannot read is refused as unreadable."""
    try:
        image = Image.open(io.BytesIO(data))
        if image.format not in (*IMAGE_TYPES, "HEIF"):
            raise UploadRefused("bad_type")
        if image.width * image.height > max_pixels:
            raise UploadRefused("too_many_pixels")
        image.load()
    except Image.DecompressionBombError as exc:
        raise UploadRefused("too_many_pixels") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise UploadRefused("unreadable") from exc
    return image


def _image_clean(data: bytes, name: str, *, max_pixels: int) -> CleanUpload:
    image = _open_image(data, max_pixels=max_pixels)
    fmt = "JPEG" if image.format == "HEIF" else str(image.format)
    image = ImageOps.exif_transpose(image)  # the orientation applied: the EXIF can go
    _never_kept_check(ocr_text(image))
    out = io.BytesIO()
    if fmt == "JPEG":
        image.convert("RGB").save(out, "JPEG", quality=88, optimize=True)
    elif fmt == "PNG":
        image.save(out, "PNG", optimize=True)
    else:
        image.save(out, "WEBP", quality=88)
    ext = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}[fmt]
    return CleanUpload(
        data=out.getvalue(),
        content_type=IMAGE_TYPES[fmt],
        kind="image",
        name=clean_name(name, kind_ext=ext),
        width=image.width,
        height=image.height,
    )


def ocr_text(image: Image.Image) -> str:
    """The image's text by Tesseract (English and German), grey and at most OCR_MAX_SIDE
    pixels a side. A small image (a photo of a card cropped tight, a screenshot) is read a
    second time at twice its size with its contrast stretched: Tesseract misses small,
    slanted or soft digits at their own size. Without Tesseract on the machine the upload
    is refused (`unreadable`): an image that could not be checked is not kept."""
    grey = image.convert("L")
    if max(grey.size) > OCR_MAX_SIDE:
        grey.thumbnail((OCR_MAX_SIDE, OCR_MAX_SIDE))
    passes = [grey]
    if max(grey.size) <= OCR_MAX_SIDE // 2:
        larger = grey.resize((grey.width * 2, grey.height * 2), Image.Resampling.LANCZOS)
        passes.append(ImageOps.autocontrast(larger))
    import pytesseract  # noqa: PLC0415 - loaded by the first upload (module doc)

    _tesseract_one_thread(pytesseract)
    try:
        return "\n".join(
            pytesseract.image_to_string(each, lang=OCR_LANGUAGES, timeout=30) for each in passes
        )
    except (pytesseract.TesseractError, pytesseract.TesseractNotFoundError, RuntimeError) as exc:
        log.warning("ocr failed", extra={"error": type(exc).__name__})
        raise UploadRefused("unreadable") from exc


def _tesseract_one_thread(pytesseract) -> None:
    """Tesseract is an OpenMP program, and its threads fought the web and worker processes
    for the cores: its child runs one, as OCRmyPDF runs it (OMP_THREAD_LIMIT=1, unless the
    owner set one). Measured on 2 busy cores, ten OCR calls: 3.5-5.6 s of CPU with one
    thread, 4.9-7.7 s without; wall time 4-22 s against 5-39 s. Only the child's
    environment (pytesseract starts it with its module's `environ`): this process's own
    OpenMP users (the embedding model's passage batches) keep their threads."""
    if "OMP_THREAD_LIMIT" not in pytesseract.pytesseract.environ:
        pytesseract.pytesseract.environ = {**os.environ, "OMP_THREAD_LIMIT": "1"}


def _pdf_clean(data: bytes, name: str, *, max_pixels: int) -> CleanUpload:
    """A PDF's text, and the text of the images on its pages (a scanned card is a PDF of
    one image), by the never-kept rules; what is kept is the PDF written again from its
    pages alone (`_pdf_pages_only`), so nothing unchecked stays in it."""
    from pypdf import PdfReader  # noqa: PLC0415 - loaded by the first PDF (module doc)
    from pypdf.errors import PdfReadError  # noqa: PLC0415

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:  # its text cannot be checked
            raise UploadRefused("unreadable")
        if len(reader.pages) > PDF_MAX_PAGES:
            raise UploadRefused("too_large")
        kept = _pdf_pages_only(reader)
        pages = PdfReader(io.BytesIO(kept)).pages
        text = "\n".join((page.extract_text() or "") for page in pages)
        _never_kept_check(text)
        _never_kept_check(_pdf_images_text(pages, max_pixels=max_pixels))
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise UploadRefused("unreadable") from exc
    return CleanUpload(
        data=kept, content_type=PDF_TYPE, kind="pdf", name=clean_name(name, kind_ext="pdf")
    )


def _pdf_pages_only(reader: PdfReader) -> bytes:
    """The PDF written again from its pages' drawing: no document information or XMP
    metadata (author, the device, the software), no annotations or form fields, no attached
    files, no scripts or open actions; objects nothing refers to (an earlier revision's)
    are left behind too."""
    from pypdf import PdfWriter  # noqa: PLC0415

    writer = PdfWriter()
    for page in reader.pages:
        for key in [key for key in page if key not in PDF_PAGE_KEYS]:
            del page[key]  # before the copy, which would take along what the key refers to
        writer.add_page(page)
    writer.metadata = None  # no /Info dictionary at all, not even pypdf's /Producer
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _image_sizes(resources, depth: int = 0):
    """Width x height of every image XObject of a page's resources, form XObjects' too,
    read from their dictionaries before any image is decoded."""
    xobjects = (resources or {}).get("/XObject") or {}
    for ref in xobjects.values():
        obj = ref.get_object()
        if obj.get("/Subtype") == "/Image":
            yield int(obj.get("/Width", 0)) * int(obj.get("/Height", 0))
        elif obj.get("/Subtype") == "/Form" and depth < 3:
            yield from _image_sizes(obj.get("/Resources"), depth + 1)


def _pdf_images_text(pages, *, max_pixels: int) -> str:
    """The OCR text of the images on `pages` (pypdf decodes them: Pillow images). Sizes are
    checked first from the PDF's own dictionaries, like a photo's header: a bomb is refused
    before it is decoded."""
    sizes = [size for page in pages for size in _image_sizes(page.get("/Resources"))]
    if len(sizes) > PDF_MAX_IMAGES:
        raise UploadRefused("unreadable")
    if any(size > max_pixels for size in sizes):
        raise UploadRefused("too_many_pixels")
    texts: list[str] = []
    for page in pages:
        for found in page.images:  # inline images too
            if len(texts) >= PDF_MAX_IMAGES:
                raise UploadRefused("unreadable")
            if found.image is None or found.image.width * found.image.height > max_pixels:
                raise UploadRefused("unreadable")
            texts.append(ocr_text(found.image))
    return "\n".join(texts)


def _never_kept_check(text: str) -> None:
    """The text of an image or PDF by the rules of a typed message, one line at a time as
    well as whole (OCR breaks lines where a layout does), and each line once more with the
    spaces between digits taken out: OCR spaces digit groups as it sees them ("41111111
    11111111"), so a card number must not hide behind the grouping. A false match refuses a
    harmless image; a missed one would keep a card number."""
    if not text.strip():
        return
    lines = text.splitlines()
    joined = [DIGIT_GAPS.sub("", line) for line in lines]
    removed: dict[str, int] = {}
    for part in (text, *lines, *(j for j in joined if j not in lines)):
        for kind, count in redact(part).removed.items():
            removed[kind] = max(removed.get(kind, 0), count)
    if removed:
        raise UploadRefused("never_kept", removed=removed)
