"""How the speed harness (tests/benchmarks/run.py) tells what other work took of the machine while it ran."""

import pytest


@pytest.fixture
def harness(benchmark_script):
    return benchmark_script("run")


def test_busy_seconds_count_every_busy_column_of_the_first_stat_line_and_not_idle_or_iowait(harness):
    ticks = harness.os.sysconf("SC_CLK_TCK")
    line = f"cpu  {ticks} {ticks} {ticks} 900000 900000 {ticks} {ticks} {ticks} 0 0"
    assert harness.busy_seconds(line) == 6.0


def test_a_stat_line_that_cannot_be_read_gives_no_busy_seconds(harness):
    assert harness.busy_seconds("cpu 1 2") is None
    assert harness.busy_seconds("cpu a b c d e f g h") is None


def test_the_share_of_others_is_what_the_cores_were_busy_with_beyond_the_runs_own_cpu(harness):
    began = harness.Usage(wall=100.0, busy=1000.0, own=10.0)
    # 10 s on 2 cores: 12 busy seconds, 8 of them the runs' own, so others took 4 of 20
    assert began.others(2, harness.Usage(wall=110.0, busy=1012.0, own=18.0)) == pytest.approx(0.2)
    assert began.others(2, harness.Usage(wall=110.0, busy=1006.0, own=18.0)) == 0.0  # never below nothing
    assert began.others(2, harness.Usage(wall=110.0, busy=None, own=18.0)) is None


def test_the_header_says_wall_times_carry_noise_only_when_others_took_a_twentieth_or_more(harness):
    assert "carry noise" not in harness.shared(0.01)
    assert "Other processes took 1% of the cores' time the system saw" in harness.shared(0.01)
    assert "carry noise" in harness.shared(0.2)
    assert "Other processes took 20%" in harness.shared(0.2)
    assert "not measured" in harness.shared(None)
