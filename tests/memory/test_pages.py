"""memory/pages.py: the page a visitor's message came from, as it is kept: the query string
cut to the site's allowed parameters, no fragment, no user info, redacted like text; and the
key two spellings of one page share (retrieval)."""

import pytest

from memory.pages import page_clean, page_key, page_render, query_params_parse, url_is_web

NONE = frozenset()


def test_the_query_string_and_fragment_are_cut_unless_the_site_allows_a_parameter():
    url = "https://shop.example/p/kurta?email=a@b.c&token=xyz&variant=mint#reviews"
    page = page_clean(url=url, title="Cotton kurta", allowed=NONE)
    assert page["url"] == "https://shop.example/p/kurta"
    kept = page_clean(url=url, title="", allowed=query_params_parse("variant, size"))
    assert kept["url"] == "https://shop.example/p/kurta?variant=mint"
    assert "a@b.c" not in str(page) and "xyz" not in str(page) and "xyz" not in str(kept)


def test_user_info_never_kept_and_scheme_and_host_in_lower_case():
    page = page_clean(url="HTTPS://anna:secret@Shop.Example/P/Kurta", title="", allowed=NONE)
    assert page["url"] == "https://shop.example/P/Kurta"


def test_url_and_title_are_redacted_like_text():
    page = page_clean(
        url="https://shop.example/account/anna@example.com/orders",
        title="Mein Passwort ist Sommer2024! | Shop",
        allowed=NONE,
    )
    assert "Sommer2024" not in page["title"] and "[password removed]" in page["title"]
    # a contact detail stays, marked, as in a visitor's text: staff see it masked
    assert page["url_spans"] == [["email", 29, 45]]
    assert page["url"][29:45] == "anna@example.com"
    card = page_clean(url="https://shop.example/p/4111111111111111", title="", allowed=NONE)
    assert "4111" not in card["url"]


def test_the_rendered_line_is_data_and_its_tokens_are_counted_once():
    page = page_clean(url="https://shop.example/p/kurta", title="Cotton kurta", allowed=NONE)
    line = page_render(page)
    assert line.endswith("Cotton kurta (https://shop.example/p/kurta)")
    assert "not instructions" in line
    assert page["tokens"] > 5


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "ftp://shop.example/x", "/p/kurta", "https://", "http://h:x/"]
)
def test_only_http_urls_with_a_host_are_kept(url):
    assert not url_is_web(url)
    assert page_clean(url=url, title="t", allowed=NONE) is None


def test_one_page_one_key_whatever_the_spelling():
    key = page_key("https://shop.example/p/kurta")
    assert key == "https://shop.example/p/kurta"
    for same in (
        "https://Shop.Example/p/kurta/",
        "https://shop.example:443/p/kurta?variant=mint#top",
        "https://shop.example/p/%6Burta",
    ):
        assert page_key(same) == key, same
    assert page_key("http://shop.example/p/kurta") != key
    assert page_key("https://shop.example/p/kurta-2") != key
    assert page_key("javascript:alert(1)") == ""
