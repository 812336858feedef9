"""The model request starts while the visitor's turn commits (issue 30).

The answer's context is built inside the turn's transaction and its model request started
from there; the ack follows the commit and no delta precedes the ack. Shown with PostgreSQL
holding the commit (a deferred constraint trigger, which runs at COMMIT): the model is asked
while the turn is not yet visible to anyone else; and when the commit fails, the visitor
gets `unavailable` with the message's id and not one delta, and asking again is answered
once."""

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.db import connection

from chatwidget.platform import cache_keys
from memory.models import Turn
from tests.fakellm import Reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

QUESTION = "Where is my parcel?"


class SlowCommit:
    """At COMMIT, a transaction that inserted a visitor turn sleeps `seconds` and, while
    `refuse` is set, fails (a deferred constraint trigger on memory_turn)."""

    SETUP = [
        "CREATE TABLE test_commit (seconds float NOT NULL, refuse boolean NOT NULL)",
        "INSERT INTO test_commit VALUES (0, false)",
        """CREATE FUNCTION test_commit_turn() RETURNS trigger AS $$
        BEGIN
            IF NEW.role = 'visitor' THEN
                PERFORM pg_sleep((SELECT seconds FROM test_commit));
                IF (SELECT refuse FROM test_commit) THEN
                    RAISE EXCEPTION 'could not commit' USING ERRCODE = '40001';
                END IF;
            END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql""",
        "CREATE CONSTRAINT TRIGGER test_commit AFTER INSERT ON memory_turn"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_commit_turn()",
    ]
    TEARDOWN = [
        "DROP TRIGGER IF EXISTS test_commit ON memory_turn",
        "DROP FUNCTION IF EXISTS test_commit_turn()",
        "DROP TABLE IF EXISTS test_commit",
    ]

    @staticmethod
    def run(*statements: str) -> None:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)

    async def set(self, *, seconds: float = 0.0, refuse: bool = False) -> None:
        await database_sync_to_async(self.run)(
            f"UPDATE test_commit SET seconds = {float(seconds)}, refuse = {bool(refuse)}"
        )


@pytest.fixture
def slow_commit(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("a commit held by the database needs PostgreSQL (TEST_DATABASE_URL)")
    SlowCommit.run(*SlowCommit.TEARDOWN, *SlowCommit.SETUP)
    yield SlowCommit()
    SlowCommit.run(*SlowCommit.TEARDOWN)


def dsn() -> str:
    s = connection.settings_dict
    return psycopg.conninfo.make_conninfo(
        dbname=s["NAME"],
        user=s.get("USER") or "",
        password=s.get("PASSWORD") or "",
        host=s.get("HOST") or "127.0.0.1",
        port=str(s.get("PORT") or 5432),
    )


async def test_the_model_is_asked_while_the_turn_commits(site, connect, fake_llm, slow_commit):
    seen: list[int] = []
    conninfo = dsn()

    def answer(body):  # in the fake model's thread, when the request arrives
        with psycopg.connect(conninfo, autocommit=True) as other:
            seen.append(
                other.execute(
                    "SELECT count(*) FROM memory_turn WHERE text = %s", [QUESTION]
                ).fetchone()[0]
            )
        return Reply("Tomorrow.", first_token_ms=50)

    fake_llm.default = answer
    c = await connect(site.key)
    await c.hello()
    await slow_commit.set(seconds=1.0)  # the commit takes a second
    await c.send({"type": "message", "id": "m1", "text": QUESTION})
    frames = []
    while True:
        frame = await c.recv(timeout=15)
        frames.append(frame)
        if frame["type"] == "message" and frame.get("role") == "assistant":
            break
    assert seen == [0], "the model was asked before the turn was committed"
    kinds = [f["type"] for f in frames]
    assert kinds.index("ack") < kinds.index("delta"), "no delta before the ack"
    assert frames[-1]["text"] == "Tomorrow."


async def test_a_turn_whose_commit_fails_streams_nothing_and_is_answered_when_asked_again(
    site, connect, fake_llm, slow_commit
):
    fake_llm.default = lambda body: Reply("Tomorrow.", first_token_ms=20)
    c = await connect(site.key)
    await c.hello()
    await c.say("Hello", "m0")
    await c.answer()
    await slow_commit.set(seconds=0.3, refuse=True)
    await c.send({"type": "message", "id": "m1", "text": QUESTION})
    error, frames = await c.recv_until("error", timeout=20)
    assert error["code"] == "unavailable" and error["id"] == "m1"
    assert not [f for f in frames if f["type"] in ("ack", "delta", "message")], frames
    assert not await database_sync_to_async(Turn.objects.filter(text=QUESTION).exists)(), (
        "rolled back"
    )
    conv_id, next_seq = await database_sync_to_async(
        lambda: Turn.objects.values_list("conversation_id", "seq").order_by("-seq").first()
    )()
    lease = cache.get(cache_keys.answer_lease(conv_id, next_seq + 1))
    assert lease is None, "the answer made ready for the lost turn let go of its lease"
    await slow_commit.set()
    await c.send({"type": "message", "id": "m1", "text": QUESTION})  # the widget asks again
    await c.recv_until("ack", id="m1")
    final, _ = await c.answer(timeout=15)
    assert final["text"] == "Tomorrow."
    texts = await database_sync_to_async(
        lambda: list(Turn.objects.filter(role="assistant").values_list("text", flat=True))
    )()
    assert texts == ["Tomorrow.", "Tomorrow."], "the first answer, then one for m1"
