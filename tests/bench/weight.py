"""Widget weight: what a shop page downloads for the chat, raw, gzipped and brotli.

`loader.js` is the first paint (launcher, API, config); `panel.js` is loaded on the first
open, or at once when a conversation exists; both are built from static/widget/src/."""

from __future__ import annotations

import gzip
import re
import urllib.request
from pathlib import Path

import brotli

ROOT = Path(__file__).resolve().parents[2]
WIDGET_DIR = ROOT / "static" / "widget" / "v1"
LOADER = WIDGET_DIR / "loader.js"


def sizes(data: bytes) -> dict[str, int]:
    return {
        "raw": len(data),
        # what whitenoise (collectstatic) and nginx gzip_static/brotli_static would serve
        "gzip": len(gzip.compress(data, compresslevel=9, mtime=0)),
        "brotli": len(brotli.compress(data, quality=11)),
    }


def requests_of(loader_text: str) -> list[str]:
    """The requests the widget makes, read from the loader's source: the loader itself, each
    `fetch(` / `new WebSocket(` / extra script or stylesheet it loads."""
    found = ["loader.js (script tag)"]
    if "config.json" in loader_text:
        found.append("config.json (fetch, on page load)")
    panel = WIDGET_DIR / "panel.js"
    if "panel.js" in loader_text and panel.exists():
        found.append("panel.js (script, on first open or with a session)")
        loader_text += panel.read_text("utf-8", "replace")
    if re.search(r"new WebSocket\(", loader_text):
        found.append("websocket /ws/chat/<key>/ (on first open)")
    for match in re.findall(r"""["'`]([^"'`]+\.(?:js|css|woff2?|png|svg))["'`]""", loader_text):
        if "loader.js" not in match and "panel.js" not in match:
            found.append(f"{match} (static)")
    return found


def measure(config_url: str | None = None) -> dict:
    loader = LOADER.read_bytes()
    parts = {"loader.js": sizes(loader)}
    for path in sorted(WIDGET_DIR.rglob("*")):
        if path.is_file() and path != LOADER and path.suffix in (".js", ".css", ".svg", ".woff2"):
            parts[str(path.relative_to(WIDGET_DIR))] = sizes(path.read_bytes())
    config_note = "not fetched"
    if config_url:
        try:
            with urllib.request.urlopen(config_url, timeout=10) as response:  # 127.0.0.1
                parts["config.json"] = sizes(response.read())
            config_note = config_url
        except OSError as exc:
            config_note = f"fetch failed: {type(exc).__name__}"
    whole = {k: sum(p[k] for p in parts.values()) for k in ("raw", "gzip", "brotli")}
    reqs = requests_of(loader.decode("utf-8", "replace"))
    return {
        "parts": parts,
        "loader": parts["loader.js"],
        "whole": whole,
        "requests": reqs,
        "request_count": len(reqs),
        "config": config_note,
        "targets": {"loader_gzip_max": 8000, "whole_gzip_max": 30000},
        "loader_ok": parts["loader.js"]["gzip"] <= 8000,
        "whole_ok": whole["gzip"] <= 30000,
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(measure(sys.argv[1] if len(sys.argv) > 1 else None), indent=2))
