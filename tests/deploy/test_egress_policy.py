"""The egress guard held at the network too (issue 31): a NetworkPolicy selects every pod of
the application (web, worker, beat, the migrate Job) and lets them reach DNS, the database,
the pooler and Redis on private addresses, and the outside world, but no private, link-local
(cloud metadata), carrier-grade NAT or loopback address on any other port."""

import ipaddress

from tests.deploy.test_manifests import _labels_match, _objects, _workloads

METADATA = ipaddress.ip_address("169.254.169.254")
INWARD = [
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "127.0.0.0/8")
]
STORE_PORTS = {5432, 6432, 6379}


def _egress_policies() -> list[dict]:
    return [p for p in _objects("NetworkPolicy") if "Egress" in p["spec"].get("policyTypes", [])]


def _reaches(rule: dict, address) -> bool:
    """Whether an egress rule's peers include the address (no `to`: every address)."""
    peers = rule.get("to")
    if not peers:
        return True
    for peer in peers:
        block = peer.get("ipBlock")
        if block is None:
            continue  # pod and namespace selectors: in-cluster pods, not an address block
        if address in ipaddress.ip_network(block["cidr"]) and not any(
            address in ipaddress.ip_network(e) for e in block.get("except", [])
        ):
            return True
    return False


def _ports(rule: dict) -> set[int] | None:
    """The rule's ports; None when it allows every port."""
    if not rule.get("ports"):
        return None
    return {int(p["port"]) for p in rule["ports"]}


def test_every_pod_of_the_application_is_held_to_an_egress_policy():
    policies = _egress_policies()
    assert policies, "no NetworkPolicy limits where the pods may connect"
    for workload in _workloads():
        labels = workload["spec"]["template"]["metadata"]["labels"]
        assert any(
            _labels_match(p["spec"]["podSelector"]["matchLabels"], labels) for p in policies
        ), workload["metadata"]["name"]


def test_cloud_metadata_is_reachable_by_no_rule():
    for policy in _egress_policies():
        for rule in policy["spec"]["egress"]:
            if rule.get("to") is None and _ports(rule) == {53}:
                continue  # DNS only
            assert not _reaches(rule, METADATA), rule


def test_private_addresses_only_for_the_database_and_redis_and_the_world_beyond():
    rules = [r for p in _egress_policies() for r in p["spec"]["egress"]]
    assert any(_ports(r) == {53} for r in rules), "DNS"
    for rule in rules:
        if _ports(rule) == {53}:
            continue
        inward = any(_reaches(rule, net[1]) for net in INWARD)
        if inward:
            assert _ports(rule) is not None and _ports(rule) <= STORE_PORTS, rule
    world = ipaddress.ip_address("203.0.113.10")  # TEST-NET-3: an address "outside"
    assert any(_reaches(r, world) and _ports(r) is None for r in rules), "the outside world"
    assert any(_reaches(r, ipaddress.ip_address("10.1.2.3")) for r in rules), "the database"
