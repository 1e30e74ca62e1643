"""`_core.formats.minute_of_day`: each build's reading of `HH:MM`, and that the two agree.

The pure-Python build looks the text up in `_MINUTES_OF_DAY`, the table of the 1,440 spellings;
the compiled build reads the five characters in place (`_minute_of_day_read`): each is the
faster on its build (D-time-format). Both exist in both builds, and here they are compared, on
whichever build runs the suite, on every text of five characters over the ones that matter.
"""

from __future__ import annotations

import itertools

import pytest

from campaign_rules._core.formats import _MINUTES_OF_DAY, _minute_of_day_read, minute_of_day

# The ASCII digits, the colon, their neighbours in ASCII ("/" just before "0", ";" just after
# ":"), a space, and two digits that `str.isdigit` takes but D-time-format does not: an
# Arabic-Indic three (a text of two bytes a character) and a mathematical bold nine (four).
CHARACTERS = "0123456789:/; ٣𝟗"
# Texts of other lengths, the cases of the spec and a long one.
OTHER_TEXTS = ["", "9:00", "09:0", "0900", "09:000", "09:00:00", " 09:00", "09:00 ", "0" * 10_000]


def test_the_two_readings_agree_on_every_text_of_five_characters_that_matter() -> None:
    texts = list(map("".join, itertools.product(CHARACTERS, repeat=5)))
    assert len(texts) == 16**5
    disagreements = [
        text for text in texts if _minute_of_day_read(text) != _MINUTES_OF_DAY.get(text, -1)
    ]
    assert disagreements == []
    assert [minute_of_day(text) for text in texts] == [_minute_of_day_read(text) for text in texts]


@pytest.mark.parametrize("text", OTHER_TEXTS)
def test_no_text_of_another_length_is_a_time(text: str) -> None:
    assert text not in _MINUTES_OF_DAY
    assert _minute_of_day_read(text) == minute_of_day(text) == -1


def test_each_time_of_day_is_its_minute_in_both_readings() -> None:
    assert len(_MINUTES_OF_DAY) == 24 * 60
    for minute in range(24 * 60):
        text = f"{minute // 60:02d}:{minute % 60:02d}"
        assert _minute_of_day_read(text) == _MINUTES_OF_DAY[text] == minute_of_day(text) == minute


@pytest.mark.parametrize("text", ["24:00", "23:60", "99:99", "-1:00", "+9:00", "٠٩:٠٠", "09:5٣"])
def test_what_d_time_format_refuses_is_refused_by_both(text: str) -> None:
    assert text not in _MINUTES_OF_DAY
    assert _minute_of_day_read(text) == minute_of_day(text) == -1
