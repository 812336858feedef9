"""Upload limits agree (issue 31): nginx and the ingress let through what Django accepts for
a knowledge file (KNOWLEDGE_UPLOAD_MAX_BYTES) plus the form around it, and not much more;
/metrics is not reachable through either proxy."""

import re
from pathlib import Path

import yaml

from chatwidget.settings import operations

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "deploy" / "nginx" / "snippets" / "chatwidget-server.conf"
INGRESS = ROOT / "deploy" / "k8s" / "ingress.yaml"


def megabytes(value: str) -> int:
    m = re.fullmatch(r"(\d+)([km]?)", value.strip().lower())
    assert m, value
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2)]


def test_nginx_admits_the_upload_limit_only_on_the_knowledge_admin():
    text = SERVER.read_text()
    server_wide = re.search(r"^client_max_body_size (\S+);", text, re.M).group(1)
    assert megabytes(server_wide) == 1024 * 1024, "everything else stays small"
    block = re.search(r"location \^~ /admin/shop/knowledgesource/ \{(.*?)\n\}", text, re.S)
    assert block, "a location for the knowledge upload form"
    limit = megabytes(re.search(r"client_max_body_size (\S+);", block.group(1)).group(1))
    upload = operations.KNOWLEDGE_UPLOAD_MAX_BYTES
    assert upload < limit <= upload + 8 * 1024 * 1024


def test_the_ingress_admits_the_upload_limit():
    ingress = yaml.safe_load(INGRESS.read_text())
    annotations = ingress["metadata"]["annotations"]
    limit = megabytes(annotations["nginx.ingress.kubernetes.io/proxy-body-size"])
    upload = operations.KNOWLEDGE_UPLOAD_MAX_BYTES
    assert upload < limit <= upload + 8 * 1024 * 1024


def test_metrics_are_not_served_through_the_proxies():
    assert re.search(r"location = /metrics \{\s*access_log off;\s*return 404;", SERVER.read_text())
    ingress = yaml.safe_load(INGRESS.read_text())
    snippet = ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/server-snippet"]
    assert "location = /metrics { return 404; }" in snippet
