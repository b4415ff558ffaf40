"""The walkthrough's HTTP API (issue 18 item 5, :mod:`lamagames.web.routes.tutorial`):
starting one, its advice at the seat's decision, bad input, and the rules pages it links."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from web_helpers import TestClient, create, hide_numba, make_client, start

from lamagames.web.routes import tutorial
from lamagames.web.routes.tutorial import rulings_of


def advice_when_mine(client: TestClient, code: str, token: str) -> dict[str, Any]:
    """The advice once the seat has a decision (the table deals or rolls first)."""
    for _ in range(500):
        advice: dict[str, Any] = client.post(
            f"/api/tables/{code}/tutorial", json={"token": token}
        ).json()
        if advice["mine"]:
            return advice
        time.sleep(0.01)
    raise AssertionError("the seat never had a decision")


def test_rulings_are_read_from_the_lesson_text() -> None:
    assert rulings_of("roll or quit [D-6]. Quitting [D-7, D-10]; a roll [D-8.2, D-6]") == [
        "D-6",
        "D-7",
        "D-10",
        "D-8.2",
    ]


def test_express_walkthrough_gives_lessons_and_a_legal_suggestion(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.sqlite3") as client:
        answer = client.post("/api/tutorial/express", json={})
        assert answer.status_code == 201, answer.text
        code, token = answer.json()["code"], answer.json()["token"]
        info = client.get(f"/api/tables/{code}").json()
        assert info["status"] == "playing" and not info["public"]  # private: not in the lobby
        assert info["params"]["llamas_to_win"] == 3  # the tutor's short game (E-10)
        assert [s["kind"] for s in info["seats"]] == ["human", "bot"]
        assert code not in [t["code"] for t in client.get("/api/tables").json()]
        advice = advice_when_mine(client, code, token)
        kinds = {lesson["kind"]: lesson["rulings"] for lesson in advice["lessons"]}
        assert kinds["start"] == ["E-10"] and kinds["move"] == ["E-6"]  # E-6: the train choice
        assert advice["suggested"] in ("move A", "move B")
        assert advice["move_kind"] == "move" and advice["values"] is None


def test_bad_requests_get_one_clear_error(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.sqlite3") as client:
        unknown = client.post("/api/tutorial/chess", json={})
        assert unknown.status_code == 404 and "chess" in unknown.json()["message"]
        assert client.post("/api/tutorial/dice", json={"name": ""}).status_code == 422
        assert client.post("/api/tutorial/dice", json={"extra": 1}).status_code == 422
        code = client.post("/api/tutorial/express", json={}).json()["code"]
        wrong = client.post(f"/api/tables/{code}/tutorial", json={"token": "nope-nope"})
        assert wrong.status_code == 403 and wrong.json()["error"] == "forbidden"
        assert (
            client.post("/api/tables/ZZZZZZ/tutorial", json={"token": "x" * 8}).status_code == 404
        )
        odd = client.post(f"/api/tables/{code}/tutorial", json={"token": "é" * 10})
        assert odd.status_code == 422 and "token" in odd.json()["message"]
        bidi = client.post("/api/tutorial/dice", json={"name": "Ann\u202e"})
        assert bidi.status_code == 422 and "name" in bidi.json()["message"]
        # The advice is a hint: a table created without hints gives none.
        off = create(client, [{"kind": "human"}, {"kind": "human"}], "express", hints=False)
        start(client, off)
        refused = client.post(
            f"/api/tables/{off['code']}/tutorial", json={"token": off["seats"][0]["token"]}
        )
        assert refused.status_code == 409 and refused.json()["error"] == "hints_off"
        waiting = create(client, [{"kind": "human"}, {"kind": "human"}], "express")
        early = client.post(
            f"/api/tables/{waiting['code']}/tutorial", json={"token": waiting["seats"][0]["token"]}
        )
        assert early.status_code == 409 and early.json()["error"] == "not_playing"


def test_rules_pages_anchor_every_ruling(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.sqlite3") as client:
        dice = client.get("/rules/dice")
        assert dice.status_code == 200
        assert "default-src 'self'" in dice.headers["content-security-policy"]
        for ruling in ("D-1", "D-6", "D-8.2", "D-8.5", "D-11"):
            assert f'id="{ruling}"' in dice.text, ruling
        assert "<script" not in dice.text and "style=" not in dice.text
        express = client.get("/rules/express").text
        assert all(f'id="E-{n}"' in express for n in range(1, 13))
        missing = client.get("/rules/chess")
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"


#: A heading of each language's LAMA Dice rules (``dice/rules.<lang>.md``).
DICE_D8 = {"en": "D-8 What a roll does", "de": "D-8 Was ein Wurf bewirkt",
           "fr": "D-8 Ce que fait un lancer", "nl": "D-8 Wat een worp doet",
           "it": "D-8 Che cosa fa un tiro"}  # fmt: skip


@pytest.mark.parametrize(
    ("query", "header", "lang"),
    [
        ("", "nl-BE,nl;q=0.9,en;q=0.5", "nl"),  # the reader's browser language
        ("?lang=it", "nl", "it"),  # the walkthrough's links name the page's language
        ("?lang=DE", None, "de"),
        ("?lang=fr-CA", "de", "fr"),
        ("?lang=klingon", "de", "de"),  # unknown: the header decides
        ("?lang=" + "x" * 5000, None, "en"),
        ("", "ja", "en"),
        ("", None, "en"),
    ],
)
def test_rules_page_in_the_readers_language(
    tmp_path: Path, query: str, header: str | None, lang: str
) -> None:
    """``GET /rules/dice`` in the language of ``?lang=`` (as the walkthrough page shows
    it), else ``Accept-Language``, else English (issue 19 item 5: English only before);
    every ruling keeps its anchor."""
    headers = {} if header is None else {"accept-language": header}
    with make_client(tmp_path / "t.sqlite3") as client:
        page = client.get(f"/rules/dice{query}", headers=headers)
        assert page.status_code == 200
        assert "accept-language" in page.headers["vary"].lower()
        assert f'<html lang="{lang}">' in page.text
        assert DICE_D8[lang] in page.text
        assert [other for other, h in DICE_D8.items() if other != lang and h in page.text] == []
        for ruling in ("D-1", "D-8.2", "D-8.5", "D-11"):
            assert f'id="{ruling}"' in page.text, ruling
        express = client.get(f"/rules/express{query}", headers=headers).text
        assert all(f'id="E-{n}"' in express for n in range(1, 13))
        assert f'<html lang="{lang}">' in express


def test_rules_page_title_in_the_language(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.sqlite3") as client:
        assert "<title>LAMA Dice · Spielregeln</title>" in client.get("/rules/dice?lang=de").text
        assert "<title>LAMA Dice · rules</title>" in client.get("/rules/dice").text
        missing = client.get("/rules/chess?lang=fr")
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_dice_advice_without_hints_has_no_move_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where this server cannot give LAMA Dice hints (numba missing), the walkthrough still
    suggests a move and explains the decision (D-6), with no move values."""
    hide_numba(monkeypatch)
    with make_client(tmp_path / "t.sqlite3") as client:
        answer = client.post("/api/tutorial/dice", json={"name": "Ann"}).json()
        info = client.get(f"/api/tables/{answer['code']}").json()
        assert info["params"]["end_score"] == 20 and info["seats"][0]["name"] == "Ann"  # D-11
        advice = advice_when_mine(client, answer["code"], answer["token"])  # seat 0 starts (D-5)
        assert any(
            lesson["kind"] == "turn" and "D-6" in lesson["rulings"] for lesson in advice["lessons"]
        )
        assert (
            advice["suggested"] in ("roll", "quit") and advice["move_kind"] == advice["suggested"]
        )
        assert advice["values"] is None


def test_advice_is_worked_out_once_per_table_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = tutorial.work_out_advice

    def counting(*args: Any) -> Any:
        calls.append(args[3])
        return real(*args)

    monkeypatch.setattr(tutorial, "work_out_advice", counting)
    with make_client(tmp_path / "t.sqlite3") as client:
        answer = client.post("/api/tutorial/express", json={}).json()
        first = advice_when_mine(client, answer["code"], answer["token"])
        calls.clear()
        asks = [first] + [
            client.post(
                f"/api/tables/{answer['code']}/tutorial", json={"token": answer["token"]}
            ).json()
            for _ in range(3)
        ]
    assert asks[0] == asks[1] == asks[2]
    assert asks[0]["mine"] and calls == []  # the same version again: the kept answer


def test_the_persons_seat_is_named_player_by_default(tmp_path: Path) -> None:
    """Moves and turns are told in the third person ("{name}'s turn"): the default seat name
    is "Player", not "You" ("You's turn" was shown)."""
    with make_client(tmp_path / "t.sqlite3") as client:
        answer = client.post("/api/tutorial/express", json={}).json()
        info = client.get(f"/api/tables/{answer['code']}").json()
        assert info["seats"][0]["name"] == "Player"
