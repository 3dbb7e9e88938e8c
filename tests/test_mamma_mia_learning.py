"""Mamma Mia's learning hooks: the action catalogue holds every legal action of both editions
(each once, the same in every process), and the observation vector has a fixed size, encodes
what the seat sees and nothing it may not know."""

import hashlib
import json
import os
import random
import subprocess
import sys

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core.rng import Rng
from tabletop_widgets.games.mamma_mia import position
from tabletop_widgets.games.mamma_mia.cards import Turn
from tabletop_widgets.games.mamma_mia.learning import observation_layout, order_labels

CONFIGS = [
    ("mamma-mia", 2, {}),
    ("mamma-mia", 3, {"optional_actions": True}),
    ("mamma-mia", 5, {"bombastica_from_hand": False}),
    ("mamma-mia-plus", 2, {}),
    ("mamma-mia-plus", 3, {"help": False, "optional_actions": True}),
    ("mamma-mia-plus", 4, {"optional_actions": True}),
    ("mamma-mia-plus", 6, {}),
]


def _kind_of(notation):
    """The family of an action's notation, to see which ones the playouts reached."""
    for prefix in ("make with", "make adding", "ask", "send back", "help", "refuse", "draw 5 ingredients", "pass"):
        if notation.startswith(prefix):
            return prefix
    return "short draw" if " from " in notation else "turn"


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_every_legal_action_of_random_games_is_in_the_catalogue(name, players, options):
    game = tw.make(name, players=players, **options)
    catalogue = game.action_catalogue()
    index = set(catalogue)
    assert isinstance(catalogue, tuple) and all(isinstance(a, str) for a in catalogue)
    assert len(index) == len(catalogue)  # each notation once
    assert tw.make(name, players=players, **options).action_catalogue() == catalogue  # a fixed order
    rng = random.Random(players)
    reached = set()
    for seed in range(40):
        state = game.new_state(seed)
        while not state.is_over:
            legal = state.legal_actions()
            notations = [str(a) for a in legal]
            missing = [n for n in notations if n not in index]
            assert not missing, f"seed {seed}: {missing} not in the catalogue"
            reached.update(map(_kind_of, notations))
            state = state._apply(rng.choice(legal))
    # the playouts went through evaluations and decisions, not only turns
    assert {"turn", "make adding", "send back"} <= reached
    if game.help:
        assert {"ask", "help", "refuse"} <= reached
    if options.get("optional_actions"):
        assert {"short draw", "pass"} <= reached
    assert ("draw 5 ingredients" in reached) == (name == "mamma-mia-plus")


def _random_decision(game, rng):
    """A position waiting for the owner of a random order of a seated colour to decide: a
    random base on the table and random ingredients in the owner's hand."""
    kinds, P = game.kinds, game.players
    owner = rng.randrange(P)
    label = rng.choice(sorted({o.label for o in game.deck if o.colour == owner}))
    hand = {k: 0 for k in kinds}
    for _ in range(rng.randint(0, game.limit - 1)):
        hand[rng.choice(kinds)] += 1
    base = {k: rng.randint(0, min(6, game.per_kind - hand[k])) for k in kinds}
    if label == "bombastica":  # near 15 cards, so that the owner's hand may add the rest
        while sum(base.values()) > 14:
            base[rng.choice([k for k in kinds if base[k]])] -= 1
    emptier = rng.randrange(P)
    return position(game, base=base, oven=[(owner, f"order {label}")],
                    hands={owner: {"ingredients": hand}}, evaluate=True, emptier=emptier, seed=rng.randrange(99))


@pytest.mark.parametrize("name,players,options", [
    ("mamma-mia", 4, {}),
    ("mamma-mia-plus", 4, {}),
    ("mamma-mia-plus", 6, {}),
])
def test_every_decision_of_hand_built_evaluations_is_in_the_catalogue(name, players, options):
    # Random games seldom reach a Ciottona or a big Bombastica with the right table; positions
    # built for every order settle them with all sorts of tables and hands.
    game = tw.make(name, players=players, **options)
    index = set(game.action_catalogue())
    rng = random.Random(7)
    decisions = 0
    types = set()
    for _ in range(400):
        state = _random_decision(game, rng)
        if state.phase != "evaluation":
            continue  # made or sent back without asking anybody
        decisions += 1
        types.add(state.observe(None)["evaluation"]["order"]["type"])
        for seat in range(players):  # the state's vector says what the observation's says
            assert list(game.state_vector(state, seat)) == game.observation_vector(state.observe(seat), seat)
        for action in state.legal_actions():
            assert str(action) in index, str(action)
            if str(action).startswith("ask"):  # and the helpers' answers that follow
                asked = state._apply(action)
                if asked.phase == "evaluation":
                    assert {str(a) for a in asked.legal_actions()} <= index
                    seat = asked.to_move
                    assert list(game.state_vector(asked, seat)) == game.observation_vector(asked.observe(seat), seat)
    assert decisions > 100
    assert types == {o.type for o in game.deck if o.colour < players}  # every kind of order was settled


