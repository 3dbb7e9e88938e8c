"""Deals nobody can guess: a match or a widget made without a seed draws one from the
operating system, keeps it, and its replay deals the same again."""

import json

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core import rng as rng_module
from tabletop_widgets.core.rng import FRESH_SEED_BITS

GAMES = ["mamba", "mamma-mia", "mamma-mia-plus", "mammuz"]


@pytest.mark.parametrize("name", GAMES)
def test_an_unseeded_match_deals_from_a_fresh_seed_it_keeps(name):
    matches = [tw.Match(name) for _ in range(4)]
    seeds = [m.seed for m in matches]
    assert len(set(seeds)) == 4  # 2**53 possible seeds: a repeat here is a broken draw
    for m in matches:
        assert isinstance(m.seed, int) and 0 <= m.seed < 2 ** FRESH_SEED_BITS
        assert m.state_at(0) == m.game.new_state(m.seed)
        # the replay records the seed, so it reproduces the deal
        doc = json.loads(m.to_json())
        assert doc["seed"] == m.seed
        again = tw.Match.from_json(m.to_json())
        assert again.seed == m.seed and again.state_at(0) == m.state_at(0)


def test_unseeded_deals_differ():
    # a seat that knows its own hand must not know the deal: different seeds deal other hands
    hands = {tuple(tw.Match("mamma-mia", players=4).state.observe(0)["hand"]["ingredients"].items())
             for _ in range(8)}
    assert len(hands) > 1
    assert len({json.dumps(tw.Match("mammuz", players=4).state.observe(0)["hand"]) for _ in range(8)}) > 1


def test_the_seed_comes_from_the_operating_system(monkeypatch):
    drawn = []

    def randbits(bits):
        drawn.append(bits)
        return 123456789

    monkeypatch.setattr(rng_module.secrets, "randbits", randbits)
    m = tw.Match("mamma-mia", players=3)
    assert m.seed == 123456789 and drawn == [FRESH_SEED_BITS]
    assert m.state == m.game.new_state(123456789)


@pytest.mark.parametrize("name", GAMES)
def test_a_widget_given_a_game_deals_unseeded(name):
    widgets = [tw.widget(tw.make(name)), tw.widget(name), tw.widget(tw.make(name), seat=0)]
    seeds = [w.match.seed for w in widgets]
    assert all(isinstance(s, int) for s in seeds) and len(set(seeds)) == 3
    for w in widgets:
        assert w.match.state_at(0) == w.match.game.new_state(w.match.seed)


def test_a_given_seed_and_new_state_are_unchanged():
    for name in GAMES:
        game = tw.make(name)
        assert game.new_state() == game.new_state(seed=0) == tw.Match(game, seed=0).state_at(0)
        assert tw.Match(game, seed=7).seed == 7
        assert tw.widget(tw.Match(game, seed=3)).match.seed == 3
    with pytest.raises(ValueError, match="seed must be an int"):
        tw.Match("mamba", seed="1")
    # a match from a set-up state has no seed: its replay carries the state
    start = tw.make("mamba").new_state(0)
    assert tw.Match(start.game, state=start).seed is None
