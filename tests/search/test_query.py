from __future__ import annotations

from memkit.search import parse_query
from memkit.store import Store
from tests.search.helpers import ids, mem


def test_parse_query_words_optional_fields_required() -> None:
    q = parse_query('retry "payment gateway" tag:billing -flaky')
    assert q is not None
    assert (q.must, q.should, q.excluded) == (
        ('"payment gateway"', '{tags} : ("bill")'),
        ('"retri"',),
        ('"flaki"',),
    )
    assert q.expression() == '("payment gateway") AND ({tags} : ("bill"))'
    assert parse_query("auth -type:decision") == parse_query("auth -type:decision")
    auth = parse_query("auth -type:decision")
    assert auth is not None and auth.synonyms == ('"authent"', '"login"', '"logon"', '"signin"')
    assert auth.where == (("d.type != ?", ("decision",)),)
    assert q.terms >= {"retri", "gateway", "bill"}
    assert parse_query("   ") is None


def test_identifiers_paths_and_phrases(store: Store) -> None:
    login = "[src/auth/service.py::AuthService.login]"
    mem(store, "hash", "Passwords are hashed with argon2", "Upgraded at login.", links=login)
    mem(
        store,
        "rate",
        "Throttle sign-in attempts",
        "Counted in Redis per user.",
        links="[src/auth/limits.py::authenticate_user]",
    )
    mem(
        store,
        "cents",
        "Money is integer cents",
        "Never floats for a user's balance.",
        paths="['src/billing/**']",
        tags="[billing]",
        type="convention",
    )
    assert ids(store, "auth service")[0] == "hash"
    assert ids(store, "authenticate user")[0] == "rate"
    assert ids(store, "billing") == ["cents"]
    assert ids(store, '"integer cents"') == ["cents"]
    assert ids(store, '"cents integer"') == []
    assert ids(store, "tag:billing user") == ["cents"]
    assert ids(store, "type:convention") == ["cents"]
    assert ids(store, "user -redis") == ["cents"]
    assert ids(store, "title:argon2") == ["hash"]
    assert ids(store, "link:AuthService") == ["hash"]
    assert ids(store, "the of and") == []


def test_phrase_in_a_field_without_positions(store: Store) -> None:
    mem(store, "t", "Integer money cents", "body")
    assert ids(store, 'title:"money cents"') == ["t"]
    assert ids(store, 'title:"cents money"') == ["t"]  # titles keep no positions: all words
