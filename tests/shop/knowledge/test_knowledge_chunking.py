"""Chunks of about 200-400 tokens, cut at headings and paragraphs, counted with tiktoken."""

import pytest

from chatwidget.shop.knowledge.chunking import MAX_TOKENS, MIN_TOKENS, chunk_text
from chatwidget.shop.knowledge.htmltext import html_to_page
from memory.tokens import get_encoding

ENC = get_encoding("o200k_base")


def count(text):
    return len(ENC.encode(text))


def cut(text, n):
    ids = ENC.encode(text)
    return [ENC.decode(ids[i : i + n]) for i in range(0, len(ids), n)]


def paragraph(topic, sentences):
    return " ".join(
        f"The {topic} detail number {i} is described in this sentence." for i in range(sentences)
    )


def chunks(text):
    return chunk_text(text, count=count, encode_cut=cut)


def test_sections_cut_at_headings_within_bounds():
    text = "\n\n".join(
        f"## {topic}\n\n{paragraph(topic, 12)}\n\n{paragraph(topic, 10)}"
        for topic in ("delivery", "returns", "sizes", "care")
    )
    result = chunks(text)
    assert len(result) == 4
    for topic, chunk in zip(("delivery", "returns", "sizes", "care"), result, strict=True):
        assert chunk.startswith(f"## {topic}")
        assert f"The {topic} detail" in chunk and "## " not in chunk[3:]
        assert MIN_TOKENS <= count(chunk) <= MAX_TOKENS


def test_short_sections_are_joined_and_long_ones_split_at_paragraphs():
    text = "## A\n\nShort a.\n\n## B\n\nShort b.\n\n## Long\n\n" + "\n\n".join(
        paragraph(f"long{i}", 9) for i in range(6)
    )
    result = chunks(text)
    assert result[0].startswith("## A") and "## B" in result[0]
    assert all(count(c) <= MAX_TOKENS for c in result)
    assert sum(1 for c in result if "## Long" in c) >= 2  # the heading rides with each part
    for chunk in result:  # paragraphs are never cut in the middle
        for i in range(6):
            if f"The long{i} detail number 0" in chunk:
                assert f"The long{i} detail number 8" in chunk


def test_a_run_on_paragraph_is_cut_at_sentences_then_tokens():
    text = paragraph("endless", 80) + " " + "x" * 5000
    result = chunks(text)
    assert len(result) > 3
    assert all(count(c) <= MAX_TOKENS for c in result)
    assert "".join(result).replace(" ", "").count("x") == 5000


@pytest.mark.parametrize(
    "html", ["<h1>Shipping</h1><p>Parcels leave today.</p><h2>Costs</h2><p>4.90 EUR.</p>"]
)
def test_html_headings_become_chunk_boundaries(html):
    page = html_to_page(html)
    assert page.title == "Shipping"
    assert page.text == "# Shipping\n\nParcels leave today.\n\n## Costs\n\n4.90 EUR."
