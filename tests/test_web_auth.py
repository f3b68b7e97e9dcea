"""Who opens the web table (issue 27 "How it is opened"): Telegram's signed launch data
and our signed one-use links and sessions; forged, altered, expired data is refused
with a stable code."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest
from web_support import BOT_TOKEN, telegram_init_data

from adapters.web.auth import (
    INIT_MAX_AGE_S,
    Person,
    Refused,
    link_token,
    read_link,
    read_session,
    session_token,
    telegram_launch,
)

NOW = 1_800_000_000
SECRET = b"s" * 32


def code_of(fn: object, *args: object, **kw: object) -> str:
    with pytest.raises(Refused) as err:
        fn(*args, **kw)  # type: ignore[operator]
    return err.value.code


def test_telegram_launch_data_signed_with_the_bot_token_names_the_person_and_game() -> None:
    data = telegram_init_data(42, NOW - 10, "abcd1234", first_name="Ana")
    person = telegram_launch(data, BOT_TOKEN, NOW)
    assert person == Person("tg", "42", "Ana", "abcd1234", "pt-br")


def test_the_game_comes_from_the_signed_start_param_before_the_page_address() -> None:
    data = telegram_init_data(42, NOW, "abcd1234")
    assert telegram_launch(data, BOT_TOKEN, NOW, game="zzzz9999").game == "abcd1234"
    plain = telegram_init_data(42, NOW)  # the private hand's web_app button: no start_param
    assert telegram_launch(plain, BOT_TOKEN, NOW, game="zzzz9999").game == "zzzz9999"
    assert code_of(telegram_launch, plain, BOT_TOKEN, NOW) == "bad_request"


def test_launch_data_signed_with_another_token_is_forged() -> None:
    data = telegram_init_data(42, NOW, "abcd1234", token="999:other")
    assert code_of(telegram_launch, data, BOT_TOKEN, NOW) == "forged"


def test_altered_launch_data_is_forged() -> None:
    fields = dict(parse_qsl(telegram_init_data(42, NOW, "abcd1234")))
    for key, value in (("start_param", "zzzz9999"), ("auth_date", str(NOW + 5)),
                       ("user", fields["user"].replace("42", "43"))):
        altered = urlencode({**fields, key: value})
        assert code_of(telegram_launch, altered, BOT_TOKEN, NOW) == "forged", key
    no_hash = urlencode({k: v for k, v in fields.items() if k != "hash"})
    assert code_of(telegram_launch, no_hash, BOT_TOKEN, NOW) == "forged"


def test_old_or_future_launch_data_is_expired_even_when_replayed_unchanged() -> None:
    data = telegram_init_data(42, NOW, "abcd1234")
    assert telegram_launch(data, BOT_TOKEN, NOW + INIT_MAX_AGE_S).user_id == "42"
    assert code_of(telegram_launch, data, BOT_TOKEN, NOW + INIT_MAX_AGE_S + 1) == "expired"
    ahead = telegram_init_data(42, NOW + 3600, "abcd1234")
    assert code_of(telegram_launch, ahead, BOT_TOKEN, NOW) == "expired"


@pytest.mark.parametrize("data", ["", "x" * 5000, "%%%", "hash=abc&&"])
def test_garbage_launch_data_is_a_bad_request(data: str) -> None:
    assert code_of(telegram_launch, data, BOT_TOKEN, NOW) in ("bad_request", "forged")


def test_a_link_token_names_platform_person_and_game_until_it_expires() -> None:
    token = link_token(SECRET, "dc", "777", "abcd1234", NOW)
    person, tid, expires = read_link(SECRET, token, NOW + 899)
    assert (person.platform, person.user_id, person.game, expires) == (
        "dc", "777", "abcd1234", NOW + 900)
    assert len(tid) >= 16
    assert code_of(read_link, SECRET, token, NOW + 901) == "expired"
    other = link_token(SECRET, "dc", "777", "abcd1234", NOW)
    assert read_link(SECRET, other, NOW)[1] != tid  # each link is its own (single use)


def test_an_altered_or_foreign_link_token_is_forged() -> None:
    token = link_token(SECRET, "dc", "777", "abcd1234", NOW)
    body, mac = token.split(".")
    assert code_of(read_link, b"x" * 32, token, NOW) == "forged"
    assert code_of(read_link, SECRET, body[:-2] + "AA." + mac, NOW) == "forged"
    assert code_of(read_link, SECRET, body + "." + mac[:-2] + "AA", NOW) == "forged"
    assert code_of(read_link, SECRET, "nonsense", NOW) == "bad_request"


def test_a_session_cannot_serve_as_a_link_nor_a_link_as_a_session() -> None:
    person = Person("tg", "42", "Ana", "abcd1234")
    session = session_token(SECRET, person, "en", NOW)
    assert read_session(SECRET, session, NOW) == (person, "en")
    assert code_of(read_link, SECRET, session, NOW) == "forged"
    link = link_token(SECRET, "tg", "42", "abcd1234", NOW)
    assert code_of(read_session, SECRET, link, NOW) == "forged"