def test_the_catalogue_follows_the_seated_colours_and_the_options():
    classic2 = tw.make("mamma-mia", players=2)
    catalogue = set(classic2.action_catalogue())
    seated = {o.label for o in classic2.deck if o.colour < 2}
    for card in classic2.deck:
        assert (f"put 1 salami; order {card.label}; draw waiter" in catalogue) == (card.label in seated)
        assert (f"order {card.label}; draw supply" in catalogue) == (card.label in seated)
    assert "put 7 olive; draw supply" in catalogue and "put 8 olive; draw supply" not in catalogue  # hand limit 7
    # short draws and "pass" forms of optional_actions, Plus's restock, Help, Bombastica from hand
    optional = set(tw.make("mamma-mia", players=2, optional_actions=True).action_catalogue())
    assert "put 1 salami; draw 2 from supply" in optional - catalogue
    assert "draw 6 from waiter" in optional and "draw 7 from waiter" not in optional
    assert "draw 5 ingredients" not in catalogue | optional
    assert "make adding 7 salami" in catalogue  # only a Bombastica takes 7 cards of one kind
    assert "make adding 7 salami" not in set(tw.make("mamma-mia", players=2, bombastica_from_hand=False).action_catalogue())
    plus = set(tw.make("mamma-mia-plus", players=4).action_catalogue())
    alone = set(tw.make("mamma-mia-plus", players=4, help=False).action_catalogue())
    assert {"help", "refuse", "ask for 1 olive"} <= plus - alone
    assert not any(a.startswith("ask") for a in alone)
    assert "draw 5 ingredients" in plus and "put 9 shrimp; draw supply" in plus
    assert "draw 4 from supply" in set(tw.make("mamma-mia-plus", players=4, optional_actions=True).action_catalogue())
    assert "draw 5 from supply" not in set(tw.make("mamma-mia-plus", players=4, optional_actions=True).action_catalogue())
    assert "make with salami+olive adding 4 salami + 4 olive" in plus  # a Ciottona from hand


def test_the_catalogue_is_the_same_in_another_process():
    code = ("import hashlib, tabletop_widgets as tw\n"
            "for name, p in (('mamma-mia', 3), ('mamma-mia-plus', 5)):\n"
            "    c = tw.make(name, players=p, optional_actions=True).action_catalogue()\n"
            "    print(hashlib.sha256('\\n'.join(c).encode()).hexdigest())\n")
    here = [hashlib.sha256("\n".join(tw.make(name, players=p, optional_actions=True).action_catalogue()).encode()).hexdigest()
            for name, p in (("mamma-mia", 3), ("mamma-mia-plus", 5))]
    for hash_seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONHASHSEED=hash_seed)).stdout.split()
        assert out == here


def _decode_checks(game, state, seat, vector):
    """The parts of the vector say what the observation says, seats counted from ``seat``."""
    obs = state.observe(seat)
    part = {name: vector[s] for name, s in observation_layout(game).items()}
    P, kinds = game.players, game.kinds
    assert part["hand_ingredients"] == [float(obs["hand"]["ingredients"].get(k, 0)) for k in kinds]
    labels = order_labels(game)
    assert part["hand_orders"] == [float(sum(o["label"] == lab for o in obs["hand"]["orders"])) for lab in labels]
    assert part["table"] == [float(obs["table"][k]) for k in kinds]
    assert part["supply"] == [float(obs["supply"])] and part["oven_size"] == [float(obs["oven"]["size"])]
    mover = obs["to_move"]
    assert part["to_move"] == [1.0 if mover is not None and (seat + i) % P == mover else 0.0 for i in range(P)]
    for i in range(P):
        p = obs["players"][(seat + i) % P]
        assert part["seats"][4 * i:4 * i + 4] == [p["hand_ingredients"], p["hand_orders"], p["waiter"], p["delivered"]]
    # the orders still in the oven, by seat, and the ingredients (the base included) still in it
    if obs["phase"] == "turn":  # (nothing of the oven is revealed yet)
        orders = [0.0] * P
        for e in obs["oven"]["log"]:
            if "order" in e:
                orders[(e["seat"] - seat) % P] += 1
        assert part["oven_orders"] == orders
        tally = state.observe(seat, tally=True)["oven"]["tally"]
        assert sum(part["oven_ingredients"]) + sum(part["oven_base"]) == sum(tally["ingredients"].values())
    decision = (obs["evaluation"] or {}).get("decision")
    if decision:
        assert part["decision_seat"] == [1.0 if (seat + i) % P == decision["seat"] else 0.0 for i in range(P)]
        owner = obs["evaluation"]["order"]["owner"]
        assert part["order_owner"] == [1.0 if (seat + i) % P == owner else 0.0 for i in range(P)]


