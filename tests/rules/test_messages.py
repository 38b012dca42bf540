"""The rules' and the report's messages in Brazilian Portuguese (issue 20): every error and
warning code the rules make comes out in Portuguese with the same code, path and cells, and
the audit's sentences too; English stays as it was."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

import neweden
from neweden.catalog.catalog import BUILTIN, RequirementSpec
from neweden.cli.main import example_game
from neweden.format.modes import MODES, MODES_WITH_REQUIREMENTS
from neweden.i18n import speaking
from tests.games import card, game, line, player, six_in_a_row

PT = "pt-BR"
THIRD = {"points": 2, "state": "validated", "effect": "third_star"}
REAL = ["gothic", "futurist", "renaissance", "sustainable", "ex_quinta"]


def problems(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every error and warning of a report (or a validation answer), in order."""
    found = [*report["errors"], *report["warnings"]]
    for p in report["players"]:
        found += [*p["errors"], *p["warnings"]]
    return found


def shape(report: dict[str, Any]) -> list[tuple[str, str, list[list[int]]]]:
    return [(p["code"], p["path"], p["cells"]) for p in problems(report)]


def message(report: dict[str, Any], code: str) -> str:
    (found,) = [str(p["message"]) for p in problems(report) if p["code"] == code]
    return found


def both(doc: Any, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The report in English and in Portuguese; the same data, codes, paths and cells."""
    en = neweden.score(doc, **kwargs)
    pt = neweden.score(doc, lang=PT, **kwargs)
    assert shape(pt) == shape(en)
    assert _without_messages(pt) == _without_messages(en)
    return en, pt


def _without_messages(value: Any) -> Any:
    """A report with every human sentence blanked (what must be the same in any language)."""
    if isinstance(value, dict):
        return {
            k: "" if k in ("message", "why", "note") else _without_messages(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_without_messages(v) for v in value]
    return value


def military_with_bases(*counts: int) -> dict[str, Any]:
    return game(
        "military", *(player(f"P{i}", line(k, facility="base")) for i, k in enumerate(counts))
    )


def _requirements_ignored() -> dict[str, Any]:
    doc = game("military", player("P", line(3)))
    doc["requirements"] = ["A1"]
    return doc


def _overlap() -> dict[str, Any]:
    city = [*line(2), card(0, 0, "r", facility="base")]
    return game("military", player("P", city), player("Q", line(1)))


def _copies() -> dict[str, Any]:
    eden = [{"row": r, "col": 0, "card": "new-eden"} for r in range(3)]
    others = [player(f"P{i}", [card(0, 0, "t")]) for i in range(1, 4)]
    return game("military", player("P0", eden), *others)


def _waste() -> dict[str, Any]:
    waste = [{"row": r, "col": 0, "card": "atomic-waste"} for r in range(3)]
    return game("military", player("P0", waste))


def _over_box() -> dict[str, Any]:
    cities = [line(8, style="ex_gothic", type=f"ex_t{i}") for i in range(2)]
    return game("military", player("A", cities[0]), player("B", cities[1]))


def _rotated() -> dict[str, Any]:
    return game("military", player("A", [card(0, 0, "r"), card(0, 1, "r", rotated=True)]))


def _thirds_in_military() -> dict[str, Any]:
    eps = [{**THIRD, "state": "activated"}] * 3
    return game("military", player("A", line(2), epiphanies=eps))


def _too_many_styles() -> dict[str, Any]:
    return game(
        "populist",
        player("Ana", six_in_a_row([*REAL, "gotic"])),
        player("Bia", six_in_a_row([*REAL, "gothic"])),
    )


def _too_many_types() -> dict[str, Any]:
    types = ["building", "green_area", "ex_port", "ex_plaza", "ex_farm", "ex_mine", "ex_dock"]
    return game("military", player("Ana", six_in_a_row(["gothic"] * 7, types)))


def _unknown_effect() -> dict[str, Any]:
    eps = [{"points": 2, "state": "activated", "effect": "thrid_star"}]
    return game("populist", player("Ana", six_in_a_row([*REAL, "gothic"]), epiphanies=eps))


#: code -> (a game that makes it, a word of the Portuguese message, the English words)
CASES: dict[str, tuple[Callable[[], Any], str, str]] = {
    "overlap": (_overlap, "sobreposição", "left out of the city and the score"),
    "copy_limit": (_copies, "aparece pela 3ª vez", "appears a 3rd time"),
    "duplicate_name": (
        lambda: game("military", player("A", line(2)), player("A", line(2))),
        "os nomes devem ser únicos",
        "names must be unique",
    ),
    "empty_city": (
        lambda: game("military", player("Zé", [])),
        "Zé não tem nenhuma carta no projeto",
        "has no card in the city",
    ),
    "style_count_over_box": (_over_box, "Estilo Arquitetônico", "common cards of the style"),
    "game_not_ended": (
        lambda: game("military", player("A", line(9))),
        "partida em andamento",
        "game in progress",
    ),
    "requirements_mismatch": (
        lambda: game("populist", player("A", line(2)), requirements=["A1", "B1"]),
        "Edital Populista",
        "requirement card of each deck",
    ),
    "rotated_without_epiphany": (_rotated, "está girada", "is rotated"),
    "third_star_in_military": (
        _thirds_in_military,
        "3 Epifanias ativadas por 1/3 de estrela",
        "epiphanies activated for 1/3 star",
    ),
    "too_many_styles": (
        _too_many_styles,
        '"gotic": 1 carta (Ana, linha 0, coluna 5) — você quis dizer "gothic", 3 cartas?',
        "so some style is mistyped",
    ),
    "too_many_types": (_too_many_types, "7 Tipos de Local; a caixa tem 6", "7 types"),
    "similar_names": (
        lambda: game("military", player("Ana", six_in_a_row(["ex_quinta"] * 5 + ["ex_quintas"]))),
        'o Estilo Arquitetônico "ex_quintas", 1 carta (Ana, linha 0, coluna 5), parece "ex_quinta"',
        "is one of them mistyped?",
    ),
    "misspelled_name": (
        lambda: game("military", player("Ana", six_in_a_row(["gothic"] * 5 + ["gothik"]))),
        '"gothik" não é um Estilo Arquitetônico: você quis dizer "gothic"?',
        'is not a style: did you mean "gothic"?',
    ),
    "unknown_effect": (
        _unknown_effect,
        "a Epifania pontua como ativada",
        "is not one the rules know",
    ),
    "activated_five_point": (
        lambda: game(
            "populist",
            player("P", line(2), epiphanies=[{"points": 5, "state": "activated"}]),
        ),
        "não pode ser ativada",
        "cannot be activated",
    ),
    "requirements_ignored": (
        _requirements_ignored,
        "não pontua Requisitos de Edital; `requirements` é ignorado",
        "scores no requirement cards",
    ),
    "default_majority_table": (
        lambda: military_with_bases(1, 2),
        "tabela de maioria do Requisito D5 para 2 jogadores",
        "majority table",
    ),
    "one_player_bases": (
        lambda: military_with_bases(2),
        "as 2 Bases Militares não têm maioria",
        "have no majority to win",
    ),
    "unknown_first_player": (
        lambda: game("military", player("A", line(2)), player("B", line(2)), first_player="Zed"),
        "critério de desempate",
        "tie-breaker is skipped",
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_in_portuguese_with_the_same_code_path_and_cells(code: str) -> None:
    make, portuguese, english = CASES[code]
    en, pt = both(make())
    assert english in message(en, code)  # the game makes the code, in English as it was
    said = message(pt, code)
    assert portuguese in said
    assert english not in said


@pytest.mark.parametrize(
    ("extra", "english", "portuguese"),
    [
        (
            card(1, 0, "t", style="ex_x", type="ex_y"),
            "share neither style nor type",
            "não têm em comum nem Estilo Arquitetônico nem Tipo de Local",
        ),
        (card(1, 0, "l"), "no icon on that side", "não tem ícone de conexão nesse lado"),
        (
            card(0, 3, "l"),
            "whose right side has no icon (a wall)",
            "seu lado esquerdo encosta na carta 2 na linha 0, coluna 2, cujo lado direito não "
            "tem ícone de conexão (uma parede)",
        ),
        (
            card(7, 7, "t"),
            "no card of it touches another card of the city",
            "nenhuma dessas cartas encosta",
        ),
    ],
)
def test_a_disconnected_city_is_told_in_portuguese_with_the_same_code(
    extra: dict[str, Any], english: str, portuguese: str
) -> None:
    city = [*line(3), extra]
    city[0]["card"]["sides"] = ["right", "bottom"]  # (0,0) offers a bottom icon
    en, pt = both(game("military", player("P", city)))
    assert english in message(en, "disconnected")
    said = message(pt, "disconnected")
    assert "não está ligada ao projeto (3 cartas) por conexões completas" in said
    assert portuguese in said
    assert english not in said
    assert "are not joined" not in said
    (error,) = pt["players"][0]["errors"]
    assert error["code"] == "disconnected"
    assert pt["players"][0]["legal"] is False


def test_two_disconnected_cards_take_the_plural() -> None:
    city = [*line(3), card(9, 0, "r"), card(9, 1, "l")]
    _en, pt = both(game("military", player("P", city)))
    assert message(pt, "disconnected").startswith(
        "2 cartas em (9, 0), (9, 1) não estão ligadas ao projeto"
    )


def test_copy_limit_of_atomic_waste_names_the_players_in_portuguese() -> None:
    en, pt = both(_waste())
    assert "a 1-player game has 2 (one per player and one in the Idea Pile)" in message(
        en, "copy_limit"
    )
    said = message(pt, "copy_limit")
    assert "uma partida de 1 jogador tem 2 (uma por jogador e uma na Pilha de Ideias)" in said
    assert "Idea Pile" not in said


def test_requirements_mismatch_of_every_mode_that_plays_requirements() -> None:
    assert {m for m, rules in MODES.items() if all(rules.mismatch)} == set(MODES_WITH_REQUIREMENTS)
    _en, pt = both(game("elitist", player("A", line(2)), requirements=[]))
    said = message(pt, "requirements_mismatch")
    assert said.startswith("uma partida de Edital Elitista")
    assert "esta não tem nenhum" in said
    assert "none" not in said


def test_too_many_styles_tells_how_many_more_in_portuguese() -> None:
    styles = [f"ex_s{i:02}" for i in range(17)]  # one card each: all tie as the rarest
    _en, pt = both(game("military", player("Ana", six_in_a_row(styles))), detail=False)
    said = message(pt, "too_many_styles")
    assert "ex_s09 1 e mais 7" in said  # the names by cards: 10 shown, then how many more
    assert said.endswith("; e mais 7")  # the rarest: 10 told, then how many more
    assert "more" not in said


def test_similar_type_names_in_portuguese() -> None:
    city = six_in_a_row(["gothic"] * 6, ["ex_plaza"] * 5 + ["ex_plazza"])
    _en, pt = both(game("military", player("Ana", city)))
    assert message(pt, "similar_names").startswith('o Tipo de Local "ex_plazza", 1 carta')


def test_the_third_star_advice_in_portuguese() -> None:
    city = line(6, points=9, stars=3)  # B1 and C1: 2 stars, the cards need 3
    _en, pt = both(game("populist", player("P", city, epiphanies=[THIRD] * 3)))
    (advice,) = pt["players"][0]["audit"]["advice"]
    assert advice["code"] == "third_star_choice"
    assert advice["message"] == (
        "ativar mais 3 Epifanias de 1/3 de estrela (1 estrela inteira em vez de 0) "
        "teria feito 42 pontos a mais"
    )
    activated = [{**THIRD, "state": "activated"}] * 3
    _en, pt = both(game("populist", player("P", line(6), epiphanies=activated)))
    (advice,) = pt["players"][0]["audit"]["advice"]
    assert advice["message"].startswith("validar, em vez de ativar, mais 3 Epifanias")


def test_the_audit_sentences_in_portuguese() -> None:
    en, pt = both(example_game())
    sarah_en, sarah = en["players"][0]["audit"], pt["players"][0]["audit"]
    whys = {c["why"] for c in sarah["cards"]}
    assert any(w.startswith("ativada: precisa de") for w in whys)
    assert not any("needs" in w for w in whys)
    for requirement in sarah["requirements"]:
        assert requirement["why"].startswith(f"Requisito {requirement['id']} ")
        assert " cumprido: " in requirement["why"]
    assert any(r["why"].startswith("A1 met: ") for r in sarah_en["requirements"]) or any(
        r["why"].startswith("A1 not met: ") for r in sarah_en["requirements"]
    )
    # English again after Portuguese: the cached sentences are the language's own
    assert neweden.score(example_game()) == en


def test_every_card_sentence_of_the_audit_in_portuguese() -> None:
    city = [
        card(0, 0, "r", stars=0),
        card(0, 1, "rl", stars=3, points=4),  # needs 3 stars, the player has fewer
        card(0, 2, "l", stars=1),
        card(0, 0, "r"),  # on a taken cell
        {"row": 1, "col": 0, "card": "EX-nowhere"},  # unknown id
    ]
    _en, pt = both(game("populist", player("P", city)))
    whys = [c["why"] for c in pt["players"][0]["audit"]["cards"]]
    assert whys[0].startswith("ativada: precisa de 0 estrela, o jogador tem")
    assert whys[1].startswith("1 ponto: precisa de 3 estrelas, o jogador tem")
    assert whys[3] == "sobre uma posição ocupada: fica de fora"
    assert whys[4] == "id desconhecido: fica de fora"
    _en, pt = both(game("military", player("P", line(2))))
    assert {c["why"] for c in pt["players"][0]["audit"]["cards"]} == {
        "pontua só pela sua instalação (este modo não tem a parte do Edital Populista)"
    }


def test_every_epiphany_note_of_the_audit_in_portuguese() -> None:
    eps = [
        {"points": 5, "state": "held"},
        {"points": 2, "state": "validated"},
        {"points": 5, "state": "activated", "effect": "rotate"},
        {**THIRD, "state": "activated"},
        {**THIRD, "state": "activated"},
        {**THIRD, "state": "activated"},
        {**THIRD, "state": "activated"},
        {"points": 2, "state": "activated", "effect": "rotate"},
        {"points": 2, "state": "activated"},
        {"card": "EX-nowhere", "state": "validated"},
    ]
    doc = game("populist", player("P", line(3), epiphanies=eps))
    en = neweden.score(doc)
    pt = neweden.score(doc, lang=PT)
    assert shape(pt) == shape(en)
    notes = [e["note"] for e in pt["players"][0]["audit"]["epiphanies"]]
    assert notes == [
        "na mão, nunca validada",
        "validada",
        "uma Epifania de 5 pontos não pode ser ativada",
        "1/3 de estrela, num grupo de três que forma uma estrela",
        "1/3 de estrela, num grupo de três que forma uma estrela",
        "1/3 de estrela, num grupo de três que forma uma estrela",
        "1/3 de estrela que sobrou (menos de três): pontua como validada",
        "ativada (girar uma carta)",
        "ativada (sem efeito indicado)",
        "id desconhecido: não pontua",
    ]
    assert [e["note"] for e in en["players"][0]["audit"]["epiphanies"]][-3:] == [
        "activated (rotate)",
        "activated (no effect named)",
        "unknown id: not scored",
    ]


def test_every_requirement_sentence_of_the_audit_in_portuguese() -> None:
    spec = RequirementSpec("EX-A9", "A", "")  # no condition typed in
    requirements = {**BUILTIN.requirements, "EX-A9": spec}
    catalog = dataclasses.replace(BUILTIN, requirements=requirements)
    doc = game("populist", player("P", line(6)), requirements=["EX-A9", "B1", "EX-Z1"])
    en = neweden.score(doc, catalog=catalog)
    pt = neweden.score(doc, catalog=catalog, lang=PT)
    assert shape(pt) == shape(en)
    whys = [r["why"] for r in pt["players"][0]["audit"]["requirements"]]
    assert whys[0] == "sem condição no catálogo: não cumprido"
    assert whys[1].startswith("Requisito B1 cumprido: ")
    assert whys[2] == "id desconhecido: não cumprido"
    assert [r["why"] for r in en["players"][0]["audit"]["requirements"]][::2] == [
        "no condition in the catalog: not met",
        "unknown id: not met",
    ]


def test_a_lone_city_in_portuguese() -> None:
    for city, code, portuguese in [
        ([], "empty_city", "o projeto não tem nenhuma carta; é permitido"),
        (line(15), "style_count_over_box", "o projeto mostra 15 cartas comuns do Estilo"),
        ([*line(2), card(5, 5, "t")], "disconnected", "1 carta em (5, 5) não está ligada"),
        ([*line(2), card(0, 0, "r")], "overlap", "fica fora do projeto e da pontuação"),
    ]:
        en = neweden.validate({"city": city})
        pt = neweden.validate({"city": city}, lang=PT)
        assert shape(pt) == shape(en)
        assert portuguese in message(pt, code)
        assert message(pt, code) != message(en, code)


def test_the_context_language_is_the_report_language() -> None:
    doc = _overlap()
    with speaking(PT):
        inside = neweden.score(doc)
        answer = neweden.validate(doc)
    assert inside == neweden.score(doc, lang=PT)
    assert "sobreposição" in message(inside, "overlap")
    assert "sobreposição" in message(answer, "overlap")
    assert "left out of the city" in message(neweden.score(doc), "overlap")  # English after


def test_every_message_of_the_rules_has_its_portuguese() -> None:
    from babel.messages.pofile import read_po

    from neweden.i18n import LOCALE_DIR

    ours = ("neweden/rules/", "neweden/scoring/")
    with (LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "neweden.po").open("rb") as handle:
        catalog = read_po(handle)
    mine = [m for m in catalog if m.id and any(f.startswith(ours) for f, _ in m.locations)]
    assert len(mine) > 60
    for found in mine:
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        assert all(strings), found.id
        assert found.string != found.id, found.id
