"""A workaround for a Daphne 4.2 shutdown bug, applied when the ASGI app loads.

`Server.kill_all_applications` (Daphne's SIGTERM path) reads `details["application_instance"]`,
a key its `application_checker` deletes when an application finished shortly before its
connection was reaped. A SIGTERM in that window raised KeyError: no consumer was cancelled
and every socket was cut without a close frame, so clients could not tell a restart from a
failure. Remove once Daphne is fixed (tests/integration covers the SIGTERM path).
"""

import asyncio


def apply() -> None:
    """Replace `Server.kill_all_applications` with the same method, tolerant of entries
    whose application instance is already gone."""
    try:
        from daphne import server as daphne_server  # noqa: PLC0415 - optional: Daphne only
        from twisted.internet import defer  # noqa: PLC0415 - optional: Daphne only
    except ImportError:  # pragma: no cover - another ASGI server
        return

    def kill_all_applications(self):
        pending = []
        for details in self.connections.values():
            instance = details.get("application_instance")
            if instance is not None and not instance.done():
                instance.cancel()
                pending.append(instance)
        daphne_server.logger.info("Killed %i pending application instances", len(pending))
        waiting = defer.Deferred.fromFuture(asyncio.gather(*pending))
        waiting.addErrback(lambda _failure: None)
        return waiting

    daphne_server.Server.kill_all_applications = kill_all_applications
