"""Fixtures of the egress tests: a stubbed network and an HTTP server on 127.0.0.1."""

from tests.egress_stubs import egress_net, http_server  # noqa: F401
