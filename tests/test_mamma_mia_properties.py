"""Mamma Mia! properties over thousands of seeded random games, driven directly (no Match
overhead): conservation at every action (and, for a sample, at every sub-step), constant
order cards per colour, scores counted from the events, replays, JSON round trips,
legal/illegal actions, and what each seat may see."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop_widgets as tw
from tabletop_widgets.core import Rng
from tabletop_widgets.games.mamma_mia import position
from tabletop_widgets.games.mamma_mia.rules import MAMMA_MIA

CONFIGS = [("mamma-mia", p, {}) for p in (2, 3, 4, 5)] + [("mamma-mia-plus", p, {}) for p in (2, 3, 4, 5, 6)] + [
    ("mamma-mia", 3, {"optional_actions": True}),
    ("mamma-mia", 4, {"bombastica_from_hand": False, "first_player": 2}),
    ("mamma-mia-plus", 4, {"help": False}),
    ("mamma-mia-plus", 3, {"optional_actions": True}),
]
GAMES = 1000  # random games per edition × player count (the option variants play a tenth)
DEEP_EVERY = 20  # one game in this many validates every sub-step's state (50 per configuration)
REPLAY_EVERY = 50  # one game in this many is replayed from its notations


def ids(config):
    name, players, options = config
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in options.items())


def check_cards(game, state):
    """Cheap conservation, independent of ``validate``: every ingredient card of each kind is in
    exactly one of supply, hands, unrevealed oven, table and used; each colour's delivered +
    waiter + hand + unrevealed oven orders (+ the one being settled) is the colour's deck."""
    nk, P = game.nk, game.players
    ing = [0] * nk
    for c in state.supply:
        if c != MAMMA_MIA:
            ing[c] += 1
    orders = [0] * P
    for s in range(P):
        for k in range(nk):
            ing[k] += state.hands_ing[s][k]
        orders[s] += len(state.delivered[s]) + len(state.waiters[s]) + len(state.hands_ord[s])
    for i in range(state.cursor, len(state.oven)):
        item = state.oven[i]
        if item[0] == "i":
            ing[item[2]] += item[3] - (state.part if i == state.cursor else 0)
        else:
            orders[item[1]] += 1
    last = state.oven[state.cursor - 1] if state.phase == "evaluation" and state.cursor else None
    if last is not None and last[0] == "o" and last[2] not in state.delivered[last[1]] + state.waiters[last[1]]:
        orders[last[1]] += 1  # revealed and being settled (waiting for a decision, or just revealed)
        assert state.pending is None or state.pending[1] == last[2]
    else:
        assert state.pending is None
    for k in range(nk):
        ing[k] += state.table[k] + state.used[k]
    assert ing == [game.per_kind] * nk, ing
    assert orders == [len(game.orders_of[s]) for s in range(P)], orders
    if game.has_mamma_mia:
        assert state.supply.count(MAMMA_MIA) == (state.mm == "supply")


