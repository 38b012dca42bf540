"""`neweden standings` on what organisers really give it (docs/standings.md): games scored on
the way, bad options and files that are not results, each with a clear error; the HTTP form
over a batch answer; the CSV for a Brazilian spreadsheet."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import neweden
from neweden.cli.main import main
from tests.games import game, line, player
from tests.servers import running_server


def _game(event: str, round_: int, *names_and_cards: tuple[str, int]) -> dict[str, Any]:
    """A military game whose players' cities are rows of `n` cards (more cards, more points)."""
    players = [player(name, line(n)) for name, n in names_and_cards]
    return game("military", *players, meta={"event": event, "round": round_})


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Two rounds of "Liga" as game files (2 players, then 3), and one game of one player."""
    where = tmp_path / "games"
    where.mkdir()
    docs = {
        "r1.json": _game("Liga", 1, ("Ana", 5), ("Bia", 3)),
        "r2.json": _game("Liga", 2, ("Bia", 4), ("ana", 1), ("Caio", 5)),
        "solo.json": _game("Liga", 2, ("Davi", 3)),
    }
    for name, doc in docs.items():
        (where / name).write_text(json.dumps(doc), encoding="utf-8")
    return where


def _run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["standings", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_games_are_scored_and_ranked_by_their_places(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = {p.name: neweden.score(p.read_bytes()) for p in folder.glob("r*.json")}
    places = {
        (name, p["name"].lower()): p["place"] for name, r in reports.items() for p in r["players"]
    }
    # what the games themselves say, so the points below follow from them
    assert places == {
        ("r1.json", "ana"): 1,
        ("r1.json", "bia"): 2,
        ("r2.json", "caio"): 1,
        ("r2.json", "bia"): 2,
        ("r2.json", "ana"): 3,
    }
    out = tmp_path / "s.json"
    code, shown, _err = _run(str(folder), "--json", str(out), capsys=capsys)
    assert code == 0
    doc = json.loads(out.read_text())
    (event,) = doc["events"]
    assert (event["event"], event["rounds"], event["games"]) == ("Liga", [1, 2], 2)
    standing = [(p["place"], p["name"], p["points"], p["games"]) for p in event["players"]]
    # Ana: 2 (1st of 2) + 1 (3rd of 3) = 3; Bia: 1 (2nd of 2) + 2 (2nd of 3) = 3; Caio: 3.
    # all three have 3 points: the sum of each one's totals in the reports decides
    sums: dict[str, int] = {}
    for report in reports.values():
        for p in report["players"]:
            sums[p["name"].lower()] = sums.get(p["name"].lower(), 0) + p["score"]["total"]
    assert len(set(sums.values())) == 3  # no further tie-breaker is needed
    assert {(name.lower(), points, games) for _pl, name, points, games in standing} == {
        ("ana", 3, 2),
        ("bia", 3, 2),
        ("caio", 3, 1),
    }
    by_totals = sorted(sums, key=sums.__getitem__, reverse=True)
    assert [name.lower() for _pl, name, _p, _g in standing] == by_totals
    assert [place for place, *_rest in standing] == [1, 2, 3]
    assert [p["total"] for p in event["players"]] == [sums[n] for n in by_totals]
    (left,) = doc["left_out"]
    assert left["code"] == "one_player"
    assert left["source"]["path"].endswith("solo.json")
    assert "one_player" in shown
    assert "solo.json" in shown


@pytest.mark.parametrize(
    ("points", "said"),
    [
        ("abc", '"abc" is not a list of whole numbers'),
        ("3,5,1", '"3,5,1" rises'),
        ("5:4,3,2,1,0", 'before ":" comes a player count, 2 to 4'),
        ("4:3,2,1", "gives 3 values for games of 4 players"),
        ("3,2", "no points for games of 3 players"),
        ("-1,0", "is not a list of whole numbers"),
    ],
)
def test_unknown_points_are_refused_with_what_is_wrong(
    folder: Path, points: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(str(folder), f"--points={points}", capsys=capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("neweden: --points: ")
    assert said in err


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Ana S. Ana Souza\n", "line 1: write ALIAS = NAME"),
        ("# ok\nAna S. = \n", "line 2: an alias needs a name on each side"),
        ("A = B\nB = C\n", '"B" is an alias itself'),
        ("A = B\na = C\n", '"a" is already an alias of "B"'),
    ],
)
def test_a_bad_alias_file_is_refused_with_its_line(
    folder: Path, tmp_path: Path, text: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    aliases = tmp_path / "aliases.txt"
    aliases.write_text(text, encoding="utf-8")
    code, _out, err = _run(str(folder), "--alias", str(aliases), capsys=capsys)
    assert code == 2
    assert said in err


def test_a_missing_alias_file_is_an_error(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = _run(str(folder), "--alias", str(tmp_path / "none.txt"), capsys=capsys)
    assert code == 2
    assert "--alias" in err
    assert "none.txt" in err


def test_a_file_that_is_no_results_is_said_and_nothing_is_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "results.csv"
    table.write_text("source_path,player,total\nr1.json,Ana,30\n", encoding="utf-8")
    code, out, err = _run(str(table), capsys=capsys)
    assert code == 2
    assert "results.csv" in out
    assert "unreadable" in out
    assert "no game could be counted" in err


def test_a_results_line_that_lacks_a_field_is_named_by_its_line_and_pointer(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "out.jsonl"
    assert main(["validate", str(folder), "--out", str(results), "--quiet"]) == 0
    lines = results.read_text().splitlines()
    broken = json.loads(lines[0])
    del broken["players"][1]["place"]
    lines[0] = json.dumps(broken)
    results.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    code, out, _err = _run(str(results), "--json", "-", "--quiet", capsys=capsys)
    assert code == 0  # the rest is counted
    doc = json.loads(out)
    (left,) = [x for x in doc["left_out"] if x["code"] == "not_a_result"]
    assert left["source"] == {"path": str(results), "line": 1}
    assert "`place`" in left["message"]
    assert "/players/1" in left["message"]
    assert doc["events"][0]["games"] == 1


def test_a_player_twice_in_a_round_is_noted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "round.jsonl"
    docs = [_game("Liga", 1, ("Ana", 3), ("Bia", 2)), _game("Liga", 1, ("ANA", 2), ("Caio", 3))]
    games.write_text("".join(json.dumps(d) + "\n" for d in docs))
    code, out, _err = _run(str(games), "--json", "-", "--quiet", capsys=capsys)
    assert code == 0
    (note,) = json.loads(out)["notes"]
    assert (note["code"], note["round"], note["player"]) == ("twice_in_round", 1, "Ana")


def test_the_portuguese_csv_is_for_a_brazilian_spreadsheet(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "s.csv"
    args = (str(folder), "--csv", str(table), "--lang", "pt-BR", "--csv-header", "pt-BR")
    code, shown, _err = _run(*args, capsys=capsys)
    assert code == 0
    raw = table.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == [
        "evento",
        "colocação",
        "jogador",
        "pontos de torneio",
        "total",
        "vitórias",
        "requisitos cumpridos",
        "cartas",
        "partidas",
    ]
    assert {row[2].lower() for row in rows[1:]} == {"ana", "bia", "caio"}
    assert "partida ficou de fora" in shown  # the terminal speaks Portuguese too


def test_validate_names_its_csv_columns_in_portuguese_when_asked(
    folder: Path, tmp_path: Path
) -> None:
    table = tmp_path / "v.csv"
    args = ["validate", str(folder), "--csv", str(table), "--quiet", "--csv-header", "pt-BR"]
    assert main(args) == 0
    header = table.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[:4] == ["arquivo de origem", "linha na origem", "partida válida", "jogador"]
    assert "requisitos declarados" in header
    assert "meta.event" in header
    assert main([*args[:-1], "ids"]) == 0  # the default: the identifiers
    assert table.read_text().startswith("source_path,source_line,game_valid,player,")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    pytest.importorskip("starlette", reason="the serve extra")
    with running_server({}, tmp_path_factory.mktemp("s") / "log") as (port, _pid):
        yield port


def _post(port: int, path: str, body: bytes) -> tuple[int, Any]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, body=body, headers={"content-type": "application/json"})
    response = conn.getresponse()
    answer = json.loads(response.read())
    conn.close()
    return response.status, answer


def test_post_standings_ranks_a_batch_answer_as_it_is(server: int, folder: Path) -> None:
    games = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    status, batch = _post(server, "/v1/score/batch", json.dumps({"games": games}).encode())
    assert status == 200
    body = {"results": batch["results"], "points": {"3": [5, 2, 0]}, "aliases": {"ANA": "Ana"}}
    status, answer = _post(server, "/v1/standings", json.dumps(body).encode())
    assert status == 200
    (event,) = answer["events"]
    # Ana: 2 (1st of 2) + 0 (3rd of 3, 5/2/0) = 2; Bia: 1 + 2 = 3; Caio: 5 (1st of 3)
    assert [(p["name"], p["points"]) for p in event["players"]] == [
        ("Caio", 5),
        ("Bia", 3),
        ("Ana", 2),
    ]
    (left,) = answer["left_out"]
    assert (left["code"], left["source"]) == ("one_player", {"path": "/results/2", "line": None})


@pytest.mark.parametrize(
    ("body", "status", "where"),
    [
        (b'{"results": [], "points": [3, 5]}', 422, "/points"),
        (b'{"results": [], "aliases": {"A": ""}}', 422, "/aliases"),
        (b'{"games": []}', 422, ""),
        (b"results", 400, ""),
    ],
)
def test_post_standings_refuses_a_bad_body_clearly(
    server: int, body: bytes, status: int, where: str
) -> None:
    got, answer = _post(server, "/v1/standings", body)
    assert got == status
    assert answer["errors"][0]["path"] == where
    assert answer["detail"]


def _report(path: Path, folder: Path) -> dict[str, Any]:
    """The `validate --out` line of the games of `folder`, the first one."""
    assert main(["validate", str(folder), "--out", str(path), "--quiet"]) == 0
    return dict(json.loads(path.read_text().splitlines()[0]))


def test_a_game_read_twice_is_counted_once(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same file given twice, and a results file beside the games it reports on."""
    once = json.loads(_run(str(folder), "--json", "-", "--quiet", capsys=capsys)[1])
    results = folder / "results.jsonl"
    assert main(["validate", str(folder), "--out", str(results), "--quiet"]) == 0
    capsys.readouterr()
    for paths in ([str(folder / "r1.json"), str(folder / "r1.json"), str(folder / "r2.json")],
                  [str(folder)]):  # fmt: skip
        code, out, _err = _run(*paths, "--json", "-", "--quiet", capsys=capsys)
        assert code == 0
        doc = json.loads(out)
        assert doc["events"] == once["events"]
        twice = [x for x in doc["left_out"] if x["code"] == "duplicate_game"]
        assert len(twice) == (1 if len(paths) == 3 else 2)
        assert "counted once" in twice[0]["message"]


