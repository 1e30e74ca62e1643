"""`_core.formats.minute_of_day`, the one reading of `HH:MM` (D-time-format), against an oracle.

Both builds look the text up in `_MINUTES_OF_DAY`, the table of the 1,440 spellings (issue 38:
no format reads which build runs). The table is compared here, on whichever build runs the
suite, with a reading written another way (a regular expression over ASCII digits and
`int`), on every text of five characters over the ones that matter.
"""

from __future__ import annotations

import itertools
import re

import pytest

from campaign_rules._core.formats import _MINUTES_OF_DAY, minute_of_day, parse_time

# The ASCII digits, the colon, their neighbours in ASCII ("/" just before "0", ";" just after
# ":"), a space, and two digits that `str.isdigit` takes but D-time-format does not: an
# Arabic-Indic three (a text of two bytes a character) and a mathematical bold nine (four).
CHARACTERS = "0123456789:/; ٣𝟗"
# Texts of other lengths, the cases of the spec and a long one.
OTHER_TEXTS = ["", "9:00", "09:0", "0900", "09:000", "09:00:00", " 09:00", "09:00 ", "0" * 10_000]
# The oracle: `[0-9]` is the ten ASCII digits only, as a range of code points.
HH_MM = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


def oracle(text: str) -> int:
    """The minute of the day D-time-format gives `text`, read by pattern; -1 for none."""
    match = HH_MM.fullmatch(text)
    return -1 if match is None else int(match[1]) * 60 + int(match[2])


def test_the_reading_agrees_with_the_oracle_on_every_text_of_five_characters_that_matter() -> None:
    texts = list(map("".join, itertools.product(CHARACTERS, repeat=5)))
    assert len(texts) == 16**5
    assert [text for text in texts if minute_of_day(text) != oracle(text)] == []
    assert sum(minute_of_day(text) >= 0 for text in texts) == 24 * 60


@pytest.mark.parametrize("text", OTHER_TEXTS)
def test_no_text_of_another_length_is_a_time(text: str) -> None:
    assert text not in _MINUTES_OF_DAY
    assert minute_of_day(text) == oracle(text) == -1
    assert parse_time(text) is None


def test_each_time_of_day_is_its_minute() -> None:
    assert len(_MINUTES_OF_DAY) == 24 * 60
    for minute in range(24 * 60):
        text = f"{minute // 60:02d}:{minute % 60:02d}"
        assert minute_of_day(text) == oracle(text) == minute
        time = parse_time(text)
        assert time is not None
        assert (time.hour, time.minute) == divmod(minute, 60)


@pytest.mark.parametrize("text", ["24:00", "23:60", "99:99", "-1:00", "+9:00", "٠٩:٠٠", "09:5٣"])
def test_what_d_time_format_refuses_is_refused(text: str) -> None:
    assert text not in _MINUTES_OF_DAY
    assert minute_of_day(text) == oracle(text) == -1
