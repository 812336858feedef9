"""Products in each of the shop's languages: Shopify's published locales with the products'
translations, Shopware's languages read with `sw-language-id`. One document per product per
translated language (`product:<id>@<lang>`), removed with the product, and not re-embedded
when nothing changed."""

import pytest

from chatwidget.shop.connect.services import connection_connect
from chatwidget.shop.connect.sync import knowledge_sync
from chatwidget.shop.connect.webhooks import product_refresh
from chatwidget.shop.models.knowledge import KnowledgeChunk, KnowledgeDocument

pytestmark = pytest.mark.django_db


def shopify_shop(site, fake):
    fake.locales += [
        {"locale": "de", "primary": False, "published": True},
        {"locale": "fr", "primary": False, "published": True},
        {"locale": "it", "primary": False, "published": False},  # not visible to buyers
    ]
    for pid in fake.products:
        n = pid - 1000
        fake.translate(pid, "de", title=f"Leinenhemd {n}", body_html=f"<p>Leichtes Hemd {n}.</p>")
        fake.translate(pid, "fr", title=f"Chemise en lin {n}", body_html=f"<p>Chemise {n}.</p>")
        fake.translate(pid, "it", title=f"Camicia {n}")
    return connection_connect(
        site=site, platform="shopify", base_url=fake.url, token_env="SHOPIFY_TOKEN", check=False
    )


def shopware_shop(site, fake):
    de, fr = fake.language("de-DE"), fake.language("fr-FR")
    for i in range(len(fake.products)):
        fake.translate(i, de, name=f"Eichenbrett {i}", description=f"<p>Massive Eiche {i}.</p>")
        if i % 2 == 0:  # the odd ones have no French translation: no French document
            fake.translate(i, fr, name=f"Planche en chêne {i}")
    return connection_connect(
        site=site,
        platform="shopware",
        base_url=fake.url,
        key_env="SW_CLIENT_ID",
        secret_env="SW_CLIENT_SECRET",
        check=False,
    )


def docs(site) -> dict[str, KnowledgeDocument]:
    return {d.external_id: d for d in KnowledgeDocument.objects.filter(site=site)}


def text(external_id: str) -> str:
    return "\n".join(
        KnowledgeChunk.objects.filter(document__external_id=external_id).values_list(
            "text", flat=True
        )
    )


def chunk_ids() -> dict[str, int]:
    return dict(KnowledgeChunk.objects.values_list("document__external_id", "pk"))


def test_shopify_de_and_fr_each_get_a_document_per_product(site, shopify):
    result = knowledge_sync(connection=shopify_shop(site, shopify))
    assert not result.error
    assert (result.products, result.translations, result.pages) == (60, 120, 1)
    found = docs(site)
    assert len(found) == 60 * 3 + 1, "no document for the unpublished Italian"
    default, de, fr = (found[f"product:1003{x}"] for x in ("", "@de", "@fr"))
    assert (de.title, fr.title) == ("Leinenhemd 3 [de]", "Chemise en lin 3 [fr]")
    assert default.title == "Linen shirt 3", "the default language's document is as before"
    assert de.identifiers == fr.identifiers == default.identifiers
    assert "Leichtes Hemd 3." in text("product:1003@de") and "SKU LS-3-1" in text("product:1003@de")
    assert "price 19.90 EUR" in text("product:1003@fr")
    assert shopify.requests.count("Locales") == 1, "the locales are read once per sync"


def test_shopify_without_the_translation_scope_syncs_the_primary_language(site, shopify):
    connection = shopify_shop(site, shopify)
    shopify.scopes.remove("read_translations")
    result = knowledge_sync(connection=connection)
    assert not result.error and (result.products, result.translations) == (60, 0)
    assert not [e for e in docs(site) if "@" in e]


def test_shopify_removed_product_removes_every_language_and_nothing_is_rechunked(site, shopify):
    connection = shopify_shop(site, shopify)
    knowledge_sync(connection=connection)
    before = chunk_ids()
    again = knowledge_sync(connection=connection)
    assert (again.changed, again.removed, again.unchanged) == (0, 0, 181)
    assert chunk_ids() == before, "no document re-chunked or re-embedded"

    del shopify.products[1007]
    shopify.translate(1008, "fr", title="Chemise en lin 8 (nouvelle)")
    del shopify.translations[1009]["de"]
    result = knowledge_sync(connection=connection)
    assert (result.changed, result.removed) == (1, 4)
    found = docs(site)
    assert not [e for e in found if e.startswith("product:1007")]
    assert "product:1009@de" not in found and "product:1009@fr" in found
    after = chunk_ids()
    assert {e for e in after if after[e] != before.get(e)} == {"product:1008@fr"}


def test_shopify_webhook_refreshes_every_language_of_one_product(site, shopify):
    connection = shopify_shop(site, shopify)
    knowledge_sync(connection=connection)
    before = chunk_ids()
    shopify.translate(1010, "de", title="Leinenhemd 10 (neu)")
    del shopify.translations[1010]["fr"]
    assert product_refresh(connection=connection, product_id="1010") == "updated"
    after = chunk_ids()
    assert {e for e in after if after[e] != before.get(e)} == {"product:1010@de"}
    assert "product:1010@fr" not in after
    assert product_refresh(connection=connection, product_id="1010") == "unchanged"
    del shopify.products[1010]
    assert product_refresh(connection=connection, product_id="1010") == "removed"
    assert not [e for e in docs(site) if e.startswith("product:1010")]


def test_shopware_languages_by_header(site, shopware):
    connection = shopware_shop(site, shopware)
    result = knowledge_sync(connection=connection)
    assert not result.error
    assert (result.products, result.translations) == (130, 130 + 65)
    found = docs(site)
    pid = f"{4:032x}"
    assert found[f"product:{pid}@de-DE"].title == "Eichenbrett 4 [de-DE]"
    assert found[f"product:{pid}@fr-FR"].title == "Planche en chêne 4 [fr-FR]"
    assert f"product:{5:032x}@fr-FR" not in found, "no explicit French translation"
    assert "Massive Eiche 4." in text(f"product:{pid}@de-DE")
    assert "Solid oak, model 4." in text(f"product:{pid}@fr-FR"), "fallback description"
    assert "SKU SW10004.1" in text(f"product:{pid}@de-DE")
    assert found[f"product:{pid}@de-DE"].identifiers == found[f"product:{pid}"].identifiers

    before = chunk_ids()
    again = knowledge_sync(connection=connection)
    assert (again.changed, again.removed) == (0, 0) and chunk_ids() == before

    del shopware.products[pid]
    removed = knowledge_sync(connection=connection)
    assert removed.removed == 3
    assert not [e for e in docs(site) if e.startswith(f"product:{pid}")]


def test_shopware_without_the_language_privilege_syncs_the_system_language(site, shopware):
    connection = shopware_shop(site, shopware)
    shopware.privileges.discard("language")
    result = knowledge_sync(connection=connection)
    assert not result.error and (result.products, result.translations) == (130, 0)