def playout(game, seed, deep=False):
    """A seeded random game with the cheap checks after every action (and ``validate`` plus the
    checks at every sub-step if ``deep``). Returns the end, the actions and the points counted
    from the events: +1 for the owner of each pizza made, +1 for its helper."""
    rng = Rng.from_seed(seed, stream=11)
    state = game.new_state(seed)
    state.validate()
    points = [0] * game.players
    actions = []
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"seed {seed}: no legal action at step {len(actions)}"
        assert state.to_move in range(game.players)
        action, rng = rng.choice(legal)
        state = state._apply(action)
        actions.append(action)
        for event in state.events:
            if event.kind == "made":
                points[event.data["seat"]] += 1
                if event.data["helper"] is not None:
                    points[event.data["helper"]] += 1
            if deep and event.after is not None:
                event.after.validate()  # every card in exactly one place at every sub-step
                check_cards(game, event.after)
        check_cards(game, state)
        assert list(state.scores) == points, f"seed {seed}: scores {state.scores} but the events give {points}"
        assert len(actions) < 5000
    state.validate()
    return state, actions, points


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_random_games_keep_every_card_in_exactly_one_place(config):
    name, players, options = config
    game = tw.make(name, players=players, **options)
    n = GAMES // (10 if options else 1)
    made = 0
    for seed in range(n):
        end, actions, points = playout(game, seed, deep=seed % DEEP_EVERY == 0)
        assert end.legal_actions() == [] and end.to_move is None
        view = end.observe(None)
        assert [p["delivered"] for p in view["players"]] == points == view["scores"]
        best = max(points)
        assert end.winners and all(points[w] == best for w in end.winners)
        most = max(sum(end.hands_ing[w]) for w in end.winners)
        for s in set(range(players)) - set(end.winners):  # fewer points, or tied with fewer cards
            assert points[s] < best or sum(end.hands_ing[s]) < most
        made += sum(points)
        if seed % REPLAY_EVERY == 0:
            # the same seed and the same notations give the same game, card for card
            again = game.new_state(seed)
            for a in actions:
                again = again.apply(str(a))
            assert again.to_json() == end.to_json()
    assert made > n  # pizzas do get made in random play


PLAYOUT_GAMES = 300  # random games per configuration played both ways (the option variants a tenth)


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
def test_a_playout_changed_in_place_plays_as_apply(config):
    # state.playout() writes each action into its own fields; apply makes a new state: the same
    # game, field for field, and nothing handed out earlier changes
    name, players, options = config
    game = tw.make(name, players=players, **options)
    for seed in range(PLAYOUT_GAMES // (10 if options else 1)):
        pick = Rng.from_seed(seed, stream=5)
        state = game.new_state(seed)
        p = state.playout()
        watched = None  # a snapshot, a view and the state they came from, checked later
        step = 0
        while not state.is_over:
            legal = p.legal_actions()
            assert legal == state.legal_actions() and p.to_move == state.to_move and not p.is_over
            action, pick = pick.choice(legal)
            if step % 7 == 0:
                watched = (p.snapshot(), p.observe(p.to_move), state)
            state = state._apply(action)
            p.play(action)
            assert p.snapshot()._payload() == state._payload()
            if seed % 10 == 0:
                assert all(p.observe(s) == state.observe(s) for s in [None, *range(players)])
            if watched is not None and step % 7 == 6:
                snapshot, view, then = watched
                assert snapshot._payload() == then._payload() and view == then.observe(then.to_move)
            step += 1
        assert p.is_over and p.legal_actions() == [] and p.to_move is None
        assert (p.scores, p.winners) == (state.scores, state.winners)


def test_a_playout_is_a_position_of_its_own():
    game = tw.make("mamma-mia-plus", players=4)
    state = game.new_state(3)
    text = state.to_json()
    p = state.playout()
    action = p.legal_actions()[0]
    after = p.apply(action)  # the checked path gives a new state and leaves the playout
    assert type(after) is type(state) and after.events and p.snapshot().to_json() == text
    p.play(action)
    assert state.to_json() == text and p.snapshot().to_json() == after.to_json()
    with pytest.raises(AttributeError, match="no events"):
        p.events
    with pytest.raises(TypeError):
        hash(p)
    assert p.playout() is not p and p.playout().snapshot().to_json() == after.to_json()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 2**31 - 1), plus=st.booleans(), players=st.integers(2, 6), optional=st.booleans(),
       from_hand=st.booleans(), first=st.integers(0, 5), help_=st.booleans())
def test_any_seed_and_options_keep_every_invariant(seed, plus, players, optional, from_hand, first, help_):
    name = "mamma-mia-plus" if plus else "mamma-mia"
    players = players if plus else min(players, 5)
    options = {"optional_actions": optional, "bombastica_from_hand": from_hand, "first_player": first % players}
    if plus:
        options["help"] = help_ and players > 2
    game = tw.make(name, players=players, **options)
    end, actions, points = playout(game, seed, deep=True)
    assert end.phase == "over" and list(end.scores) == points
    assert end.oven_number == game.ovens


