"""Hostile state JSON and replays: counts that no deal can reach are refused when loaded, with
a ValueError (a ReplayError from a replay), not found later by a view or a widget."""

import json
import random

import pytest

import tabletop_widgets as tw


def mid_evaluation(name, players, seed):
    """A state of ``name`` in the middle of an oven evaluation, with ingredients revealed."""
    game = tw.make(name, players=players)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not (state.phase == "evaluation" and any(it[0] == "i" for it in state.oven[:state.cursor])):
        state = state.apply(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("name, players, seed", [("mamma-mia", 4, 5), ("mamma-mia-plus", 6, 3)])
@pytest.mark.parametrize("revealed", [True, False])
def test_an_oven_entry_holding_more_cards_than_the_game_has_is_refused(name, players, seed, revealed):
    # A revealed entry's count was checked only to be >= 1: 10**18 peppers loaded, and the
    # first view of the oven (any widget, replay or bot) tried to lay out one card per count.
    game, state = mid_evaluation(name, players, seed)
    doc = json.loads(state.to_json())
    oven = doc["state"]["oven"]
    index = next(i for i, it in enumerate(oven) if it[0] == "i" and (i < state.cursor) == revealed)
    for count in (game.per_kind + 1, 10**18):
        oven[index][3] = count
        with pytest.raises(ValueError, match="oven"):
            game.state_from_json(json.dumps(doc))
        replay = {"game": name, "players": players, "options": doc["options"], "start": doc["state"], "actions": []}
        with pytest.raises(tw.ReplayError):
            tw.Match.from_json(json.dumps(replay))


def test_the_cards_of_a_kind_in_an_oven_stay_within_the_deck_over_whole_games():
    # the bound the loader applies holds for every state of real games (so it refuses no deal)
    for name, players in (("mamma-mia", 4), ("mamma-mia-plus", 6)):
        game = tw.make(name, players=players)
        for seed in range(3):
            rng = random.Random(seed)
            state = game.new_state(seed=seed)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_actions()))
                inside = [0] * game.nk
                for it in state.oven:
                    if it[0] == "i":
                        inside[it[2]] += it[3]
                assert max(inside) <= game.per_kind
                assert game.state_from_json(state.to_json()).to_json() == state.to_json()
