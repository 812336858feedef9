"""The bench's report (issue 30): the one-process-against-two figure puts the floor's own
ratio beside the product's (on a 2-core machine shared with the database, Redis, the fake
model and the load client, a second process cannot add what it would on a machine of its
own), and the CPU profile splits the GIL holder's samples by thread and category."""

from tests.bench import cpuprofile, floor


def _capacity(largest: int) -> dict:
    row = {
        "conversations": largest,
        "overhead_p50": 10.0,
        "overhead_p99": 40.0,
        "cpu_ms_per_msg": 25.0,
        "server_cpu_pct": 50.0,
        "errors": {},
    }
    return {"largest_ok": largest, "runs": [row]}


def _two(one: int, two: int) -> dict:
    return {"one": _capacity(one), "two": _capacity(two), "ratio": round(two / one, 2)}


def test_the_targets_table_shows_the_floors_ratio_beside_the_products():
    rows = floor.targets({"two": _two(87, 100), "two_floor": _two(125, 150)})
    row = next(r for r in rows if r.startswith("| two processes"))
    assert "150 / 125 = ×1.2" in row
    assert "100 / 87" in row


def test_section_nine_lists_both_servers_and_reads_without_the_floor():
    text = "\n".join(floor.markdown({"two": _two(87, 100), "two_floor": _two(125, 150)}))
    assert "The floor on the same machine: one process **125**, two **150**" in text
    assert "| floor | 2 | 150 |" in text
    assert "| product | 1 | 87 |" in text
    older = "\n".join(floor.markdown({"two": _two(87, 100)}))  # a run from before
    assert "| product | 2 | 100 |" in older
    assert "The floor on the same machine" not in older


def test_the_profile_splits_the_gils_samples_by_thread_and_category(tmp_path):
    raw = tmp_path / "profile.txt"
    raw.write_text(
        "thread (1): MainThread;run (daphne/server.py:1);stream (httpx2/_client.py:1) 6\n"
        "thread (1): MainThread;run (daphne/server.py:1);model_stream (bench/floor_app.py:5) 2\n"
        "thread (7): db_0;run (threading.py:1);execute (psycopg/cursor.py:1) 2\n"
        "thread (1): MainThread;run_forever (asyncio/base_events.py:1);select (selectors.py:468) 9\n"
    )
    split = cpuprofile.breakdown(raw)
    assert split["samples"] == 10  # the selector's wait is not work
    assert split["threads"] == {"event loop thread": 0.8, "other threads": 0.2}
    assert split["shares"] == {
        "stream reading (httpx, httpcore, anyio, SSE) (loop)": 0.6,
        "our code (chatwidget, memory, handover) (loop)": 0.2,  # py-spy's short path
        "ORM and psycopg (threads)": 0.2,
    }