@pytest.mark.parametrize("name,players", [("mamma-mia", 4), ("mamma-mia-plus", 5)])
def test_the_vector_encodes_the_observation_and_nothing_hidden(name, players):
    game = tw.make(name, players=players)
    size = game.observation_size()
    assert sum(s.stop - s.start for s in observation_layout(game).values()) == size
    rng = random.Random(3)
    hidden_changed = 0
    phases = set()
    for seed in range(4):
        state = game.new_state(seed)
        step = 0
        while not state.is_over:
            if step % 3 == 0:
                vectors = []
                for seat in range(players):
                    vector = game.observation_vector(state.observe(seat), seat)
                    assert len(vector) == size and all(isinstance(x, float) for x in vector)
                    # the environment's path reads the state directly: the same numbers
                    assert list(game.state_vector(state, seat)) == vector
                    _decode_checks(game, state, seat, vector)
                    # everything the seat cannot see dealt anew: the same vector
                    other = state.vary_hidden(seat, Rng.from_seed(seed * 1000 + step))
                    hidden_changed += other.observe(None)["hands"] != state.observe(None)["hands"]
                    assert game.observation_vector(other.observe(seat), seat) == vector
                    assert list(game.state_vector(other, seat)) == vector
                    vectors.append(tuple(vector))
                assert len(set(vectors)) == players  # each seat sees its own hand, from its place
                phases.add(state.phase)
            state = state._apply(rng.choice(state.legal_actions()))
            step += 1
        vector = game.observation_vector(state.observe(0), 0)
        winners = vector[observation_layout(game)["winners"]]
        assert winners == [1.0 if s in state.winners else 0.0 for s in range(players)]
    assert phases == {"turn", "evaluation"} and hidden_changed > 50


def test_the_vector_puts_the_viewer_first():
    # The same position seen by seat 0 and by seat 1 after a turn of the table: with every hand
    # and waiter alike, the two vectors coincide (a learner can share one policy across seats).
    game = tw.make("mamma-mia-plus", players=3)
    hands = {s: {"ingredients": {"olive": 2, "salami": 1}} for s in range(3)}
    first = position(game, hands=hands, waiters={0: 3, 1: 3, 2: 3}, oven=[(1, "3 olive")], to_move=1, seed=1)
    second = position(game, hands=hands, waiters={0: 3, 1: 3, 2: 3}, oven=[(2, "3 olive")], to_move=2, seed=1)
    assert game.observation_vector(first.observe(0), 0) == game.observation_vector(second.observe(1), 1)
    assert game.observation_vector(first.observe(0), 0) != game.observation_vector(first.observe(1), 1)


def test_the_pettingzoo_environment_plays_whole_games_of_both_editions():
    np = pytest.importorskip("numpy")
    from tabletop_widgets.pettingzoo import env

    for name, options in (("mamma-mia", {"optional_actions": True}), ("mamma-mia-plus", {})):
        e = env(name, players=3, **options)
        e.reset(seed=11)
        rng = np.random.default_rng(0)
        for agent in e.agent_iter(20_000):
            obs, reward, terminated, truncated, info = e.last()
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        state = e.unwrapped.game_state
        assert state.is_over and e.agents == [] and json.loads(state.to_json())["game"] == name


