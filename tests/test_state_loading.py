"""Loaders accept only states that can be played on, and replays open no files.

``game.state_from_json`` raises only ``ValueError`` and ``tw.Match.from_json`` only
``tw.ReplayError``, for any input; every state they accept is over or has a legal action, and
play from it keeps every invariant. The property tests mutate valid states and replays of
every registered game, blindly (any JSON anywhere) and plausibly (cards moved between places,
shapes kept, pending decisions changed), and play on from each accepted one. Their totals are
printed in the terminal summary (tests/conftest.py).
"""

import builtins
import contextlib
import io
import json
import os
import pathlib

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core.game import OPTION_FILE_LIMIT
from tabletop_widgets.games.mamma_mia.rules import DECK_DIR


# replays open no files -------------------------------------------------------------------------
def classic_deck():
    with open(f"{DECK_DIR}/classic.json") as fh:
        return json.load(fh)


def replay_with_deck(deck):
    doc = json.loads(tw.Match("mamma-mia", players=3, seed=4).to_json())
    doc["options"]["deck"] = deck
    return json.dumps(doc)


@contextlib.contextmanager
def no_file_touched():
    """Inside: any attempt to open or inspect a file fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a file was touched: {args!r}")

    names = ((builtins, "open"), (io, "open"), (os, "open"), (os, "stat"), (os, "lstat"), (os, "scandir"),
             (os, "listdir"))
    saved = [getattr(module, name) for module, name in names]
    for module, name in names:
        setattr(module, name, refuse)
    try:
        yield
    finally:
        for (module, name), value in zip(names, saved):
            setattr(module, name, value)


def test_replays_naming_files_are_refused_at_once_with_one_message(tmp_path):
    os.mkfifo(tmp_path / "fifo")  # opening it for reading would wait for a writer for ever
    texts = {}
    for name, path in (("zero", "/dev/zero"), ("directory", str(tmp_path)), ("missing", str(tmp_path / "missing.json")),
                       ("fifo", str(tmp_path / "fifo")), ("relative", "decks/classic.json"),
                       ("a real deck", f"{DECK_DIR}/classic.json")):
        text = replay_with_deck(path)
        with no_file_touched(), pytest.raises(tw.ReplayError) as info:
            tw.Match.from_json(text)
        texts[name] = str(info.value)
    assert len(set(texts.values())) == 1, texts
    (text,) = set(texts.values())
    assert "cannot name a file" in text and "/dev" not in text and "tmp" not in text


def test_a_state_json_naming_a_deck_file_is_refused():
    game = tw.make("mamma-mia", players=3)
    doc = json.loads(game.new_state(2).to_json())
    doc["options"]["deck"] = "/dev/zero"
    with no_file_touched(), pytest.raises(ValueError, match="made with options"):
        game.state_from_json(json.dumps(doc))


def test_decks_by_name_or_as_data_round_trip_through_replays(monkeypatch):
    deck = classic_deck()
    deck["orders"]["green"] = deck["orders"]["green"][:3]
    by_data = tw.make("mamma-mia", players=2, deck=deck)
    by_name = tw.make("mamma-mia", players=2, deck="classic")
    assert by_name.deck == tw.make("mamma-mia", players=2).deck
    assert len([o for o in by_data.deck if o.colour == 1]) == 3
    with pytest.raises(ValueError, match="for the 'plus' edition, not 'classic'"):
        tw.make("mamma-mia", deck="plus")
    replays = []
    for game in (by_data, by_name):
        m = tw.Match(game, seed=3)
        m.autoplay({s: "random" for s in range(2)}, max_steps=10)
        replays.append((m, m.to_json()))
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda *a, **k: opened.append(a[0]) or real_open(*a, **k))
    for m, text in replays:
        again = tw.Match.from_json(text)
        assert again.game == m.game and again.state == m.state
        state = m.game.state_from_json(m.state.to_json())
        assert state == m.state
    # the registered deck is the package's own file; an inline deck opens nothing
    assert all(pathlib.Path(p).parent == pathlib.Path(DECK_DIR) for p in opened)


def test_a_deck_path_from_python_reads_only_a_regular_file_under_the_cap(tmp_path):
    good = tmp_path / "deck.json"
    deck = classic_deck()
    good.write_text(json.dumps(deck))
    game = tw.make("mamma-mia", players=3, deck=str(good))
    # the game keeps the data, not the path: its replays carry the deck inline
    assert game.options["deck"] == deck and str(good) not in json.dumps(game.spec())
    assert tw.make("mamma-mia", players=3, deck=good).options["deck"] == deck  # a pathlib.Path
    os.mkfifo(tmp_path / "fifo")
    for path, why in (("/dev/zero", "not a regular file"), (tmp_path, "not a regular file"),
                      (tmp_path / "fifo", "not a regular file"), (tmp_path / "missing.json", "cannot be read")):
        with pytest.raises(ValueError, match=why):
            tw.make("mamma-mia", deck=str(path))
    big = tmp_path / "big.json"
    big.write_text(" " * (OPTION_FILE_LIMIT + 1) + json.dumps(deck))
    with pytest.raises(ValueError, match="larger than"):
        tw.make("mamma-mia", deck=str(big))
    with pytest.raises(ValueError, match="cannot name a file; got a int"):
        tw.make("mamma-mia", deck=5)


def test_an_inline_deck_too_large_is_refused():
    deck = classic_deck()
    deck["orders"]["green"] = deck["orders"]["green"] * 20
    with pytest.raises(tw.ReplayError, match="at most 64"):
        tw.Match.from_json(replay_with_deck(deck))
