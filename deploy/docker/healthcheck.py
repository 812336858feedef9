"""Container health check: GET /healthz on the local Daphne, exit 0 when it answers 200.

Used by the image's HEALTHCHECK (the slim base has no curl). Standard library only.

/healthz is answered by the first middleware (chatwidget/health.py), before Django checks
the Host header against ALLOWED_HOSTS and before the https redirect, so the request needs
no configured host name and no X-Forwarded-Proto.

Environment: HEALTHCHECK_PORT (default 8000), HEALTHCHECK_PATH (default /healthz),
HEALTHCHECK_TIMEOUT seconds (default 4).
"""

from __future__ import annotations

import http.client
import os
import sys


def main() -> int:
    port = int(os.environ.get("HEALTHCHECK_PORT", "8000"))
    path = os.environ.get("HEALTHCHECK_PATH", "/healthz")
    timeout = float(os.environ.get("HEALTHCHECK_TIMEOUT", "4"))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"User-Agent": "healthcheck"})
        status = connection.getresponse().status
    except OSError as exc:
        print(f"healthcheck: {path} unreachable on port {port}: {exc}", file=sys.stderr)
        return 1
    finally:
        connection.close()
    if status != 200:
        print(f"healthcheck: {path} answered {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