def test_the_vector_tallies_what_is_left_of_a_partly_revealed_entry():
    # the emptier turns one card at a time: midway through Yellow's 3 pineapple, 2 are on the
    # table and 1 is still in the oven, and the vector must say so (not drop the whole entry)
    game = tw.make("mamma-mia", players=4)
    start = position(game, to_move=1, supply={}, mamma_mia=0, hands={1: {"ingredients": {"olive": 2}}},
                     oven=[(0, "3 pineapple"), (1, "order 4 pineapple + 1 pepper"), (2, "1 pepper")])
    after = start.apply("put 2 olive; draw supply")
    reveals = [e.after for e in after.events if e.kind == "reveal" and e.after is not None]
    mid = reveals[1]
    assert mid.observe(3)["table"]["pineapple"] == 2 and mid.observe(3)["oven"]["size"] == 5
    part = {name: game.observation_vector(mid.observe(3), 3)[s] for name, s in observation_layout(game).items()}
    pineapple = game.kinds.index("pineapple")
    yellow = (0 - 3) % 4  # seats counted from the viewer
    assert part["oven_ingredients"][yellow * game.nk + pineapple] == 1.0
    assert sum(part["oven_ingredients"]) + sum(part["oven_base"]) == 1 + 2 + 1  # 1 pineapple, 2 olive, 1 pepper
    assert sum(part["oven_orders"]) == 1.0


def test_the_evaluation_and_the_learning_hooks_do_not_import_the_rules():
    # rules.py imports oven.py and learning.py; they import only cards.py (and each other one
    # way), so no import cycle runs through the rules module
    import ast
    import pathlib

    import tabletop_widgets.games.mamma_mia as package

    folder = pathlib.Path(package.__file__).parent
    imports = {}
    for name in ("rules", "oven", "learning", "cards"):
        tree = ast.parse((folder / f"{name}.py").read_text())
        imports[name] = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imports[name] |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                          and node.module is None for alias in node.names}
    for name in ("oven", "learning", "cards"):
        assert "rules" not in imports[name] and not any(m.endswith(".rules") for m in imports[name]), name
    assert not imports["oven"] & {"learning"} and not imports["cards"] & {"oven", "learning"}


# the parts a learner chooses an action from (tabletop_widgets.pettingzoo) --------------------
def _parts_then_action(parts, legal, action):
    """Choose ``action`` part by part among ``legal`` as the environment does, checking every
    offer against the parts of the legal actions; the parts chosen (asked or taken)."""
    from tabletop_widgets.pettingzoo import _Decision

    mine = parts[legal.index(action)]
    decision = _Decision(list(legal), list(parts))
    asked = 0
    while True:
        depth = len(decision.chosen)
        begun = [p for p in parts if p[:depth] == tuple(decision.chosen)]
        # offered: the next part of every legal action that begins with the parts chosen so
        # far, each once; after the first part, only when there is a choice
        assert decision.options == list(dict.fromkeys(p[depth] for p in begun))
        assert depth == 0 or len(decision.options) > 1
        assert mine[depth] in decision.options
        asked += 1
        whole = decision.choose(mine[depth])
        if whole is not None:
            assert whole is action and tuple(decision.chosen) == mine
            return asked


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_the_parts_of_the_catalogues_actions_name_each_one_alone(name, players, options):
    from tabletop_widgets.games.mamma_mia.learning import catalogue_actions

    game = tw.make(name, players=players, **options)
    names = game.action_parts()
    assert len(set(names)) == len(names) < 300  # against 3,207–47,537 whole actions
    assert tw.make(name, players=players, **options).action_parts() == names  # a fixed order
    actions = catalogue_actions(game)
    assert [str(a) for a in actions] == list(game.action_catalogue())
    parts = game.parts_of(actions)
    assert len(set(parts)) == len(actions)  # no two actions share their parts
    assert {p for whole in parts for p in whole} == set(range(len(names)))  # every part is used
    for action, whole in zip(actions, parts):
        words = [names[p] for p in whole]
        if isinstance(action, Turn):  # a turn's parts are its put, its order and its draw
            said = [w for w in words if w not in ("put nothing", "no order", "no draw")]
            assert ("; ".join(said) or "pass") == str(action)
            assert words[0].startswith("put ") and (words[1] == "no order" or words[1].startswith("order "))
            assert words[2] == "no draw" or words[2].startswith("draw ")
        elif str(action).startswith(("make", "ask")):  # the way, then the count of every kind
            assert words[0] == str(action).split(" adding ")[0].split(" for ")[0]
            counts = dict(w.split(" ")[::-1] for w in words[1:])
            assert list(counts) == list(game.kinds)
            cards = str(action).split(" adding ")[-1].split(" for ")[-1] if " adding " in str(action) or " for " in str(action) else ""
            said = {k: n for n, k in (c.split(" ") for c in cards.split(" + ") if c)}
            assert {k: n for k, n in counts.items() if n != "0"} == said
        else:
            assert words == [str(action)]


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_every_legal_action_of_random_games_is_chosen_part_by_part(name, players, options):
    game = tw.make(name, players=players, **options)
    rng = random.Random(players + 10)
    whole = asked = 0
    for seed in range(2):
        state = game.new_state(seed)
        while not state.is_over:
            legal = state.legal_actions()
            parts = game.parts_of(legal)
            assert len(set(parts)) == len(legal)
            for action in legal if len(legal) <= 30 else rng.sample(legal, 30):
                asked += _parts_then_action(parts, legal, action)
                whole += 1
            state = state._apply(rng.choice(legal))
    assert whole > 500 and asked < 3 * whole  # a turn is at most its put, order and draw


