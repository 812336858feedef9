"""Shop platform sync benchmark (issue 29): `knowledge_sync` of a catalogue with variants
against each platform's contract fake on 127.0.0.1, then a second sync with 10 changed
products.

    python -m tests.bench.shop_sync_bench [--products 2500] [--variants 3] [--only shopify]

Per platform: the first sync (time, HTTP requests, documents), its peak of Python
allocations (tracemalloc, a separate run on a second site, since tracing slows the run),
and the second sync after 10 products changed price (time, requests, documents re-chunked
and re-embedded: chunk rows that were replaced). Uses its own test database (PostgreSQL
when TEST_DATABASE_URL names one, else SQLite in memory). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc


def _fakes(products: int, variants: int) -> dict:
    from tests.shop.platforms import shopify_fake, shopware_fake, woocommerce_fake

    def shopify():
        fake = shopify_fake.FakeShopify(products=products, variants=variants)
        os.environ["BENCH_SHOPIFY_TOKEN"] = shopify_fake.TOKEN
        change = lambda i: fake.products.__setitem__(  # noqa: E731
            1000 + i, shopify_fake.product(i, variants, price="99.00")
        )
        return fake, {"token_env": "BENCH_SHOPIFY_TOKEN"}, change

    def woocommerce():
        fake = woocommerce_fake.FakeWooCommerce(products=products, variants=variants)
        os.environ["BENCH_WOO_KEY"] = woocommerce_fake.KEY
        os.environ["BENCH_WOO_SECRET"] = woocommerce_fake.SECRET
        change = lambda i: fake.put(i, variants, price="99.00")  # noqa: E731
        return fake, {"key_env": "BENCH_WOO_KEY", "secret_env": "BENCH_WOO_SECRET"}, change

    def shopware():
        fake = shopware_fake.FakeShopware(products=products, variants=variants)
        os.environ["BENCH_SW_ID"] = shopware_fake.CLIENT_ID
        os.environ["BENCH_SW_SECRET"] = shopware_fake.CLIENT_SECRET
        change = lambda i: fake.put(i, variants, price=99.0)  # noqa: E731
        return fake, {"key_env": "BENCH_SW_ID", "secret_env": "BENCH_SW_SECRET"}, change

    return {"shopify": shopify, "woocommerce": woocommerce, "shopware": shopware}


def _platform(name: str, make, products: int) -> dict:
    from chatwidget.shop.connect.services import connection_connect
    from chatwidget.shop.connect.sync import knowledge_sync
    from chatwidget.shop.models.knowledge import KnowledgeChunk
    from chatwidget.sites.services import site_create

    fake, names, change = make()
    try:
        figures: dict = {}
        site = site_create(name=f"Bench {name}", origins=["http://shop.test"])
        connection = connection_connect(site=site, platform=name, base_url=fake.url, **names)
        started = time.perf_counter()
        first = knowledge_sync(connection=connection)
        figures["first_s"] = round(time.perf_counter() - started, 1)
        assert not first.error, first.error
        figures["first_requests"], figures["documents"] = first.requests, first.changed
        before = dict(KnowledgeChunk.objects.filter(site=site).values_list("pk", "document_id"))
        for i in range(10):
            change(i * (products // 10))
        started = time.perf_counter()
        second = knowledge_sync(connection=connection)
        figures["second_s"] = round(time.perf_counter() - started, 1)
        after = dict(KnowledgeChunk.objects.filter(site=site).values_list("pk", "document_id"))
        figures["second_requests"] = second.requests
        figures["second_changed"] = second.changed
        figures["second_rechunked_docs"] = len({d for pk, d in after.items() if pk not in before})
        traced_site = site_create(name=f"Bench {name} traced", origins=["http://shop2.test"])
        traced = connection_connect(site=traced_site, platform=name, base_url=fake.url, **names)
        tracemalloc.start()
        knowledge_sync(connection=traced)
        figures["peak_mib"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
        tracemalloc.stop()
        return figures
    finally:
        fake.close()


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--products", type=int, default=2500)
    parser.add_argument("--variants", type=int, default=3)
    parser.add_argument("--only", default="shopify,woocommerce,shopware")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chatwidget.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = "bench_shop_sync"
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    results = {}
    try:
        fakes = _fakes(args.products, args.variants)
        for name in args.only.split(","):
            results[name] = _platform(name, fakes[name], args.products)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
    print(
        f"knowledge_sync of {args.products} products x {args.variants} variants on "
        f"{connection.vendor} ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})\n"
    )
    print(
        "| platform | first sync s | requests | documents | peak Python MiB | "
        "10 changed: s | requests | re-chunked documents |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, f in results.items():
        print(
            f"| {name} | {f['first_s']} | {f['first_requests']} | {f['documents']} | "
            f"{f['peak_mib']} | {f['second_s']} | {f['second_requests']} | "
            f"{f['second_rechunked_docs']} |"
        )
    return results


if __name__ == "__main__":
    main()
