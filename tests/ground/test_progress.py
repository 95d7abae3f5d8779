"""The time left is shown only once it means something (issue 51, point 4): a build's first file
of ten said "ETA 22:39" and the build was done 17 s later. Nothing here is timed: the bars' clock
is a list the test sets."""
from __future__ import annotations

import pytest

from seamcut.ground.progress import MIN_DONE, Pace, Steps, Throughput


def test_the_rule_waits_for_three_items_and_times_them_from_the_first():
    pace = Pace()
    assert MIN_DONE == 3
    pace.ended(150.0, 1)  # the first item: 150 s of start-up (workers, the model) and its work
    assert pace.left(150.0, 1, 10) is None
    pace.ended(152.0, 2)
    assert pace.left(152.0, 2, 10) is None
    pace.ended(154.0, 3)  # two items in the 4 s after the first: 2 s each, 7 left
    assert pace.left(154.0, 3, 10) == pytest.approx(14.0)
    assert pace.left(160.0, 3, 10) == pytest.approx(35.0)  # nothing ended since: slower
    assert Pace().left(0.0, 0, 10) is None


def test_a_builds_first_file_says_no_time_left():
    # ten files of 100 bytes; the first ends 151 s in (the start-up), the next two 2 s apart
    now = [0.0]
    bar = Throughput(10, 1000, show=False)
    bar.started, bar._clock = 0.0, lambda: now[0]
    now[0] = 151.0
    bar.advance(100, pages=1, tokens=200)
    assert bar.eta() is None and "ETA ?" in bar.rates()  # was "ETA 22:39"
    for now[0] in (153.0, 155.0):
        bar.advance(100, pages=1, tokens=200)
    assert bar.eta() == pytest.approx(14.0)  # 7 files at 2 s
    assert "ETA 0:14" in bar.rates()


def test_failed_files_count_and_unchanged_ones_do_not():
    now = [0.0]
    bar = Throughput(6, 600, show=False)
    bar.started, bar._clock = 0.0, lambda: now[0]
    for now[0] in (1.0, 1.0, 1.0):
        bar.advance(100, unchanged=True)  # already indexed: no work, no item of the rule
    assert bar.eta() is None
    for now[0], failed in ((5.0, False), (6.0, True), (7.0, False)):
        bar.advance(100, failed=failed)
    assert bar.eta() == 0.0  # every byte done


def test_steps_show_the_time_left_by_the_same_rule(capsys):
    now = [0.0]
    bar = Steps(10, "round 1", show=False)
    bar.started, bar._clock = 0.0, lambda: now[0]
    now[0] = 60.0
    bar.advance()
    bar.log()
    assert bar.left() is None and "ETA" not in capsys.readouterr().err
    for now[0] in (61.0, 62.0):
        bar.advance()
    bar.log()
    assert bar.left() == pytest.approx(7.0)
    assert capsys.readouterr().err.strip() == "round 1: 3/10, 1:02 elapsed, ETA 0:07"
