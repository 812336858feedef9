"""A push service stand-in on 127.0.0.1 (issue 32): it takes Web Push requests as FCM or
Mozilla's autopush would, checks the VAPID signature (RFC 8292: a JWT signed ES256 with the
server's key, its audience this stand-in's origin) and keeps what it received, so a test can
decrypt the payload with the subscription's private key (RFC 8291, aes128gcm). A path may be
told to answer 404 or 410 (a browser that unsubscribed)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url_decode(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    vapid_ok: bool
    claims: dict
    vapid_key: str


def vapid_check(authorization: str, *, audience: str) -> tuple[bool, dict, str]:
    """(signature valid for `audience`, the claims, the public key it names)."""
    scheme, _sep, params = authorization.partition(" ")
    if scheme.lower() != "vapid":
        return False, {}, ""
    parts = dict(p.split("=", 1) for p in params.split(","))
    token, key = parts.get("t", ""), parts.get("k", "")
    header_b64, payload_b64, signature_b64 = token.split(".")
    header = json.loads(b64url_decode(header_b64))
    claims = json.loads(b64url_decode(payload_b64))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
    signature = b64url_decode(signature_b64)
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    try:
        public.verify(der, f"{header_b64}.{payload_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return False, claims, key
    ok = (
        header.get("alg") == "ES256"
        and claims.get("aud") == audience
        and time.time() < int(claims.get("exp", 0)) <= time.time() + 24 * 3600
    )
    return ok, claims, key


@dataclass
class PushService:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # path -> status

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"


def push_service_start() -> PushService:
    service: PushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            ok, claims, key = vapid_check(
                self.headers.get("Authorization", ""), audience=service.origin
            )
            service.received.append(
                Received(
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    body,
                    ok,
                    claims,
                    key,
                )
            )
            status = service.answers.get(self.path, 201 if ok else 401)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service = PushService(server)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    return service


@dataclass
class Browser:
    """A browser's side of a subscription: its ECDH key pair and auth secret."""

    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @classmethod
    def new(cls) -> Browser:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                Encoding.X962, PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth_b64(self) -> str:
        return b64url(self.auth)

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)
