"""The board data file (spec 3.2): one file, every value sourced or marked reconstructed, replaceable by
an operator, reported at start-up."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.games.amunre import board
from app.games.amunre.board import BOARD, DEFAULT_PATH
from app.main import create_app
from app.settings import Settings

# province: the facts the sources state (the board-data research, section 1)
KNOWN: dict[str, dict[str, object]] = {
    "Buto": {"card_limit": 0, "free_cards": 1},
    "Mendes": {"card_limit": 0},
    "Memphis": {"card_limit": 3, "free_blocks": 2, "side": "west"},
    "Amarna": {"side": "east"},
    "Baharya": {"printed_farmers": 2},
    "Damanhur": {"temples": 2},
    "Edfu": {"temples": 1, "side": "west", "free_cards": 1},
    "Berenike": {"farm_spaces": 0, "income": 8, "side": "east"},
    "Abu": {"income": 4, "side": "east"},
    "Kharga": {"camel_income": 5},
    "Sawu": {"camel_income": 7},
    "Avaris": {"camel_income": 8},
    "Thebes": {"free_cards": 2},
    "Abydos": {"free_blocks": 1},
    "Dakhla": {"free_cards": 1, "free_gold": 12},
}


def test_every_value_has_a_source_or_its_constraint() -> None:
    doc = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    cells = [cell for row in doc["provinces"] for key, cell in row.items() if key != "name"]
    cells += [cell for row in doc["temple_scale"].values() for cell in row] + [doc["start_gold"]]
    assert all(("source" in cell) != ("reconstructed" in cell) for cell in cells)
    assert all(cell.get("source") or cell.get("reconstructed") for cell in cells)
    assert BOARD.values == len(cells)
    assert BOARD.reconstructed == sum("reconstructed" in cell for cell in cells) == 85
    assert BOARD.doubts == sum("doubt" in cell for cell in cells) == 1


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_the_sourced_facts(name: str) -> None:
    province = BOARD.provinces[BOARD.index(name)]
    for field, value in KNOWN[name].items():
        assert getattr(province, field) == value, field


def _cell(province: str, field: str) -> dict[str, object]:
    doc = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    cell: dict[str, object] = next(row for row in doc["provinces"] if row["name"] == province)[field]
    return cell


def test_what_the_search_of_public_sources_found_is_in_the_file_with_its_source() -> None:
    """Memphis west and Amarna east (the WBC 2016 report's final); Amarna 1 or 2 temples and Edfu exactly
    1 (its half-time scores); Mendes a farming province; Sawu likely the province that changes side."""
    for province in ("Memphis", "Amarna"):
        assert "WBC 2016" in str(_cell(province, "side")["source"])
    assert "WBC 2016" in str(_cell("Edfu", "temples")["source"])
    assert BOARD.provinces[BOARD.index("Amarna")].temples in (1, 2)
    assert "1 or 2" in str(_cell("Amarna", "temples")["reconstructed"])
    mendes = BOARD.provinces[BOARD.index("Mendes")].farm_spaces
    assert mendes == max(p.farm_spaces for p in BOARD.provinces)
    assert "farming province" in str(_cell("Mendes", "farm_spaces")["reconstructed"])
    sawu = _cell("Sawu", "egypt")
    assert "reconstructed" in sawu and "changes side" in str(sawu["doubt"])


def test_the_constraints_on_the_reconstructed_values() -> None:
    provinces = BOARD.provinces
    assert sum(p.side == "west" for p in provinces) == 8
    assert sum(p.egypt == "upper" for p in provinces) == 7
    assert sum(p.nile_bank for p in provinces) in (7, 8)
    assert all(0 <= p.farm_spaces <= 6 and 0 <= p.card_limit <= 4 for p in provinces)
    fours = [p.name for p in provinces if p.card_limit == 4]
    assert len(fours) == 1 and fours[0] in ("Abydos", "Kharga")
    rest = sorted(
        (p.card_limit for p in provinces if p.name not in ("Abydos", "Amarna", "Kharga")), reverse=True
    )
    assert sum(rest[:3]) <= 6  # WBC 2005: without those three, 7 symbols were out of reach
    assert {p.name for p in provinces if p.temples} == {"Damanhur", "Edfu", "Amarna"}
    assert sum(p.farm_spaces for p in provinces) + 5 <= 45  # every space and the Free Farmers
    assert (
        BOARD.space_for(3) == BOARD.space_for(12) == 2
        and BOARD.space_for(2) == 1
        and BOARD.space_for(13) == 3
    )


def test_an_operator_can_replace_the_file(tmp_path: Path) -> None:
    doc = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    doc["provinces"][0]["farm_spaces"] = {"value": 5, "source": "the board, read by the operator"}
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    replaced = board.load(path)
    assert replaced.provinces[0].farm_spaces == 5 and replaced.reconstructed == BOARD.reconstructed - 1
    doc["provinces"][0]["farm_spaces"] = {"value": 5}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError):
        board.load(path)


def test_the_path_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(board.PATH_VARIABLE, str(tmp_path / "mine.json"))
    assert board.board_path() == tmp_path / "mine.json"
    monkeypatch.delenv(board.PATH_VARIABLE)
    assert board.board_path() == DEFAULT_PATH


def test_the_server_logs_how_many_values_are_reconstructed(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="app.main")
    with TestClient(create_app(settings)):
        pass
    lines = [r.getMessage() for r in caplog.records if board.board_report() in r.getMessage()]
    assert len(lines) == 1 and f"{BOARD.reconstructed} of {BOARD.values}" in lines[0]  # the start-up note
    assert f"and {BOARD.doubts} in doubt" in lines[0]
