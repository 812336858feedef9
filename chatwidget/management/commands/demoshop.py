"""Serve the demo shop (templates/demo_shop/) on its own origin, with the script tag.

Its pages are made from the same data the assistant knows (chatwidget/demo_data/: the
catalogue as JSON Lines and the shop's pages as Markdown, which `make demo` imports with
`knowledge_import`), so what the assistant quotes is what the shop shows. /sitemap.xml
lists every page, so the shop can also be imported by URL.
"""

import json
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.management.base import BaseCommand
from django.template.loader import render_to_string

from chatwidget.demo_shop import demo_api_answer

DEMO_DATA = Path(__file__).resolve().parents[2] / "demo_data"
CATALOGUE = DEMO_DATA / "catalogue.jsonl"
PAGES_DIR = DEMO_DATA / "pages"
NAV = [
    ("/", "Home"),
    ("/product/kurta", "Cotton kurta"),
    ("/shipping", "Shipping and returns"),
    ("/size-guide", "Size guide"),
    ("/de/versand", "Deutsch"),
]
ALIASES = {"/product/kurta": "/product/KU-2291-M"}


def _blocks(text: str) -> list[dict]:
    """Markdown-ish text as blocks for the template: headings and paragraphs (data, the
    template writes the HTML)."""
    blocks = []
    for part in re.split(r"\n\s*\n", text.strip()):
        m = re.match(r"^(#{1,6})\s+([^\n]*)\n?(.*)", part, re.S)
        if m:
            blocks.append(
                {"heading": True, "level": min(len(m.group(1)) + 1, 4), "text": m.group(2).strip()}
            )
            part = m.group(3)
        if part.strip():
            blocks.append({"heading": False, "text": " ".join(part.split())})
    return blocks


def shop_load() -> tuple[dict[str, dict], dict[str, dict]]:
    """(products by path, pages by path) from the demo data."""
    products = {}
    with CATALOGUE.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                item = json.loads(line)
                item["blocks"] = _blocks(item["text"])
                products[f"/product/{item['id']}"] = item
    pages = {}
    for file in sorted(PAGES_DIR.glob("*.md")):
        raw = file.read_text(encoding="utf-8")
        url = re.search(r"^url:\s*(\S+)", raw, re.M)
        body = re.sub(r"\A---\n.*?\n---\n", "", raw, flags=re.S)
        blocks = _blocks(body)
        title = blocks[0]["text"] if blocks and blocks[0]["heading"] else file.stem
        path = urlsplit(url.group(1)).path if url else f"/{file.stem}"
        pages[path] = {
            "title": title,
            "blocks": blocks[1:] if blocks[0]["heading"] else blocks,
            "lang": "de" if path.startswith("/de/") else "en",
        }
    return products, pages


def make_handler(*, widget_url: str, site_key: str, lang: str):
    products, pages = shop_load()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = unquote(self.path.split("?", 1)[0])
            path = ALIASES.get(path, path)
            api = demo_api_answer(  # the shop's API: order status and stock (shop actions)
                path=path,
                query=dict(parse_qsl(urlsplit(self.path).query)),
                api_key=self.headers.get("X-Api-Key"),
            )
            if api is not None:
                self._send(json.dumps(api[1]), "application/json", status=api[0])
                return
            base = {
                "widget_url": widget_url.rstrip("/"),
                "site_key": site_key,
                "lang": lang,
                "pages": NAV,
            }
            if path == "/sitemap.xml":
                host = self.headers.get("Host", "127.0.0.1")
                self._send(
                    render_to_string(
                        "demo_shop/sitemap.xml",
                        {"origin": f"http://{host}", "paths": ["/", *products, *pages]},
                    ),
                    "application/xml",
                )
                return
            if path == "/":
                context = {"title": "Home", "products": products.values()}
                template = "demo_shop/index.html"
            elif path in products:
                context = {"title": products[path]["title"], "product": products[path]}
                template = "demo_shop/product.html"
            elif path in pages:
                context = {
                    "title": pages[path]["title"],
                    "page": pages[path],
                    "lang": pages[path]["lang"],
                }
                template = "demo_shop/page.html"
            else:
                self.send_error(404)
                return
            self._send(render_to_string(template, {**base, **context}), "text/html")

        def _send(self, text: str, ctype: str, status: int = 200) -> None:
            body = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", f"{ctype}; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args) -> None:
            return

    return Handler


class Command(BaseCommand):
    help = "Serve the demo shop pages with the widget's script tag embedded."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8001)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--widget-url", default="http://127.0.0.1:8000")
        parser.add_argument("--site-key", required=True)
        parser.add_argument("--lang", default="en")

    def handle(
        self, *args, port: int, host: str, widget_url: str, site_key: str, lang: str, **options
    ) -> None:
        server = ThreadingHTTPServer(
            (host, port), make_handler(widget_url=widget_url, site_key=site_key, lang=lang)
        )
        if options["verbosity"]:  # `manage.py demo` says it in its banner instead
            self.stdout.write(f"Demo shop on http://{host}:{port}/", ending="\n")
            self.stdout.flush()
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
