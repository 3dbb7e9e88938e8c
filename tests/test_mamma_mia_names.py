"""Mamma Mia names an order card in every sentence by the name printed on its face, counts in
plural words, while the notation (actions, replays) keeps the cards' labels."""
import json
import os
import re

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core.rng import Rng, below_state
from tabletop_widgets.games.mamma_mia import position
from tabletop_widgets.games.mamma_mia.cards import order_name
from tabletop_widgets.games.mamma_mia.rules import DECK_DIR

KINDS_WORDS = "salami|pineapple|mushroom|pepper|olive|shrimp"
SPECIAL = {"bombastica", "monotoni", "ciottona", "minimale", "small_monotoni", "mini", "pizza_mamma_mia"}


def printed_names(edition):
    """The name each kind of order card has in the deck file, read from the file itself."""
    with open(os.path.join(DECK_DIR, f"{edition}.json"), encoding="utf-8") as f:
        deck = json.load(f)
    names = {}
    for cards in deck["orders"].values():
        for card in cards:
            names.setdefault(card["type"], set()).add(card["name"])
    return {t: n.pop() for t, n in names.items() if len(n) == 1}


def notation_words(game):
    """What a sentence must not say: the labels of the special orders, as the notation writes
    them ("monotoni", "mini 1 pineapple + ...", "small monotoni without pepper")."""
    labels = {o.label for o in game.deck if o.type in SPECIAL}
    return sorted(labels, key=len, reverse=True)


def sentences_of(match, players):
    """Every caption of every frame, for every seat and the all-seeing view, with each
    decision's question shown in a frame."""
    out = []
    for seat in [None, *range(players)]:
        for f in match.frames(seat):
            out.append((seat, f.kind, f.caption, f.data))
            decision = (f.view.get("evaluation") or {}).get("decision") if isinstance(f.view, dict) else None
            if decision and decision.get("question"):
                out.append((seat, "question", decision["question"], {}))
    return out


def random_match(name, players, seed):
    game = tw.make(name, players=players)
    match = tw.Match(game, seed=seed)
    r = Rng.from_seed(seed, stream=5).state
    while not match.state.is_over:
        legal = match.state.legal_actions()
        i, r = below_state(r, len(legal))
        match.play(str(legal[i]))
    return game, match


@pytest.mark.parametrize("name,edition,configs", [
    ("mamma-mia", "classic", [(3, 0), (4, 1), (5, 2), (4, 3), (3, 4), (5, 5), (4, 6), (5, 7)]),
    ("mamma-mia-plus", "plus", [(3, 0), (4, 1), (5, 2), (6, 3), (4, 4), (6, 5), (3, 6), (5, 7), (6, 8), (4, 9)]),
])
def test_every_caption_names_an_order_as_its_card_and_counts_in_plurals(name, edition, configs):
    printed = printed_names(edition)
    revealed_types, sentences_seen = set(), 0
    for players, seed in configs:
        game, match = random_match(name, players, seed)
        banned = notation_words(game)
        for seat, kind, text, data in sentences_of(match, players):
            sentences_seen += 1
            for label in banned:
                assert label not in text, (seat, text)
            assert not re.search(r"\border (bombastica|monotoni|ciottona|minimale|mini|small|pizza)\b", text), text
            assert " without " not in text, text
            # kinds are joined by words, not by the notation's "+" ("made with salami and olives")
            assert not re.search(r"[a-z]\+[a-z]", text), (seat, text)
            # an order's name in brackets stands in a sentence without brackets around it
            assert "))" not in text and ") (" not in text, (seat, text)
            # a count above one of a kind is a plural: "2 olives", never "2 olive"
            assert not re.search(rf"\b([02-9]|\d\d+) (pineapple|mushroom|pepper|olive)\b(?!s)", text), (seat, text)
            if kind == "reveal" and "order" in data:
                card = data["order"]
                revealed_types.add(card["type"])
                name_on_card = printed[card["type"]]
                assert f"'s order {name_on_card}" in text, text
                if card["type"] in ("bombastica", "monotoni", "ciottona", "minimale"):
                    assert text.endswith(f"'s order {name_on_card}."), text
        # the notation is unchanged: the replay's actions still carry the labels and load back
        actions = json.loads(match.to_json())["actions"]
        assert any(re.search(r"\border [a-z]", a) for a in actions)
        assert tw.Match.from_json(match.to_json()).state.to_json() == match.state.to_json()
    # the walk met special orders being revealed, not only the Normale ones
    assert len(revealed_types & SPECIAL) >= 3, revealed_types
    assert sentences_seen > 1000


@pytest.mark.parametrize("name", ["mamma-mia", "mamma-mia-plus"])
def test_order_name_is_the_printed_name_of_every_card_of_the_deck(name):
    game = tw.make(name, players=6 if name.endswith("plus") else 5)
    for card in game.deck:
        words = order_name(card, game.kinds)
        # a view's copy of the card (what the widget and the pictures get) is named alike
        assert order_name(card.to_dict(game.kinds)) == words
        assert words.startswith(card.name)
    # equal names are told apart exactly as far as the cards differ: one name, one label
    by_words = {}
    for card in game.deck:
        by_words.setdefault((card.colour, order_name(card, game.kinds)), set()).add(card.label)
    assert all(len(labels) == 1 for labels in by_words.values())


def test_the_names_read_as_the_cards_do():
    plus = tw.make("mamma-mia-plus", players=6)
    names = {(o.colour, o.label): order_name(o, plus.kinds) for o in plus.deck}
    yellow, green = plus.seat_names.index("Yellow"), plus.seat_names.index("Green")
    assert names[(yellow, "monotoni")] == "Monotoni"
    assert names[(yellow, "ciottona")] == "Ciottona"
    assert names[(yellow, "mini 1 pineapple + 1 mushroom + 1 pepper without olive")] == \
        "Mini pizza (1 pineapple + 1 mushroom + 1 pepper, no olives)"
    assert names[(yellow, "small monotoni without pepper")] == "Small Monotoni (no peppers)"
    assert names[(yellow, "pizza mamma mia 1 pineapple + 5 salami/shrimp")] == \
        "Pizza Mamma Mia (1 pineapple + 5 salami or 5 shrimp)"
    assert names[(green, "4 olive + 1 pepper")] == "Normale (4 olives + 1 pepper)"


def test_a_turn_names_its_order_by_the_card_for_its_player_only():
    game = tw.make("mamma-mia", players=4)
    state = position(game, hands={1: {"ingredients": {"salami": 3}, "orders": ["monotoni"]}}, to_move=1)
    after = state.apply("put 3 salami; order monotoni; draw supply")
    turn = after.events[0]
    name = game.seat_names[1]
    assert f"{name} puts the order Monotoni in the oven, face down." in turn.text
    assert "Monotoni" not in turn.public_text and "monotoni" not in turn.public_text
    assert f"{name} puts a {name.lower()} order in the oven, face down." in turn.public_text


def test_a_state_error_names_the_order_by_its_card():
    game = tw.make("mamma-mia-plus", players=3)
    doc = json.loads(game.new_state(0).to_json())
    hands = doc["state"]["hands_orders"]
    # one order card twice: the error names it as its card reads, not by its notation label
    hands[1] = hands[1] + [hands[0][0]]
    with pytest.raises(ValueError) as err:
        game.state_from_json(json.dumps(doc))
    card = game.deck[hands[0][0]]
    assert f"({order_name(card, game.kinds)}) is twice" in str(err.value)
