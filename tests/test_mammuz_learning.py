"""MammuZ's learning hooks: the action catalogue covers every legal action, the observation
vector has a fixed size and holds nothing the seat may not know."""

import json
import random

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core.rng import Rng


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_catalogue_and_vector_over_random_playouts(players):
    game = tw.make("mammuz", players=players)
    catalogue = game.action_catalogue()
    index = set(catalogue)
    assert len(index) == len(catalogue) and game.action_catalogue() == catalogue
    size = game.observation_size()
    rng = random.Random(players)
    seen_kinds = set()
    for seed in range(3):
        state = game.new_state(seed)
        for _ in range(300):
            if state.is_over:
                break
            legal = state.legal_actions()
            assert {str(a) for a in legal} <= index and len(legal) <= 18
            # the index of an action, found without its notation, is its notation's place
            assert [catalogue[game.action_index(a)] for a in legal] == [str(a) for a in legal]
            seat = state.to_move
            vector = game.observation_vector(state.observe(seat), seat)
            assert len(vector) == size
            assert all(isinstance(x, float) for x in vector)
            # What the seat may not know (other hands, face-down cards, the pile, the box) dealt
            # anew leaves its vector unchanged.
            other = state.vary_hidden(seat, Rng.from_seed(seed))
            assert game.observation_vector(other.observe(seat), seat) == vector
            action = rng.choice(legal)
            seen_kinds.add(str(action).split()[0])
            state = state._apply(action)
    assert {"claim", "add", "done", "challenge"} <= seen_kinds


def test_the_vector_sees_the_seats_own_hand_and_counts_seats_from_it():
    game = tw.make("mammuz", players=4)
    state = game.new_state(1)
    for seat in range(4):
        obs = state.observe(seat)
        v = game.observation_vector(obs, seat)
        assert v[:14] == [float(obs["hand"].get(c, 0)) for c in
                          ("mammoth", "bear", "deer", "tiger", "hare", "squirrel", "gopher", "mouse",
                           "brontosaurus", "pterosaur", "triceratops", "stegosaurus", "plesiosaur", "tyrannosaurus")]
        sizes = v[56:60]
        assert sizes == [float(obs["hand_sizes"][(seat + i) % 4]) for i in range(4)]
    # Different seats of the same state see different vectors (their own hands differ).
    assert len({tuple(game.observation_vector(state.observe(s), s)) for s in range(4)}) == 4


def test_when_every_species_has_died_out_the_game_ends_instead_of_leaving_no_legal_action():
    # Every species but the gopher is extinct. Bruno's lie is challenged and turns up a
    # Pterosaur: Carla takes the herd, holds all the gophers, and they die out too. The hands
    # now hold only dinosaurs and no herd can be named: the game must end (an environment or a
    # simulation would otherwise wait for a seat that has no legal action).
    game = tw.make("mammuz", players=4)
    others = [s for s in game.species if s != "gopher"]
    sizes = dict(zip(("mammoth", "bear", "deer", "tiger", "hare", "squirrel"), range(2, 8)))
    payload = {
        "hands": [["brontosaurus", "gopher"], ["pterosaur", "stegosaurus"], ["triceratops"] + ["gopher"] * 7, ["plesiosaur"]],
        "box": ["tyrannosaurus"], "starter": 0, "to_act": 0, "claim": None, "displays": [], "pile": [],
        "bases": {s: sizes[s] for s in others}, "dinosaurs_out": [], "extinct": others, "turned": [],
        "pending": None, "winner": None, "rng": 1,
    }
    state = game.state_from_json(json.dumps({**game.spec(), "state": payload}))
    for action in ("lay gopher: gopher", "lay gopher: pterosaur", "challenge 1"):
        state = state.apply(action)
    assert [e.kind for e in state.events] == ["turn", "take", "extinction", "end"]
    assert state.observe(None)["hand_sizes"] == [1, 1, 2, 1]
    # Fewest cards wins; the tie between Ada, Bruno and Dario goes to Dario, who would have
    # started next (the player after the taker, Carla).
    assert state.is_over and state.winners == (3,) and state.legal_actions() == []
    assert "Dario" in state.events[-1].text


def _no_notation(action):
    raise AssertionError(f"the notation of a {type(action).__name__} was written")


def test_the_environment_finds_action_indices_without_notation(monkeypatch):
    from tabletop_widgets.games.mammuz import rules
    from tabletop_widgets.pettingzoo import env

    e = env("mammuz", players=4)
    e.reset(seed=3)
    catalogue = e.unwrapped.catalogue
    seen = set()
    for _ in range(120):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            break
        legal = e.unwrapped.game_state.legal_actions()
        mask = obs["action_mask"]
        assert sorted(i for i, m in enumerate(mask) if m) == sorted(catalogue.index(str(a)) for a in legal)
        # from here on, writing any action's notation would fail: the steps must not need it
        with monkeypatch.context() as patch:
            for cls in (rules.Claim, rules.AddCard, rules.Done, rules.Challenge, rules.GiveHerd):
                patch.setattr(cls, "__str__", _no_notation)
            index = int(mask.nonzero()[0][len(seen) % int(mask.sum())])
            e.step(index)
        seen.add(catalogue[index].split()[0])
    assert {"claim", "add", "challenge"} <= seen
