"""memory.uploads (issue 33): limits, the type by content, EXIF and GPS gone, HEIC to JPEG,
decompression bombs, and the never-kept check of an image's text (OCR) and a PDF's text."""

import io
import os

import pytest
from PIL import Image

from memory.uploads import UploadRefused, sniff, upload_clean
from tests.memory.upload_images import (
    card_image,
    heic_photo,
    pdf_with_text,
    photo_with_gps,
    scanned_pdf,
)

MB = 1024 * 1024


def clean(data: bytes, name: str = "photo.jpg", max_bytes: int = 10 * MB, max_pixels=40_000_000):
    return upload_clean(data=data, name=name, max_bytes=max_bytes, max_pixels=max_pixels)


def refused(data: bytes, **kw) -> UploadRefused:
    with pytest.raises(UploadRefused) as caught:
        clean(data, **kw)
    return caught.value


def test_a_photo_loses_its_exif_and_gps_and_keeps_its_picture():
    original = photo_with_gps()
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(0x8825)  # the test has GPS
    result = clean(original)
    image = Image.open(io.BytesIO(result.data))
    assert result.content_type == "image/jpeg" and result.kind == "image"
    assert dict(image.getexif()) == {} and not image.getexif().get_ifd(0x8825)
    assert b"Exif" not in result.data and b"TestCam" not in result.data
    assert image.size == (320, 240) and (result.width, result.height) == (320, 240)


def test_the_exif_orientation_is_applied_before_it_goes():
    result = clean(photo_with_gps(orientation=6))  # "rotate 90° clockwise to show"
    assert Image.open(io.BytesIO(result.data)).size == (240, 320)


@pytest.mark.parametrize(("fmt", "content_type"), [("PNG", "image/png"), ("WEBP", "image/webp")])
def test_png_and_webp_stay_what_they_are_without_metadata(fmt, content_type):
    result = clean(photo_with_gps(fmt), name="x.bin")
    assert result.content_type == content_type
    assert b"TestCam" not in result.data
    assert not Image.open(io.BytesIO(result.data)).getexif()


def test_heic_becomes_jpeg():
    data = heic_photo()
    assert sniff(data) == "heic"
    result = clean(data, name="IMG_0001.HEIC")
    assert result.content_type == "image/jpeg" and result.name == "IMG_0001.jpg"
    assert Image.open(io.BytesIO(result.data)).format == "JPEG"


def test_the_type_is_read_from_the_content_not_the_name():
    assert refused(b"MZ\x90\x00 an executable", name="photo.jpg").code == "bad_type"
    assert refused(b"<svg xmlns='http://www.w3.org/2000/svg'/>", name="a.png").code == "bad_type"
    gif = io.BytesIO()
    Image.new("RGB", (4, 4)).save(gif, "GIF")
    assert refused(gif.getvalue(), name="a.jpg").code == "bad_type"
    # a JPEG named .pdf is a JPEG
    assert clean(photo_with_gps(), name="scan.pdf").content_type == "image/jpeg"


def test_a_truncated_image_is_unreadable():
    assert refused(photo_with_gps()[:200]).code == "unreadable"


def test_the_size_limit_is_checked_before_anything_is_decoded():
    data = photo_with_gps()
    assert refused(data, max_bytes=len(data) - 1).code == "too_large"
    assert clean(data, max_bytes=len(data)).kind == "image"


def test_a_decompression_bomb_is_refused():
    out = io.BytesIO()
    Image.new("1", (6000, 6000)).save(out, "PNG")  # tiny file, 36 million pixels
    assert len(out.getvalue()) < 100_000
    assert refused(out.getvalue(), max_pixels=10_000_000).code == "too_many_pixels"
    assert refused(out.getvalue(), max_pixels=1_000_000).code == "too_many_pixels"


def test_an_image_of_a_card_number_is_refused_with_its_kind():
    error = refused(card_image(), name="card.png")
    assert error.code == "never_kept" and error.removed.get("card")


