"""Every setting reaches every process (issue 31): deploy/README.md has one table of every
variable the settings read, the Kubernetes ConfigMap and Secret hold every one of them, the
ConfigMap's values load, and compose and systemd hand the whole file to every process."""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "chatwidget" / "settings"
README = ROOT / "deploy" / "README.md"
K8S = ROOT / "deploy" / "k8s"


def settings_variables() -> set[str]:
    """Names of env(...), env.int(...), ... read by the settings modules (not the tests')."""
    names = set()
    for path in SETTINGS.glob("*.py"):
        if path.name == "test.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            is_env = (isinstance(func, ast.Name) and func.id == "env") or (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "env"
            )
            if is_env and isinstance(node.args[0], ast.Constant):
                names.add(node.args[0].value)
    return names


def table() -> dict[str, dict[str, str]]:
    text = README.read_text()
    body = text[text.index("<!-- settings-table:") : text.index("<!-- settings-table end -->")]
    rows = {}
    for line in body.splitlines():
        m = re.match(r"^\| `([A-Z0-9_]+)` \| ([a-z ]+) \| ([^|]+) \|", line)
        if m:
            assert m.group(1) not in rows, f"{m.group(1)} twice in the table"
            rows[m.group(1)] = {"kind": m.group(2).strip(), "read_by": m.group(3).strip()}
    return rows


def test_the_table_lists_every_variable_the_settings_read_and_no_other():
    documented, read = set(table()), settings_variables()
    assert read - documented == set(), "read by chatwidget/settings, missing in deploy/README"
    assert documented - read == set(), "in deploy/README, read by no settings module"


def test_each_row_has_a_kind_and_the_processes_that_read_it():
    processes = {"web", "worker", "beat", "migrate"}
    for name, row in table().items():
        assert row["kind"] in {"secret", "config", "local only"}, name
        if row["kind"] != "local only":
            assert set(row["read_by"].split(", ")) <= processes, name


def _data(kind: str) -> dict[str, str]:
    for path in K8S.glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc.get("kind") == kind:
                return doc.get("data") or doc.get("stringData") or {}
    raise AssertionError(kind)


def test_configmap_and_secret_hold_every_documented_variable():
    rows = table()
    config = {n for n, r in rows.items() if r["kind"] == "config"}
    secret = {n for n, r in rows.items() if r["kind"] == "secret"}
    configmap, secret_example = set(_data("ConfigMap")), set(_data("Secret"))
    assert configmap - {"DJANGO_SETTINGS_MODULE"} == config
    assert secret <= secret_example
    assert not configmap & secret, "a secret in the ConfigMap"


def test_every_container_reads_the_whole_configmap_and_secret():
    for path in K8S.glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            if not doc or doc.get("kind") not in ("Deployment", "Job"):
                continue
            spec = doc["spec"]["template"]["spec"]
            for container in spec.get("initContainers", []) + spec["containers"]:
                sources = container.get("envFrom", [])
                refs = {next(iter(s)) + ":" + next(iter(s.values()))["name"] for s in sources}
                assert refs == {
                    "configMapRef:chatwidget-config",
                    "secretRef:chatwidget-secrets",
                }, f"{path.name}/{container['name']}"


def test_the_configmap_values_load_in_the_production_settings():
    """Each value parses as its setting's type (an empty string where a number is read would
    stop every pod), and the visibility-timeout check passes with them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "DJANGO_"))}
    env.update(_data("ConfigMap"))
    env.update(
        {
            "SECRET_KEY": "k" * 50,
            "DATABASE_URL": "postgres://u:p@db.internal:5432/chatwidget",
            "REDIS_URL": "redis://redis.internal:6379/0",
            "CELERY_BROKER_URL": "redis://redis.internal:6379/1",
        }
    )
    code = (
        "from django.conf import settings as s; "
        "print(s.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout'], s.KNOWLEDGE_STORAGE)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]


def test_systemd_units_read_the_whole_env_file():
    for unit in (ROOT / "deploy" / "systemd").glob("*.service"):
        assert "EnvironmentFile=/etc/chatwidget/env" in unit.read_text(), unit.name


def test_compose_hands_deploy_env_to_every_app_container():
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    for name in ("migrate", "web", "worker", "beat"):
        assert compose["services"][name]["env_file"] == ["${CHATWIDGET_ENV_FILE:-.env}"], name


def test_the_kubernetes_pooler_runs_in_transaction_mode():
    docs = [
        d
        for path in (K8S / "pgbouncer").glob("*.yaml")
        for d in yaml.safe_load_all(path.read_text())
        if d and d.get("kind") == "Deployment"
    ]
    (container,) = docs[0]["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e for e in container["env"]}
    assert env["POOL_MODE"]["value"] == "transaction"
    ref = env["DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    assert ref["key"] == "PGBOUNCER_UPSTREAM_URL", "never the app's DATABASE_URL (itself)"
    assert "PGBOUNCER_UPSTREAM_URL" in (K8S / "secret.example.yaml").read_text()
