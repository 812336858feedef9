"""chatwidget/models.py: what a Site accepts."""

import pytest


def test_site_refuses_malformed_staff_hours(db):
    from django.core.exceptions import ValidationError

    from chatwidget.sites.models import Site

    site = Site(name="x", allowed_origins=["https://shop.example"], staff_hours="mon-fri 9-25")
    with pytest.raises(ValidationError) as err:
        site.full_clean()
    assert "staff_hours" in err.value.message_dict
