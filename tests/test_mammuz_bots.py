"""MammuZ bots: the skeptic counts what its seat has seen; bots answer a lay with one action."""

import json

import tabletop_widgets as tw
from tabletop_widgets.games.mammuz.bots import RandomLays, Skeptic
from tabletop_widgets.games.mammuz.rules import DINOSAURS, SPECIES_SIZE, Lay

from mammuz_previous_skeptic import PreviousSkeptic

GAME = tw.make("mammuz", players=4)


def position(hands, displays, to_act, claim="hare"):
    """Seats 0–1 hold ``hands``; the cards not placed go to seats 2 and 3 (no whole species)."""
    hands = [list(h) for h in hands] + [[], []]
    placed = [c for h in hands for c in h] + [c for _, cards, _ in displays for c in cards]
    for species in GAME.species:
        for i in range(SPECIES_SIZE[species] - placed.count(species)):
            hands[2 + i % 2].append(species)
    dinos = [d for d in DINOSAURS if d not in placed]
    hands[2] += dinos[:4]
    payload = {
        "hands": hands, "box": dinos[4:], "starter": displays[0][0], "to_act": to_act, "claim": claim,
        "displays": [{"seat": s, "cards": list(c), "turned": list(up)} for s, c, up in displays],
        "pile": [], "bases": {}, "dinosaurs_out": [], "extinct": [], "turned": [],
        "pending": None, "winner": None, "rng": 5,
    }
    return GAME.state_from_json(json.dumps({**GAME.spec(), "state": payload}))


def wins(hero, others, games):
    won = 0
    for g in range(games):
        m = tw.Match("mammuz", seed=g, players=4)
        bots = {i: others(g * 10 + i) for i in range(4)}
        bots[g % 4] = hero(g)
        m.autoplay(bots, max_steps=3000)
        won += m.state.winners == (g % 4,)
    return won


def test_skeptic_beats_three_random_seats():
    won = wins(Skeptic, RandomLays, 300)
    assert won >= 225, f"the skeptic won {won} of 300 four-player games against random seats (measured 234)"


def test_skeptic_beats_three_copies_of_the_previous_skeptic():
    won = wins(Skeptic, PreviousSkeptic, 200)
    assert won > 60, f"the skeptic won {won} of 200 games against three previous skeptics (its share: 50; measured 72)"


def test_skeptic_counts_its_own_displays_by_their_cards():
    # Ada laid a hare and a deer as "2 hares"; Bruno, Carla and Dario expanded. Of 6 hares Ada
    # knows 1 in her hand and 1 in her own display (not 2, its size): 4 are unknown.
    s = position([["hare", "tiger", "tiger"], ["gopher"] * 3],
                 [(0, ["hare", "deer"], []), (1, ["gopher"], []), (2, ["deer"], []), (3, ["gopher"], [])], to_act=0)
    view = s.observe(0)
    assert Skeptic(0)._unknown(view, view["hand"], "hare") == 4


def test_skeptic_remembers_who_took_the_cards_it_saw_turned():
    bot = Skeptic(0)
    s = position([["hare", "tiger", "tiger"], ["gopher"] * 3], [(3, ["hare"], [])], to_act=0)
    before = s.observe(0)
    bot._remember(before)  # Ada answers Dario's herd claimed as hares...
    # ...she challenges, turns a true hare and takes it; Bruno then starts a herd of gophers
    after = dict(before, claim="gopher", turned=[{"displayer": 3, "card": "hare", "challenger": 0}])
    bot._remember(after)
    assert bot._taken(after) == {}  # the hare is in her own hand
    # Carla challenges Bruno and turns a tiger: a lie, so Bruno took the herd and the tiger
    later = dict(after, claim=None, turned=after["turned"] + [{"displayer": 1, "card": "tiger", "challenger": 2}])
    assert bot._taken(later) == {1: {"tiger": 1}}


def test_skeptic_challenges_a_display_its_counting_makes_impossible():
    # Ada holds 4 hares and laid the other 2 herself: Dario's "hare" cannot be true.
    s = position([["hare"] * 4 + ["tiger"], ["gopher"] * 3 + ["deer"]],
                 [(0, ["hare", "hare"], []), (1, ["deer"], []), (2, ["deer"], []), (3, ["deer"], [])], to_act=0)
    assert Skeptic(0)._chance_true(s.observe(0), s.observe(0)["hand"]) == 0.0
    for seed in range(10):
        assert str(Skeptic(seed).choose(s.observe(0), s.legal_actions())) == "challenge 1"


def test_bots_answer_a_lay_with_one_whole_lay():
    m = tw.Match("mammuz", seed=3, players=4)
    m.autoplay({0: "skeptic", 1: "random", 2: "skeptic", 3: "random"}, max_steps=400)
    assert m.state.is_over
    for action in m.actions:
        assert isinstance(action, Lay) or str(action).split()[0] in ("challenge", "give")
    assert {type(a).__name__ for a in m.actions} >= {"Lay", "Challenge"}