def test_tesseract_runs_one_thread(tmp_path, monkeypatch):
    """Tesseract's OpenMP threads fought the web and worker processes for the cores: its
    child is started with OMP_THREAD_LIMIT=1 (a stand-in tesseract records what it got);
    the process's own environment is left as it was."""
    import pytesseract

    record = tmp_path / "env.txt"
    fake = tmp_path / "tesseract"
    fake.write_text(f'#!/bin/sh\necho "limit=$OMP_THREAD_LIMIT" > {record}\n: > "$2.txt"\n')
    fake.chmod(0o755)
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", str(fake))
    before = os.environ.get("OMP_THREAD_LIMIT")
    assert clean(card_image("hello"), name="label.png").kind == "image"
    assert record.read_text().strip() == "limit=1"
    assert os.environ.get("OMP_THREAD_LIMIT") == before, "this process's threads stay as set"


def test_an_image_with_harmless_text_passes():
    result = clean(card_image("Order 55-1031 arrived broken"), name="label.png")
    assert result.kind == "image"


def test_a_pdf_with_a_card_number_is_refused_and_one_without_passes():
    error = refused(pdf_with_text("Card: 4111 1111 1111 1111"), name="invoice.pdf")
    assert error.code == "never_kept" and error.removed.get("card")
    result = clean(pdf_with_text("Invoice 55-1031, 2 items"), name="invoice.pdf")
    assert result.content_type == "application/pdf" and result.kind == "pdf"


def test_a_broken_pdf_is_unreadable():
    assert refused(b"%PDF-1.4\n garbage", name="a.pdf").code == "unreadable"


def test_a_scanned_card_in_a_pdf_is_refused_and_a_scanned_receipt_passes():
    """A PDF of images has no text to extract: its images are read like photos."""
    error = refused(scanned_pdf(card_image("Order 55-1031"), card_image()), name="scan.pdf")
    assert error.code == "never_kept" and error.removed.get("card")
    result = clean(scanned_pdf(card_image("Order 55-1031 arrived broken")), name="scan.pdf")
    assert result.kind == "pdf"


def test_a_pdf_whose_images_cannot_all_be_checked_is_refused():
    many = scanned_pdf(*[card_image("page")] * 21)
    assert refused(many, name="many.pdf").code == "unreadable"
    big = scanned_pdf(card_image("Order 55-1031"))  # 1000 x 160 pixels
    assert refused(big, name="big.pdf", max_pixels=100_000).code == "too_many_pixels"


def pdf_with_extras(text: str) -> bytes:
    """A one-page PDF carrying, besides its page text, what the page does not show: the
    author in its document information, a note (annotation) and an attached file with a
    card number, and a script that runs on opening."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.actions import JavaScript
    from pypdf.annotations import FreeText

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_with_text(text))))
    writer.add_metadata({"/Author": "Jane Roe", "/Title": "Card 4111 1111 1111 1111"})
    writer.add_annotation(0, FreeText(text="card 4111 1111 1111 1111", rect=(50, 50, 200, 100)))
    writer.add_attachment("card.txt", b"4111 1111 1111 1111")
    writer.add_open_action(JavaScript("app.alert('hello');"))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_pdf_is_kept_as_its_pages_alone():
    """Metadata, notes, attached files and scripts are not read by the never-kept check:
    they are not kept either (the card number in them goes with them)."""
    from pypdf import PdfReader

    original = pdf_with_extras("Invoice 55-1031, 2 items")
    before = PdfReader(io.BytesIO(original))
    assert before.metadata["/Author"] == "Jane Roe" and before.attachments
    assert "/Annots" in before.pages[0] and b"4111" in original
    result = clean(original, name="invoice.pdf")
    kept = PdfReader(io.BytesIO(result.data))
    assert kept.metadata is None and not kept.attachments
    assert "/Annots" not in kept.pages[0] and "/Names" not in kept.trailer["/Root"]
    assert "/OpenAction" not in kept.trailer["/Root"] and "/AcroForm" not in kept.trailer["/Root"]
    assert b"4111" not in result.data and b"Jane Roe" not in result.data
    assert kept.pages[0].extract_text() == "Invoice 55-1031, 2 items"


def test_a_pdf_longer_than_every_page_read_is_refused():
    from pypdf import PdfReader, PdfWriter

    page = PdfReader(io.BytesIO(pdf_with_text("Invoice"))).pages[0]
    writer = PdfWriter()
    for _ in range(51):
        writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    assert refused(out.getvalue(), name="long.pdf").code == "too_large"