def test_two_players_of_one_game_who_fold_to_one_name_leave_it_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "g.jsonl"
    docs = [
        _game("Liga", 1, ("Ana", 3), ("ana", 2)),
        _game("Liga", 1, ("José", 3), ("Jose\u200b", 2), ("Bia", 4)),
        _game("Liga", 1, ("Caio", 3), ("Davi", 2)),
    ]
    games.write_text("".join(json.dumps(d) + "\n" for d in docs))
    code, out, _err = _run(str(games), "--json", "-", "--quiet", capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    codes = [(x["source"]["line"], x["code"]) for x in doc["left_out"]]
    assert codes == [(1, "same_player_twice"), (2, "same_player_twice")]
    assert '"Ana" and "ana"' in doc["left_out"][0]["message"]
    assert [p["name"] for p in doc["events"][0]["players"]] == ["Caio", "Davi"]


@pytest.mark.parametrize(
    ("edit", "pointer"),
    [
        (lambda r: r["players"][1].update(place=9), "/players/1/place"),
        (lambda r: r["players"][0].update(place=0), "/players/0/place"),
        (lambda r: r["players"].extend([dict(r["players"][0])] * 3), "/players"),
        (lambda r: r["players"][0]["score"].update(total="12"), "/players/0/score/total"),
    ],
)
def test_a_hand_edited_result_that_cannot_be_is_named_not_scored(
    folder: Path, tmp_path: Path, edit: Any, pointer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _report(tmp_path / "out.jsonl", folder)
    edit(report)
    results = tmp_path / "edited.jsonl"
    results.write_text(json.dumps(report) + "\n")
    capsys.readouterr()
    code, out, err = _run(str(results), "--json", "-", "--quiet", capsys=capsys)
    assert code == 2  # nothing else to count
    (left,) = json.loads(out)["left_out"]
    assert left["code"] == "not_a_result"
    assert left["message"].endswith(f"at {pointer}")
    assert "Traceback" not in err


def test_an_output_that_is_an_input_is_refused_before_anything_is_written(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "out.jsonl"
    _report(results, folder)
    before = results.read_bytes()
    code, _out, err = _run(str(results), "--json", str(results), capsys=capsys)
    assert code == 2
    assert "is both an input and the --json output" in err
    assert results.read_bytes() == before
    code, _out, err = _run(str(results), "--json", "x.json", "--csv", "x.json", capsys=capsys)
    assert code == 2
    assert "name the same file" in err


def test_a_missing_path_is_said_and_a_quiet_run_still_counts_what_it_left_out(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "s.csv"
    args = (str(folder), str(tmp_path / "typo.jsonl"), "--quiet", "--csv", str(table))
    code, out, err = _run(*args, capsys=capsys)
    assert code == 1  # as validate: a PATH not found
    assert out == ""
    assert f"neweden: {tmp_path / 'typo.jsonl'}: no such file or folder" in err
    assert "neweden: 1 game left out" in err  # the game of one player
    assert table.read_text().count("\n") == 4  # the header and three players


def test_events_and_rounds_are_one_whatever_their_json_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = [_game("x", 1, ("Ana", 3), ("Bia", 2)), _game("x", 1, ("Ana", 2), ("Caio", 4))]
    docs[0]["meta"] = {"event": 7, "round": 2}
    docs[1]["meta"] = {"event": "7", "round": "2"}
    games = tmp_path / "g.jsonl"
    games.write_text("".join(json.dumps(d) + "\n" for d in docs))
    code, out, _err = _run(str(games), "--json", "-", "--quiet", capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    (event,) = doc["events"]
    assert (event["event"], event["rounds"]) == ("7", [2])
    (note,) = doc["notes"]  # Ana plays twice in round 2: the same round, said
    assert (note["code"], note["player"]) == ("twice_in_round", "Ana")


def test_points_are_checked_against_the_games_that_need_them(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the folder's games have 2 and 3 players: 3,2,1 is enough; 2,1 is not
    assert _run(str(folder), "--points", "3,2,1", "--quiet", capsys=capsys)[0] == 0
    code, _out, err = _run(str(folder), "--points", "2,1", capsys=capsys)
    assert code == 2
    assert "no points for games of 3 players" in err
    code, _out, err = _run(str(folder), "--points", "3,2,1", "--points=4,3,2,1", capsys=capsys)
    assert code == 2
    assert "give one list for every player count, not two" in err
    code, _out, err = _run(str(folder), f"--points={'9' * 5000},1,0,0", capsys=capsys)
    assert code == 2
    assert "whole numbers from 0 to 1,000,000" in err


def test_an_alias_file_reads_as_a_person_writes_it(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    aliases = tmp_path / "a.txt"
    aliases.write_text(
        "\ufeff# the round's spellings\r\nana = Ana Paula # she asked\r\nAna Paula = Ana Paula\r\n"
        "Caio#2 = Caio\r\n",
        encoding="utf-8",
    )
    code, out, _err = _run(str(folder), "--alias", str(aliases), "--json", "-", capsys=capsys)
    assert code == 0
    names = {p["name"] for p in json.loads(out)["events"][0]["players"]}
    assert names == {"Ana Paula", "Bia", "Caio"}
    aliases.write_text("A = B = C\n", encoding="utf-8")
    code, _out, err = _run(str(folder), "--alias", str(aliases), capsys=capsys)
    assert code == 2
    assert "line 1: write ALIAS = NAME, with one =" in err


def test_post_standings_refuses_what_it_cannot_rank(server: int) -> None:
    status, answer = _post(server, "/v1/standings", b'{"results": [' + b"0," * 20_000 + b"0]}")
    assert status == 413
    assert "the limit is 20,000" in answer["detail"]
    status, answer = _post(server, "/v1/standings", b'{"results": [], "points": []}')
    assert (status, answer["errors"][0]["path"]) == (422, "/points")
    five = {"valid": True, "players": [{"name": f"P{i}", "place": 1, "cards": 1,
                                        "score": {"total": 1}} for i in range(5)]}  # fmt: skip
    status, answer = _post(server, "/v1/standings", json.dumps({"results": [five]}).encode())
    assert status == 200
    assert answer["left_out"][0]["code"] == "not_a_result"


def test_a_game_spelled_two_ways_is_counted_once_and_two_rounds_alike_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The second review: a file named relatively and absolutely is one game; two rounds
    validated each in its own folder, both `games.jsonl:1`, are two games."""
    for round_, cards in ((1, 3), (2, 4)):
        folder = tmp_path / f"r{round_}"
        folder.mkdir()
        doc = _game("Copa", round_, ("Ana", cards), ("Bia", 2))
        (folder / "games.jsonl").write_text(json.dumps(doc) + "\n")
        monkeypatch.chdir(folder)
        assert main(["validate", "games.jsonl", "--out", str(tmp_path / f"r{round_}.jsonl")]) == 0
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    code, out, _err = _run("r1.jsonl", "r2.jsonl", "--json", "-", "--quiet", capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    assert (doc["events"][0]["games"], doc["left_out"]) == (2, [])  # no round lost
    same = ["r1/games.jsonl", str(tmp_path / "r1" / "games.jsonl")]
    code, out, _err = _run(*same, "--json", "-", "--quiet", capsys=capsys)
    doc = json.loads(out)
    assert doc["events"][0]["games"] == 1
    assert [x["code"] for x in doc["left_out"]] == ["duplicate_game"]


@pytest.mark.parametrize("places", [[2, 2], [1, 3, 3], [2, 1, 1]])
def test_places_no_ranking_gives_are_not_a_result(
    folder: Path, tmp_path: Path, places: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    report = _report(tmp_path / "out.jsonl", folder)
    report["players"] = [dict(report["players"][0], place=p) for p in places]
    results = tmp_path / "edited.jsonl"
    results.write_text(json.dumps(report) + "\n")
    capsys.readouterr()
    _code, out, _err = _run(str(results), "--json", "-", "--quiet", capsys=capsys)
    (left,) = json.loads(out)["left_out"]
    assert left["code"] == "not_a_result"
    assert "no ranking gives" in left["message"]


def test_an_empty_event_is_no_event_and_options_given_twice_are_refused(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "g.jsonl"
    docs = [_game("", 1, ("Ana", 3), ("Bia", 2)), _game("x", 1, ("Ana", 3), ("Bia", 2))]
    del docs[1]["meta"]["event"]
    games.write_text("".join(json.dumps(d) + "\n" for d in docs))
    _code, out, _err = _run(str(games), "--json", "-", "--quiet", capsys=capsys)
    assert [e["event"] for e in json.loads(out)["events"]] == [None]
    code, _out, err = _run(str(folder), "--points=4:4,3,2,1", "--points=4:9,3,2,1", capsys=capsys)
    assert code == 2
    assert "give the points of games of 4 players once" in err
    aliases = tmp_path / "a.json"
    aliases.write_text('{"Bruno": "Davi", "Bruno": "Eva"}', encoding="utf-8")
    code, _out, err = _run(str(folder), "--alias", str(aliases), capsys=capsys)
    assert code == 2
    assert '"Bruno" is already an alias of "Davi"' in err


def test_post_standings_counts_results_not_points_before_decoding(server: int) -> None:
    """Results with commas inside (more than 100,000 in the body) are counted before they
    are decoded: 19,999 results and a list of points are not too many."""
    one = b'{"valid": false, "errors": [], "players": [], "meta": null, "a": 1, "b": 2}'
    body = b'{"points": [4, 3, 2, 1], "results": [' + b",".join([one] * 19_999) + b"]}"
    assert body.count(b",") >= 100_000  # so the count before decoding is made
    status, answer = _post(server, "/v1/standings", body)
    assert status == 200
    assert len(answer["left_out"]) == 19_999
    body = b'{"results": [' + b",".join([one] * 30_001) + b"]}"
    assert _post(server, "/v1/standings", body)[0] == 413


def test_a_folder_walk_leaves_out_the_outputs_of_an_earlier_run(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = folder / "standings.json"
    assert _run(str(folder), "--json", str(out), "--quiet", capsys=capsys)[0] == 0
    first = json.loads(out.read_text())
    assert _run(str(folder), "--json", str(out), "--quiet", capsys=capsys)[0] == 0
    assert json.loads(out.read_text()) == first  # its own JSON was not read as a game


def test_a_line_nested_past_reading_is_left_out_and_the_rest_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Once a RecursionError and a traceback: the line was decoded whole to see whether it
    # is a result.
    deep = "[" * 200_000 + "]" * 200_000
    games = tmp_path / "liga.jsonl"
    rounds = [_game("Liga", 1, ("Ana", 5), ("Bia", 3)), _game("Liga", 2, ("Bia", 4), ("Ana", 1))]
    games.write_text("\n".join([deep, *map(json.dumps, rounds), '{"valid": ' + deep + "}"]))
    code, out, _err = _run(str(games), capsys=capsys)
    assert code == 0
    assert "Liga — 2 rounds, 2 games" in out
    assert "2 games left out:" in out
    assert "liga.jsonl:1  unreadable  bad_type at /" in out
    assert "liga.jsonl:4  not_a_result" in out  # read under the cut: `valid` is no verdict


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["valid", "mode", "players", "x"]), max_size=4).flatmap(
        lambda keys: st.tuples(
            st.just(keys),
            st.lists(st.none() | st.booleans() | st.integers() | st.text(max_size=3), min_size=4),
        )
    ),
    st.integers(0, 3),
)
def test_a_result_line_is_told_from_a_game_as_decoding_it_whole_tells(
    drawn: tuple[list[str], list[Any]], cut: int
) -> None:
    """`_result_line` reads `valid` first; the answer is the whole document's: an object with
    `valid` at its top level is a result (keys given twice, texts cut short, no UTF-8)."""
    from neweden.format.untyped import shallow_value
    from neweden.runners.standings import _result_line

    keys, values = drawn
    pairs = [f'"{k}": {json.dumps(v)}' for k, v in zip(keys, values, strict=False)]
    raw = ("{" + ", ".join(pairs) + "}").encode()
    raw = raw[: len(raw) - cut] if cut else raw
    if cut == 3:
        raw = raw.replace(b'"x"', b'"\xff"')
    try:
        whole = shallow_value(raw)
    except msgspec.DecodeError:
        whole = None
    expected = whole if isinstance(whole, dict) and "valid" in whole else None
    assert _result_line(raw) == expected


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'{"a": ' + b"[" * 1000 + b"]" * 1000 + b"}", "it is nested more than 48 levels deep"),
        (b'{"Ana": "\\ud800"}', "not UTF-8 text"),  # a lone surrogate, escaped
        (b'{"\\udfff": "Ana"}', "not UTF-8 text"),
        (b'{"Ana": "' + b"x" * (1 << 20) + b'"}', "it is larger than 1,048,576 bytes"),
    ],
    ids=["deep", "lone-name", "lone-alias", "large"],
)
def test_an_alias_file_that_cannot_be_one_is_refused(
    folder: Path, tmp_path: Path, content: bytes, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Once a RecursionError, or a UnicodeEncodeError when the table was written: a traceback.
    aliases = tmp_path / "aliases.json"
    aliases.write_bytes(content)
    code, _out, err = _run(str(folder), "--alias", str(aliases), capsys=capsys)
    assert code == 2
    assert f"--alias {aliases}: {said}" in err
