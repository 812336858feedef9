"""Test files for visitors' uploads (issue 33), made by the tests themselves: photos with
EXIF and GPS, an image of a test card number, HEIC, PDFs."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # fonts-dejavu-core
TEST_CARD = "4111 1111 1111 1111"  # Visa's test number: Luhn-valid


def photo_with_gps(fmt: str = "JPEG", size=(320, 240), orientation: int = 1) -> bytes:
    """A photo whose EXIF holds a camera make, GPS coordinates and an orientation."""
    image = Image.new("RGB", size, (30, 120, 200))
    ImageDraw.Draw(image).rectangle((0, 0, size[0] // 3, size[1] // 3), fill=(250, 200, 0))
    exif = Image.Exif()
    exif[0x010F] = "TestCam"  # Make
    exif[0x0112] = orientation
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (52.0, 31.0, 12.0)
    gps[3] = "E"
    gps[4] = (13.0, 24.0, 36.0)
    out = io.BytesIO()
    image.save(out, fmt, exif=exif.tobytes())
    return out.getvalue()


def card_image(text: str = TEST_CARD, fmt: str = "PNG") -> bytes:
    """The test card number, big and clear, as a photo of a card might show it."""
    font = ImageFont.truetype(FONT, 56)
    image = Image.new("RGB", (1000, 160), "white")
    ImageDraw.Draw(image).text((30, 45), text, fill="black", font=font)
    out = io.BytesIO()
    image.save(out, fmt)
    return out.getvalue()


def heic_photo() -> bytes:
    from pillow_heif import register_heif_opener

    register_heif_opener()
    out = io.BytesIO()
    Image.new("RGB", (96, 64), (10, 160, 60)).save(out, "HEIF")
    return out.getvalue()


def pdf_with_text(text: str) -> bytes:
    """A one-page PDF whose text layer holds `text` (written by hand: pypdf reads it)."""
    stream = f"BT /F1 18 Tf 40 700 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


def scanned_pdf(*images: bytes) -> bytes:
    """A PDF of images and no text, as a scanner or a phone's "scan document" makes it."""
    pages = [Image.open(io.BytesIO(data)).convert("RGB") for data in images]
    out = io.BytesIO()
    pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], resolution=100.0)
    return out.getvalue()
