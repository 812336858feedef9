"""One Django process for an e2e stack's set-up steps (`python tests/e2e/manage_server.py`, the
stack's environment): each request, a line of JSON on stdin, is a `manage.py` command
(`{"args": [...]}`) or a `manage.py shell -c` snippet (`{"code": "..."}`); each answer, a line
of JSON on stdout, is what it printed and the traceback if it failed. Django starts once per
stack instead of once per step (tests.e2e.conftest.Manage)."""

import contextlib
import io
import json
import sys
import traceback


def main() -> None:
    answers = sys.stdout
    sys.stdout = sys.stderr  # whatever else prints (logging, warnings) stays off the answers
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    for line in sys.stdin:
        request = json.loads(line)
        printed = io.StringIO()
        error = None
        try:
            with contextlib.redirect_stdout(printed):
                if "code" in request:
                    exec(request["code"], {"__name__": "__main__"})
                else:
                    call_command(*request["args"], stdout=printed)
        except BaseException:
            error = traceback.format_exc()
        finally:
            connections.close_all()  # the servers share the SQLite file: hold nothing open
        answers.write(json.dumps({"out": printed.getvalue(), "error": error}) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
