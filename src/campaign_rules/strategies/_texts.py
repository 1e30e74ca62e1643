"""Text: pools built once from a fixed seed, names, ids, and the texts of free members."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from campaign_rules._core.limits import NAME_MAX_LENGTH, WHITESPACE
from campaign_rules.strategies._tables import SAMPLE_AGENT_IDS, SAMPLE_INTEGRATION_IDS

# Each module that builds pools has its own seeded generator, so no pool depends on which
# module is imported first.
_rng = random.Random(20260601)
_ALL_BUT_SURROGATES = [(0x0000, 0xD7FF), (0xE000, 0x10FFFF)]
_ACCENTS_AND_EMOJI = "éñüçøåßœÆÉÑ漢字ひらがなالعربيةעבריתЖжΩ🚀😀🍂🎉👍🏽✅€"


def _random_char(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.4:
        return rng.choice(_ACCENTS_AND_EMOJI)
    if kind < 0.6:
        return chr(rng.randrange(0x20, 0x7F))
    low, high = rng.choice(_ALL_BUT_SURROGATES)
    return chr(rng.randint(low, high))


def random_text(rng: random.Random, size: int) -> str:
    """`size` characters from `rng`: accents and emoji, ASCII, or any plane but surrogates."""
    return "".join(_random_char(rng) for _ in range(size))


_FIXED_TEXTS = (
    "",
    " ",
    "Hola 👋, soy Ana de Acme",
    "Bonjour, c'est Zoé",
    "order_update",
    "order_update_v2",
    "tab\tnew\nline",
    "\x00",
    "\u200b",
    "\x85",
    "e\u0301",
    "👨\u200d👩\u200d👧\u200d👦",
    "'\"\\/</script>{{first_name}}",
    "😀" * 50,
    "a" * 1000,
)
TEXTS = _FIXED_TEXTS + tuple(random_text(_rng, _rng.randint(1, 40)) for _ in range(40))
_NON_EMPTY_TEXTS = tuple(text for text in TEXTS if text)


def _is_visible(char: str) -> bool:
    return char not in WHITESPACE


def _long_name(rng: random.Random, size: int) -> str:
    # Mostly white space around a few visible characters: long, and only just not blank.
    chars = [rng.choice(WHITESPACE + _ACCENTS_AND_EMOJI) for _ in range(size)]
    chars[rng.randrange(size)] = rng.choice(_ACCENTS_AND_EMOJI)
    return "".join(chars)


NAME_POOL = (
    "Campaña de otoño 🍂",
    "Relance clients — été",
    "Überprüfung der Verträge",
    "顧客フォローアップ",
    "🎉🎉🎉",
    "👨\u200d👩\u200d👧\u200d👦 family plan",
    "e\u0301te\u0301",
    " padded name ",
    "x",
    "\x85",  # NEL is not in ECMAScript's \s (D-blank-name)
    "\u200b",  # nor is ZERO WIDTH SPACE
    "\u180e",  # nor, since Unicode 6.3, MONGOLIAN VOWEL SEPARATOR
    "🚀" * NAME_MAX_LENGTH,
    # At the length limit, and only just not blank.
    " " * (NAME_MAX_LENGTH // 2) + "é" + " " * (NAME_MAX_LENGTH // 2),
    "\u3000" * (NAME_MAX_LENGTH - 1) + "名",
    "é" * NAME_MAX_LENGTH,
    "e\u0301" * (NAME_MAX_LENGTH // 2) + "!",
    *(
        _long_name(_rng, size) if size > 200 else random_text(_rng, size)
        for size in [
            _rng.choice((1, 2, 5, 20, 64, 200, 250, NAME_MAX_LENGTH - 1, NAME_MAX_LENGTH))
            for _ in range(40)
        ]
    ),
)
assert all(0 < len(name) <= NAME_MAX_LENGTH and any(map(_is_visible, name)) for name in NAME_POOL)

_NAME_CHARS = st.characters(exclude_categories=["Cs"])
_VISIBLE = st.characters(exclude_categories=["Cs"], exclude_characters=WHITESPACE)


def _insert(text: str, char: str, at: int) -> str:
    at %= len(text) + 1
    return text[:at] + char + text[at:]


# A valid `name`: 1 to 255 code points, at least one of them not white space (D-blank-name).
names = st.one_of(
    st.sampled_from(NAME_POOL),
    st.builds(
        _insert,
        st.text(st.one_of(_NAME_CHARS, st.sampled_from(WHITESPACE)), max_size=10),
        _VISIBLE,
        st.integers(0, 10),
    ),
)
# Any string, for the members that take any (D-channel-fields).
texts = st.one_of(st.sampled_from(TEXTS), st.text(_NAME_CHARS, max_size=6))
non_empty_texts = st.one_of(
    st.sampled_from(_NON_EMPTY_TEXTS), st.text(_NAME_CHARS, min_size=1, max_size=6)
)


def mixed_case(text: str) -> str:
    """`text` with every other character in upper case (a UUID in mixed case, D-agent-id)."""
    return "".join(char.upper() if index % 2 else char for index, char in enumerate(text))


uuid4_texts = st.uuids(version=4).map(str)
agent_ids = st.one_of(
    st.sampled_from((*SAMPLE_AGENT_IDS, SAMPLE_AGENT_IDS[0].upper())),
    st.builds(
        lambda text, case: case(text),
        uuid4_texts,
        st.sampled_from((str.lower, str.upper, mixed_case)),
    ),
)


def integration_ids(channel: str) -> st.SearchStrategy[str]:
    """A valid `integration_id` for `channel`: its sample id, or any non-empty text."""
    known = SAMPLE_INTEGRATION_IDS[channel]
    return st.one_of(st.just(known), non_empty_texts)