@pytest.mark.parametrize("name,players", [("mamma-mia", 4), ("mamma-mia-plus", 6)])
def test_every_decision_of_hand_built_evaluations_is_chosen_part_by_part(name, players):
    game = tw.make(name, players=players)
    rng = random.Random(17)
    several = 0
    for _ in range(150):
        state = _random_decision(game, rng)
        if state.phase != "evaluation":
            continue
        legal = state.legal_actions()
        parts = game.parts_of(legal)
        for action in legal:
            several += _parts_then_action(parts, legal, action) > 1
    assert several > 20  # a Bombastica's handful or an ask's cards, chosen kind by kind


def _sub_steps(game, seed, rng):
    """Every position of a random game, each sub-step of the evaluation included, in order."""
    state = game.new_state(seed)
    while True:
        yield from [e.after for e in state.events if e.after is not None] + [state]
        if state.is_over:
            return
        state = state._apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_the_state_vector_read_in_any_order_is_the_observation_vector(name, players, options):
    # state_vector passes what it counted (the oven's tally, the seats' counts) on to the states
    # made from the one it read: read along a game for some seats, then again for every seat in
    # a shuffled order (a state read before its predecessor, or never read before), it says
    # what observation_vector(observe(seat)) says
    game = tw.make(name, players=players, **options)
    rng = random.Random(players)
    positions = []
    for seed in range(3):
        for state in _sub_steps(game, seed, rng):
            if rng.random() < 0.7:
                game.state_vector(state, rng.randrange(players))
            positions.append(state)
    rng.shuffle(positions)
    phases = set()
    midway = 0
    for state in positions:
        phases.add(state.phase)
        later = [state]
        if state.part:  # midway through an entry: read, then the entry's last card revealed after it
            midway += 1
            game.state_vector(state, 0)
            later.append(state._with(cursor=state.cursor + 1, part=0))
        for s in later:
            for seat in range(players):
                assert list(game.state_vector(s, seat)) == game.observation_vector(s.observe(seat), seat)
    assert phases == {"turn", "evaluation", "over"} and midway


def test_the_state_vector_without_numpy_and_with_counts_beyond_a_byte(monkeypatch):
    from tabletop_widgets.games.mamma_mia import learning
    from tabletop_widgets.games.mamma_mia.rules import DECKS, read_deck_file

    deck = read_deck_file(DECKS["classic"])
    first = next(o for o in deck["orders"]["yellow"] if o["type"] == "normal")
    first["recipe"] = {"salami": 300}  # never made, but shown, and its needs counted
    for game in (tw.make("mamma-mia", players=3), tw.make("mamma-mia", players=3, deck=deck)):
        rng = random.Random(4)
        states = [s for seed in range(2) for s in _sub_steps(game, seed, rng)]
        vectors = [[list(game.state_vector(s, seat)) for seat in range(3)] for s in states]
        assert vectors == [[game.observation_vector(s.observe(seat), seat) for seat in range(3)] for s in states]
        with monkeypatch.context() as m:
            m.setattr(learning, "numpy_or_none", lambda: None)  # the engine runs without the analysis extras
            assert [[game.state_vector(s, seat) for seat in range(3)] for s in states] == vectors
    assert max(map(max, vectors[-1])) < 256 and 300 in {n for by_seat in vectors for v in by_seat for n in v}