@pytest.mark.parametrize("config", CONFIGS[:9], ids=ids)
def test_replays_and_state_json_round_trip(config):
    name, players, options = config
    game = tw.make(name, players=players, **options)
    for seed in range(2):
        match = tw.Match(game, seed=seed)
        rng = Rng.from_seed(seed, stream=12)
        while not match.state.is_over:
            action, rng = rng.choice(match.state.legal_actions())
            match.play(action)
        again = tw.Match.from_json(match.to_json())
        assert again.to_json() == match.to_json()
        assert again.state.to_json() == match.state.to_json()
        for step in range(0, len(match) + 1, 9):
            state = match.state_at(step)
            text = state.to_json()
            back = game.state_from_json(text)
            assert back.to_json() == text and back.legal_actions() == state.legal_actions()
            assert back.observe(None) == state.observe(None)


@pytest.mark.parametrize("config", CONFIGS[:9], ids=ids)
def test_illegal_actions_raise_and_change_nothing(config):
    name, players, options = config
    game = tw.make(name, players=players, **options)
    rng = Rng.from_seed(3, stream=13)
    state = game.new_state(3)
    seen = set()
    checked = 0
    while not state.is_over:
        legal = state.legal_actions()
        notations = {str(a) for a in legal}
        assert len(notations) == len(legal)
        if checked < 60:
            before = state.to_json()
            for bad in list(seen - notations)[:3] + ["draw both", "make with nothing"]:
                with pytest.raises(tw.IllegalAction):
                    state.apply(bad)
            assert state.to_json() == before
            checked += 1
        seen |= notations
        action, rng = rng.choice(legal)
        state = state.apply(str(action))


@pytest.mark.parametrize("config", CONFIGS[:9], ids=ids)
def test_observe_hides_what_the_seat_cannot_see(config):
    name, players, options = config
    game = tw.make(name, players=players, **options)
    rng = Rng.from_seed(5, stream=14)
    state = game.new_state(5)
    steps = 0
    differed = 0
    while not state.is_over:
        if steps % 7 == 0:
            for seat in range(players):
                rng, sub = Rng(rng.state + 1), rng
                other = state.vary_hidden(seat, sub)
                other.validate()
                a = json.dumps(state.observe(seat), sort_keys=True)
                assert json.dumps(other.observe(seat), sort_keys=True) == a
                assert json.dumps(other.observe(seat, tally=True), sort_keys=True) == json.dumps(
                    state.observe(seat, tally=True), sort_keys=True)
                differed += other.to_json() != state.to_json()
        action, rng = rng.choice(state.legal_actions())
        state = state._apply(action)
        steps += 1
    assert differed


def test_observe_shows_exactly_the_public_parts():
    game = tw.make("mamma-mia", players=4)
    state = position(game, hands={0: {"ingredients": {"salami": 3}, "orders": ["monotoni"]},
                                  1: {"ingredients": {"olive": 2}, "orders": ["minimale"]}},
                     oven=[(2, "2 pepper"), (2, "order bombastica"), (3, "1 olive")], base={"mushroom": 2})
    view = state.observe(1)
    text = json.dumps(view)
    assert view["hand"] == {"ingredients": {"olive": 2}, "orders": [view["hand"]["orders"][0]]}
    assert view["hand"]["orders"][0]["type"] == "minimale"
    assert '"monotoni"' not in text and '"bombastica"' not in text and "hands" not in view
    assert "rng" not in text and view["supply"] == len(state.supply)
    assert view["oven"]["log"] == [{"seat": None, "kind": "mushroom", "count": 2, "base": True},
                                   {"seat": 2, "kind": "pepper", "count": 2}, {"seat": 2, "order": "brown"},
                                   {"seat": 3, "kind": "olive", "count": 1}]
    assert view["oven"]["size"] == 6 and view["oven"]["tally"] is None
    tally = state.observe(1, tally=True)["oven"]["tally"]
    assert tally == {"ingredients": {"mushroom": 2, "pepper": 2, "olive": 1}, "orders": {"brown": 1}}
    assert [p["hand_orders"] for p in view["players"]] == [1, 1, 0, 0]
    # the all-seeing view shows every hand
    assert state.observe(None)["hands"][0]["ingredients"] == {"salami": 3}


