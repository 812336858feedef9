"""The Site form in admin takes origins one per line, not a JSON list (issue 27)."""

import pytest

from chatwidget.sites.forms import OriginsField


def test_origins_one_per_line_normalised_and_deduplicated():
    field = OriginsField(required=False)
    text = "https://shop.example.com/\nhttps://www.shop.example.com, http://127.0.0.1:8001\n"
    assert field.clean(text + "HTTPS://shop.example.com") == [
        "https://shop.example.com",
        "https://www.shop.example.com",
        "http://127.0.0.1:8001",
    ]


def test_a_pasted_json_list_is_read_too():
    assert OriginsField(required=False).clean('["https://shop.example"]') == [
        "https://shop.example"
    ]


@pytest.mark.parametrize(
    "bad", ["shop.example.com", "https://shop.example.com/checkout", "ftp://x.y"]
)
def test_each_bad_origin_is_named(bad):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        OriginsField(required=False).clean(f"https://ok.example\n{bad}")
    assert bad in str(error.value)


@pytest.mark.django_db
def test_the_site_page_shows_origins_as_lines_and_saves_them(admin_client, site):
    page = admin_client.get(f"/admin/sites/site/{site.pk}/change/").content.decode()
    assert "<textarea" in page and 'name="allowed_origins"' in page
    assert '["' not in page.split('name="allowed_origins"', 1)[1].split("</textarea>", 1)[0]
    from django.forms.models import model_to_dict

    from chatwidget.sites.forms import SiteForm

    data = {k: v for k, v in model_to_dict(site).items() if v is not None}
    data["allowed_origins"] = "https://a.example\nhttps://b.example/"
    form = SiteForm(data=data, instance=site)
    assert form.is_valid(), form.errors
    form.save()
    site.refresh_from_db()
    assert site.allowed_origins == ["https://a.example", "https://b.example"]
