"""How well memory.uploads refuses pictures of card numbers (issue 33), and how often it
refuses a harmless picture with numbers in it.

    .venv/bin/python -m tests.bench.upload_ocr_eval

Five test card numbers (not the 4111 of the unit and browser tests) in four DejaVu faces at
four renderings (size, a slant, blur, a tinted background), saved as JPEG; five harmless
lines (an order, a phone number, a parcel number, an EAN, an invoice) as PNG. Prints misses
and the counts. OCR is best effort: a miss is a card picture that would be kept.
"""

from __future__ import annotations

import io
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
django.setup()

from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

from memory.uploads import UploadRefused, upload_clean  # noqa: E402

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
FONTS = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSerif.ttf"]
CARDS = [
    "5555 5555 5555 4444",
    "4012 8888 8888 1881",
    "3782 822463 10005",
    "5105 1051 0510 5100",
    "4000 0566 5566 5556",
]
RENDERINGS = [
    (40, 0, 0, "white"),
    (28, 3, 0, "#e8e4d8"),
    (36, -5, 1, "#d0d8e8"),
    (22, 0, 0.8, "white"),
]
HARMLESS = [
    "Order 55-1031, 2 items",
    "Tel. 030 1234567",
    "Parcel 0034 5678 9012 3456 78",
    "EAN 4006381333931",
    "Invoice 2026-0412 total 49.90 EUR",
]


def refused(data: bytes) -> bool:
    try:
        upload_clean(data=data, name="x", max_bytes=10**7, max_pixels=10**8)
    except UploadRefused as error:
        return error.code == "never_kept"
    return False


def card_picture(number: str, face: str, size: int, angle: int, blur: float, bg: str) -> bytes:
    font = ImageFont.truetype(DEJAVU + face, size)
    image = Image.new("RGB", (size * 16, size * 4), bg)
    ImageDraw.Draw(image).text((size, size), number, fill="#222", font=font)
    image = image.rotate(angle, expand=True, fillcolor=bg)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80)
    return out.getvalue()


def harmless_picture(text: str, face: str) -> bytes:
    image = Image.new("RGB", (900, 140), "white")
    ImageDraw.Draw(image).text(
        (30, 40), text, fill="black", font=ImageFont.truetype(DEJAVU + face, 36)
    )
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def main() -> None:
    found = total = 0
    for number in CARDS:
        for face in FONTS:
            for rendering in RENDERINGS:
                total += 1
                if refused(card_picture(number, face, *rendering)):
                    found += 1
                else:
                    print("missed:", number, face, rendering)
    wrong = sum(refused(harmless_picture(text, face)) for text in HARMLESS for face in FONTS)
    print(f"card pictures refused: {found}/{total}")
    print(f"harmless pictures refused: {wrong}/{len(HARMLESS) * len(FONTS)}")


if __name__ == "__main__":
    main()