def test_frames_of_an_evaluation_step_through_each_reveal():
    game = tw.make("mamma-mia", players=4)
    start = position(game, to_move=1, supply={}, mamma_mia=0, hands={1: {"ingredients": {"olive": 2}}},
                     oven=[(0, "3 pineapple"), (1, "order 4 pineapple + 1 pepper"), (2, "1 pepper")])
    match = tw.Match(game, state=start)
    match.play("put 2 olive; draw supply")
    frames = match.frames_of_step(1, seat=3)
    kinds = [f.kind for f in frames]
    assert kinds[:5] == ["turn", "oven-closed", "reveal", "reveal", "reveal"]
    # Yellow's 3 pineapple come one card per frame; stepping back a frame takes one card back
    pineapple = {"type": "ingredient", "kind": "pineapple", "seat": 0}
    assert [f.view["evaluation"]["revealed"] for f in frames[2:5]] == [[pineapple] * n for n in (1, 2, 3)]
    assert [f.view["table"]["pineapple"] for f in frames[2:5]] == [1, 2, 3]
    assert [f.view["evaluation"]["remaining"] for f in frames[2:5]] == [6, 5, 4]
    order_frame = frames[5]
    assert order_frame.view["evaluation"]["revealed"][-1]["label"] == "4 pineapple + 1 pepper"
    assert kinds[6] == "sent-back"  # Green holds no card: publicly, nothing can be added
    assert frames[-1].view == match.state.observe(3)


def test_each_hidden_part_alone_leaves_the_view_unchanged():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, hands={0: {"ingredients": {"salami": 3}, "orders": ["monotoni"]},
                                  2: {"ingredients": {"olive": 2, "pepper": 1}, "orders": ["minimale"]}},
                     oven=[(2, "2 pepper"), (2, "order bombastica"), (3, "1 olive")])
    views = {seat: json.dumps(state.observe(seat), sort_keys=True) for seat in range(4)}

    def same_for(seat, other):
        other.validate()
        assert other.to_json() != state.to_json()
        assert json.dumps(other.observe(seat), sort_keys=True) == views[seat]

    # another hand's content (same size): Brown's olive becomes a salami taken from the supply
    k_salami, k_olive = game.kinds.index("salami"), game.kinds.index("olive")
    i = state.supply.index(k_salami)
    hands = list(state.hands_ing)
    hands[2] = tuple(n + (k == k_salami) - (k == k_olive) for k, n in enumerate(hands[2]))
    supply = state.supply[:i] + (k_olive,) + state.supply[i + 1:]
    same_for(0, state._with(hands_ing=tuple(hands), supply=supply))
    # the supply's order
    same_for(1, state._with(supply=tuple(reversed(state.supply))))
    # a waiter's order (even the viewer's own)
    waiters = list(state.waiters)
    waiters[1] = tuple(reversed(waiters[1]))
    same_for(1, state._with(waiters=tuple(waiters)))
    # the content of Brown's order in the oven, swapped with one of his waiter
    oven = list(state.oven)
    secret, swap = oven[1][2], state.waiters[2][0]
    oven[1] = ("o", 2, swap)
    waiters = list(state.waiters)
    waiters[2] = (secret,) + state.waiters[2][1:]
    same_for(0, state._with(oven=tuple(oven), waiters=tuple(waiters)))


