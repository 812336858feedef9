"""A site's widget theme: the primary colour must stay readable.

The widget puts white text and icons on the primary colour (launcher, header, the visitor's
messages, the send button) and uses it for text on white (buttons, links in the menu), so
one check covers both: the WCAG 2 contrast ratio against white must be at least 4.5:1
(AA for normal text). Saved in admin; the widget trusts what the config endpoint sends.
"""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

DEFAULT_PRIMARY = "#1f4fd1"
MIN_CONTRAST = 4.5
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _relative_luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours, 1.0 to 21.0."""
    lighter, darker = sorted(
        (_relative_luminance(first), _relative_luminance(second)), reverse=True
    )
    return (lighter + 0.05) / (darker + 0.05)


def validate_primary_colour(value: str) -> None:
    if not HEX_COLOUR.match(value or ""):
        raise ValidationError(_("Enter a colour as #rrggbb, for example #1f4fd1."))
    ratio = contrast_ratio(value, "#ffffff")
    if ratio < MIN_CONTRAST:
        raise ValidationError(
            _(
                "%(value)s has a contrast of %(ratio)s:1 with white text; at least 4.5:1 is "
                "needed so that everyone can read it. Choose a darker colour."
            ),
            params={"value": value, "ratio": f"{ratio:.2f}"},
        )
