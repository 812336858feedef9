"""The bench's one-process-against-two figure puts the floor's own ratio beside the
product's (issue 30): on a 2-core machine shared with the database, Redis, the fake model and
the load client, a second process cannot add what it would on a machine of its own."""

from tests.bench import floor


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
