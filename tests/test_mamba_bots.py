"""Mamba bots: registration, the observation-only contract, determinism and strength."""

import json

import pytest

import tabletop_widgets as tw
from tabletop_widgets.games.mamba.bots import GreedyBot


def test_greedy_is_registered_for_mamba():
    bots = tw.bots.for_game("mamba")
    assert bots["greedy"] is GreedyBot and "random" in bots


def test_greedy_sees_only_the_observation_and_is_seeded():
    state = tw.make("mamba", players=3, isolation="cross").new_state()
    match = tw.Match(state.game)
    for _ in range(12):
        s = match.state
        obs = json.loads(json.dumps(s.observe(s.to_move)))  # plain JSON: no engine object inside
        first = GreedyBot(seed=4).choose(obs, s.legal_actions())
        again = GreedyBot(seed=4).choose(obs, s.legal_actions())
        assert first == again and first in s.legal_actions()
        match.play(first)


def test_greedy_takes_a_capture_and_the_win():
    game = tw.make("mamba")
    # North has 5 stones, one above the goal: a few actions (d3-d5, c5*d5, e7*e8…) turn a
    # North stone and win at once, among about a hundred.
    state = game.position("N1N1N1N2/9/S1S1S1S1S/9/2S1N4/9/3S5/9/9 S")
    legal = state.legal_actions()
    winning = {str(a) for a in legal if state.apply(a).winners == (0,)}
    assert state.scores == (7, 5) and "d3-d5" in winning and len(winning) * 10 < len(legal)
    for seed in range(5):
        choice = GreedyBot(seed=seed).choose(state.observe(0), legal)
        assert str(choice) in winning


def test_autoplay_with_named_bots():
    match = tw.Match("mamba", seed=0)
    match.autoplay({0: "greedy", 1: "random"}, max_steps=30)
    assert len(match) == 30 or match.state.is_over


@pytest.mark.slow
def test_greedy_beats_random_nine_times_in_ten():
    """200 two-player games, the greedy bot alternating seats; unfinished games count as lost."""
    game = tw.make("mamba")
    turn_cap = 120
    won = finished = 0
    for g in range(200):
        greedy_seat = g % 2
        bots = {greedy_seat: GreedyBot(seed=g), 1 - greedy_seat: tw.bots.Random(seed=g)}
        state = game.new_state()
        while not state.is_over and state.turn <= turn_cap:
            seat = state.to_move
            state = state.apply(bots[seat].choose(state.observe(seat), state.legal_actions()))
        finished += state.is_over
        won += greedy_seat in state.winners
    print(f"\ngreedy against random: {won}/200 won, {finished} finished")
    assert won >= 180
