"""Whom the shipped deployments believe X-Forwarded-For from (issue 25): the proxy itself,
never a whole private range, in which every container or machine could choose the address
the per-address limits count."""

from __future__ import annotations

import ipaddress
import re

import pytest
import yaml

from tests.deploy.test_manifests import (
    DEPLOY,
    REQUIRED,
    _compose,
    _compose_env,
    _labels_match,
    _objects,
    _one,
    _pod_spec,
    _unit,
    _web_deployment,
)

PRIVATE_RANGES = [
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "0.0.0.0/0", "::/0", "fc00::/7")
]
_DEFAULT = re.compile(r"\$\{(\w+):-([^}]*)\}")


def _networks(spec: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(item.strip(), strict=False) for item in spec.split(",") if item]


def _covers_a_private_range(spec: str) -> bool:
    """An entry equal to or wider than a whole private range (or everything)."""
    return any(
        net.version == big.version and big.subnet_of(net)  # type: ignore[arg-type]
        for net in _networks(spec)
        for big in PRIVATE_RANGES
    )


def _compose_default(value: str) -> str:
    """A compose value as it is with nothing set in deploy/.env: `${NAME:-default}` -> default."""
    assert "${" not in _DEFAULT.sub("", value), f"not a plain default: {value}"
    return _DEFAULT.sub(lambda m: m.group(2), value)


def _compose_file() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_trusts_nginxs_fixed_address_only():
    compose = _compose_file()
    services = compose["services"]
    raw = services["web"]["environment"]["TRUSTED_PROXIES"]
    trusted = _compose_default(raw)
    assert not _covers_a_private_range(trusted), trusted
    (network,) = _networks(trusted)
    assert network.num_addresses == 1, "one address: nginx's"

    nginx_raw = services["nginx"]["networks"]["default"]["ipv4_address"]
    assert nginx_raw == raw, "one variable sets nginx's address and the trusted one"
    nginx = ipaddress.ip_address(_compose_default(nginx_raw))
    assert nginx in network

    (ipam,) = compose["networks"]["default"]["ipam"]["config"]
    subnet = ipaddress.ip_network(_compose_default(ipam["subnet"]))
    dynamic = ipaddress.ip_network(_compose_default(ipam["ip_range"]))
    assert nginx in subnet and dynamic.subnet_of(subnet)  # type: ignore[arg-type]
    assert nginx not in dynamic, "no other container can be given nginx's address"
    assert nginx not in (subnet.network_address + 1, subnet.broadcast_address), "not the gateway"
    for name in ("migrate", "web", "worker", "beat"):  # the app's containers, one anchor
        assert services[name]["environment"]["TRUSTED_PROXIES"] == raw


def test_compose_as_docker_compose_reads_it(tmp_path):
    env, env_file = _compose_env(tmp_path, **REQUIRED, NGINX_ADDRESS="172.31.250.20")
    result = _compose(["config"], env, env_file)
    assert result.returncode == 0, result.stderr
    services = yaml.safe_load(result.stdout)["services"]
    assert services["web"]["environment"]["TRUSTED_PROXIES"] == "172.31.250.20"
    assert services["nginx"]["networks"]["default"]["ipv4_address"] == "172.31.250.20"


def test_kubernetes_trusts_the_pod_network_and_only_the_ingress_reaches_web():
    config = _one("ConfigMap", "chatwidget-config")["data"]["TRUSTED_PROXIES"]
    assert config and not _covers_a_private_range(config), config

    web = _web_deployment()
    web_labels = web["spec"]["template"]["metadata"]["labels"]
    (container,) = _pod_spec(web)["containers"]
    port_names = {p["name"] for p in container["ports"]}
    policies = [
        p
        for p in _objects("NetworkPolicy")
        if _labels_match(p["spec"]["podSelector"]["matchLabels"], web_labels)
        and "Ingress" in p["spec"]["policyTypes"]  # the egress policy selects them too
    ]
    assert policies, "no NetworkPolicy isolates the web pods"
    for policy in policies:
        assert "Ingress" in policy["spec"]["policyTypes"]
        for rule in policy["spec"]["ingress"]:
            sources = rule.get("from") or []
            assert sources, "a rule without `from` admits every pod"
            for source in sources:
                assert "ipBlock" not in source or not _covers_a_private_range(
                    source["ipBlock"]["cidr"]
                )
                if "namespaceSelector" in source:
                    assert source["namespaceSelector"].get("matchLabels"), "not every namespace"
            assert {p["port"] for p in rule["ports"]} <= port_names


def test_bare_metal_trusts_loopback_only():
    environment = _unit("chatwidget-web@.service")["Service"]["Environment"]
    trusted = dict(item.split("=", 1) for item in environment.split())["TRUSTED_PROXIES"]
    assert all(net.is_loopback for net in _networks(trusted))


@pytest.mark.parametrize("path", ["README.md", ".env.example"])
def test_the_compose_variables_are_documented(path):
    text = (DEPLOY / path).read_text()
    for name in ("NGINX_ADDRESS", "COMPOSE_SUBNET", "COMPOSE_DYNAMIC_RANGE"):
        assert name in text, (path, name)