def test_other_seats_frames_never_name_a_hidden_order_or_drawn_card():
    match = tw.Match("mamma-mia", seed=2, players=3)
    rng = Rng.from_seed(2, stream=15)
    for _ in range(30):
        action, rng = rng.choice(match.state.legal_actions())
        match.play(action)
    for step in range(1, 31):
        state = match.state_at(step)
        if state.events[0].kind != "turn" or match.state_at(step - 1).phase != "turn":
            continue
        player = match.state_at(step - 1).turn
        action = match.actions[step - 1]
        for seat in range(3):
            frame = match.frames_of_step(step, seat)[0]
            if seat == player:
                assert frame.caption.startswith(state.events[0].text[:20])
            else:
                if action.order is not None:
                    assert action.order not in frame.caption
                # "draws 3 from the supply." — no list of the cards drawn
                assert "supply:" not in frame.caption and "waiter:" not in frame.caption


@pytest.mark.parametrize("name, players", [("mamma-mia", 4), ("mamma-mia-plus", 6)])
def test_views_are_read_only_for_the_engine_and_every_reader(name, players):
    """Views share their parts (a hand, the table, a seat's counts, the oven log, the game's
    cards, a decision) with other views and other states' views, so nothing may change one in
    place. Whole games read by everything that reads views — the Chef bot, the learning vector,
    the SVG picture, the match's frames and their wire patches — leave every view taken along
    the way equal to a deep copy made when it was taken."""
    import copy

    from tabletop_widgets.core.wire import encode_frames
    from tabletop_widgets.games.mamma_mia.bots import Chef
    from tabletop_widgets.games.mamma_mia.svg import state as state_svg

    game = tw.make(name, players=players)
    taken = []
    for seed in range(2):
        match = tw.Match(game, seed=seed)
        chef = [Chef(seed=seed * 10 + s) for s in range(players)]
        while not match.state.is_over:
            state = match.state
            views = [state.observe(s) for s in range(players)] + [state.observe(None, tally=True)]
            taken.extend((view, copy.deepcopy(view)) for view in views)
            seat = state.to_move
            game.observation_vector(views[seat], seat)
            if len(taken) % 7 == 0:
                state_svg(state, seat)
            match.play(chef[seat].choose(views[seat], state.legal_actions()))
        for seat in (0, None):
            frames = match.frames(seat)
            encode_frames([f.to_dict() for f in frames])
            taken.extend((f.view, copy.deepcopy(f.view)) for f in frames[-40:])
    # shared parts really are shared (so this test watches what it means to)
    assert any(a["hand"] is not None and b["hand"] is not None and a is not b
               and a["hand"]["orders"] is b["hand"]["orders"] for (a, _), (b, _) in zip(taken, taken[players + 1:]))
    changed = [i for i, (view, copied) in enumerate(taken) if view != copied]
    assert not changed, f"{len(changed)} views changed in place, the first at {changed[0]}"


@pytest.mark.parametrize("name, players", [("mamma-mia", 4), ("mamma-mia-plus", 6), ("mamma-mia-plus", 3)])
def test_a_decision_shared_between_views_is_the_one_each_state_asks(name, players):
    """A decision's view is kept by what its question names (oven.decision): every decision of
    random games, for every seat and the all-seeing view, equals the one built anew from its
    state, so nothing the question depends on is missing from what it is kept by."""
    import random

    from tabletop_widgets.games.mamma_mia import oven

    game = tw.make(name, players=players)
    asked = 0
    for seed in range(12):
        state, rnd = game.new_state(seed), random.Random(seed)
        while not state.is_over:
            state = state._apply(rnd.choice(state.legal_actions()))
            if state.phase == "evaluation" and state.pending is not None:
                for seat in [*range(players), None]:
                    assert oven.decision(state, seat) == oven._decision(state, seat)
                    asked += 1
    kept = game._decision_views
    assert asked > 2 * len(kept) > 0  # questions repeat: most come from what is kept
