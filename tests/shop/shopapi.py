"""A fake shop API on 127.0.0.1 for the shop-action tests (stdlib http.server in a thread).

    /orders/<number>               an order by number alone, with its customer's data (404
                                   for an unknown number; the action checks the postcode)
    /slow/<anything>               answers after `slow_seconds` (a timeout)
    /error/<anything>              500
    /malformed/<anything>          200 with a body that is not JSON
    /deep/<anything>               200 with JSON nested 100,000 deep (RecursionError in json)
    /big/<anything>                a long JSON answer (cut to the site's result size)
    /api/...                       the demo shop's API (chatwidget.demo_shop)

Every request is recorded (method, path, headers) in `requests`.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from chatwidget.demo_shop import demo_api_answer
from tests.fakellm import Reply

SECRET = "s3cret-shop-key-4711-do-not-store"  # the shop's key, from the environment
ENV = "TEST_SHOP_API_KEY"
ORDERS = {
    "10452": {"postcode": "10115", "status": "shipped", "carrier": "DHL"},
    "20001": {"postcode": "80331", "status": "processing", "carrier": ""},
}
CUSTOMER = {"name": "Anna Meyer", "email": "anna.meyer@example.com", "phone": "+49 30 901820"}


class FakeShop:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.slow_seconds = 2.0
        shop = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                shop.requests.append(
                    {
                        "method": "GET",
                        "path": parts.path,
                        "query": dict(parse_qsl(parts.query)),
                        "headers": dict(self.headers.items()),
                    }
                )
                kind, _, rest = parts.path.strip("/").partition("/")
                query = dict(parse_qsl(parts.query))
                if kind == "api":
                    status, data = demo_api_answer(
                        path=parts.path, query=query, api_key=self.headers.get("X-Api-Key")
                    )
                    return self._json(status, data)
                if kind == "orders":
                    order = ORDERS.get(rest)
                    if order is None:
                        return self._json(404, {"error": "not found"})
                    return self._json(
                        200,
                        {
                            "order_number": rest,
                            "status": order["status"],
                            "carrier": order["carrier"],
                            "postcode": order["postcode"],
                            "customer": CUSTOMER,
                        },
                    )
                if kind == "slow":
                    time.sleep(shop.slow_seconds)
                    return self._json(200, {"status": "late"})
                if kind == "error":
                    return self._json(500, {"error": "boom"})
                if kind == "malformed":
                    return self._raw(200, b"<html>not json</html>")
                if kind == "deep":
                    return self._raw(200, b"[" * 100_000 + b"]" * 100_000)
                if kind == "big":
                    return self._json(
                        200,
                        {
                            "order_number": "10452",
                            "postcode": "10115",
                            "status": "shipped",
                            "history": [f"scan {i} at depot {i}" for i in range(300)],
                        },
                    )
                return self._json(404, {"error": "no route"})

            def _json(self, status: int, data: dict) -> None:
                self._raw(status, json.dumps(data).encode())

            def _raw(self, status: int, body: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the caller gave up (a timeout test)

            def log_message(self, format: str, *args) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> FakeShop:
        threading.Thread(
            target=self.server.serve_forever,
            kwargs={"poll_interval": 0.05},
            daemon=True,
            name="fakeshop",
        ).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def obeying_model(body: dict) -> Reply:
    """A model that does what the last tool message tells it (or reports the result)."""
    last = body["messages"][-1]
    if last["role"] == "tool":
        content = json.loads(last["content"])
        if content.get("ok") is False:
            if "offer" in content.get("instruction", ""):
                return Reply(
                    "Sorry, I could not check that right now. Shall I pass you to a person?"
                )
            return Reply("Could you tell me your order number and postcode?")
        return Reply(f"Your order is {content['status']}.")
    return Reply("OK.")
