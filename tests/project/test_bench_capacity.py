"""The side-by-side capacity (issue 30, tests/bench/capacity_grid.py): product and floor take
turns on one grid of levels, a level's p99 is the median of its runs' (one run that meets a
stall of the machine does not decide it), and a server's capacity is where its p99 crosses
the line between its last passing and first failing level."""

from tests.bench import capacity_grid, floor


def _row(p99: float, *, n: int = 400, timeout: int = 0, tail_share: float = 0.02) -> dict:
    # n samples: all at 10 ms but the top 2% at p99 (np.percentile's 99th reads it)
    tail = max(1, int(n * tail_share))
    return {
        "overhead_ms": [10.0] * (n - tail) + [p99] * tail,
        "overhead_p99": p99,
        "samples": n,
        "connect_failed": 0,
        "errors": {"timeout": timeout} if timeout else {},
        "cpu_ms_per_msg": 25.0,
        "server_cpu_pct": 50.0,
    }


def test_the_grid_steps_by_a_fifth_rounded_to_five_and_never_repeats():
    assert list(capacity_grid.grid_levels(50, 200)) == [60, 70, 85, 100, 120, 145, 175]
    assert list(capacity_grid.grid_levels(10, 40)) == [15, 20, 25, 30, 35, 40]


def test_one_run_that_meets_a_stall_does_not_decide_the_level():
    level = capacity_grid.level_of(100, [_row(30.0), _row(550.0, tail_share=0.05), _row(35.0)])
    assert level["overhead_p99"] == 35.0, "the median of the runs' p99s"
    assert level["run_p99s"] == [30.0, 550.0, 35.0]
    assert level["samples"] == 1200
    assert level["pooled_p99"] > 50.0, "pooled, the stalled run's tail would have failed it"
    assert capacity_grid.passes(level, 50.0)
    assert level["clean"]
    assert not capacity_grid.level_of(100, [_row(30.0), _row(30.0, timeout=1)])["clean"]


def _level(n: int, p99: float, clean: bool = True) -> dict:
    return {"conversations": n, "overhead_p99": p99, "clean": clean}


def test_the_capacity_is_where_the_p99_crosses_the_line():
    found = capacity_grid.crossing([_level(50, 20.0), _level(60, 40.0), _level(70, 60.0)], 50.0)
    assert (found["largest_ok"], found["first_failing"], found["crossing"]) == (60, 70, 65.0)
    # a level that failed by a timeout, not its p99: the last passing level, no interpolation
    found = capacity_grid.crossing([_level(50, 20.0), _level(60, 30.0, clean=False)], 50.0)
    assert found["crossing"] == 50
    # nothing failed up to the grid's top: the top
    assert capacity_grid.crossing([_level(50, 20.0), _level(60, 30.0)], 50.0)["crossing"] == 60
    assert capacity_grid.crossing([_level(50, 80.0)], 50.0)["crossing"] == 0


def test_product_and_floor_take_turns_and_each_stops_at_its_first_failure():
    calls = []
    p99_at = {"product": {60: 30.0, 70: 70.0}, "floor": {60: 20.0, 70: 30.0, 85: 45.0, 100: 90.0}}

    def run(name: str, n: int) -> dict:
        calls.append((name, n))
        return _row(p99_at[name][n])

    start = {name: capacity_grid.level_of(50, [_row(15.0)]) for name in ("product", "floor")}
    cap = capacity_grid.capacity_grid(
        run, names=("product", "floor"), limit_ms=50.0, start=start, top=200, rounds=2
    )
    assert calls[:4] == [("product", 60), ("floor", 60), ("product", 60), ("floor", 60)]
    assert ("product", 85) not in calls  # failed at 70
    assert calls[-1] == ("floor", 100)
    assert (cap["product"]["largest_ok"], cap["product"]["first_failing"]) == (60, 70)
    assert (cap["floor"]["largest_ok"], cap["floor"]["first_failing"]) == (85, 100)
    assert 60 < cap["product"]["crossing"] < 70
    assert 85 < cap["floor"]["crossing"] < 100


def test_the_targets_table_divides_the_crossings_and_shows_the_grid():
    cap = {
        "product": {
            "largest_ok": 85,
            "first_failing": 100,
            "crossing": 90.0,
            "p99_limit_ms": 50.0,
            "levels": [
                {
                    "conversations": 85,
                    "runs": 2,
                    "samples": 600,
                    "overhead_p50": 9.0,
                    "overhead_p95": 20.0,
                    "overhead_p99": 41.0,
                    "pooled_p99": 40.0,
                    "run_p99s": [38.0, 44.0],
                    "cpu_ms_per_msg": 25.0,
                    "clean": True,
                }
            ],
        },
        "floor": {
            "largest_ok": 100,
            "first_failing": 120,
            "crossing": 110.0,
            "p99_limit_ms": 50.0,
            "levels": [],
        },
    }
    rows = floor.targets({"side_capacity": cap})
    row = next(r for r in rows if r.startswith("| capacity"))
    assert "0.82" in row and "90.0 (grid: 85 passes, 100 fails)" in row
    text = "\n".join(floor.markdown({"side_capacity": cap}))
    assert (
        "| product | 85 | 2 | 600 | 9.0 | 20.0 | 40.0 | 38.0 / 44.0 | 41.0 | 25.0 | yes |" in text
    )
    assert "- floor: line crossed at 110.0 conversations" in text
    # a run from before the grid: the bisection's level alone
    old = {k: {"largest_ok": v, "p99_limit_ms": 50.0} for k, v in (("product", 87), ("floor", 110))}
    row = next(r for r in floor.targets({"side_capacity": old}) if r.startswith("| capacity"))
    assert "| 110 | 87 | 0.79 |" in row
