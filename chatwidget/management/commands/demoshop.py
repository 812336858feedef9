"""Serve the demo shop (templates/demo_shop/) on its own origin, with the script tag."""

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.core.management.base import BaseCommand
from django.template.loader import render_to_string

PAGES = {
    "/": ("demo_shop/index.html", "Home"),
    "/product/kurta": ("demo_shop/product.html", "Cotton kurta"),
    "/shipping": ("demo_shop/shipping.html", "Shipping and returns"),
}


def make_handler(*, widget_url: str, site_key: str, lang: str):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            path = self.path.split("?", 1)[0]
            if path not in PAGES:
                self.send_error(404)
                return
            template, title = PAGES[path]
            body = render_to_string(
                template,
                {"widget_url": widget_url.rstrip("/"), "site_key": site_key, "title": title,
                 "lang": lang, "pages": [(p, t) for p, (_, t) in PAGES.items()]},
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args) -> None:  # noqa: A002
            return

    return Handler


class Command(BaseCommand):
    help = "Serve the demo shop pages with the widget's script tag embedded."

    def add_arguments(self, parser):  # noqa: ANN001
        parser.add_argument("--port", type=int, default=8001)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--widget-url", default="http://127.0.0.1:8000")
        parser.add_argument("--site-key", required=True)
        parser.add_argument("--lang", default="en")

    def handle(self, *args, port: int, host: str, widget_url: str, site_key: str, lang: str,
               **options) -> None:
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
