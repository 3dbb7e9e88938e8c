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


# mutations -------------------------------------------------------------------------------------
# A mutation takes a JSON document and ``pick(n)`` (an int in range(n), drawn by hypothesis) and
# returns a changed copy. Blind ones put any JSON anywhere; plausible ones keep the shapes and
# move cards between places, or take a value from the same place of another valid state.
ODD_VALUES = [None, True, False, -1, 0, 1, 2, 3, 7, 99, 2 ** 64, -(2 ** 70), 1.5, float("inf"), "", "x", "supply",
              [], {}, [0], [[0]], {"a": 1}, ["help", 0, {"a": 1}, [0], [0], 1], ["settle", 0], "give", "start"]


#: Stands for a value nested thousands deep until the document is written (:func:`to_text`):
#: no JSON encoder writes such a value, but a stranger's text can hold one.
DEEP = "\u0000deep"


def to_text(doc, depth=3000):
    return json.dumps(doc).replace(json.dumps(DEEP), "[" * depth + "0" + "]" * depth)


def paths(doc):
    """Every path (tuple of keys and indexes) in ``doc``, without recursion, the root first."""
    out, todo = [], [()]
    while todo:
        path = todo.pop()
        out.append(path)
        node = get(doc, path)
        if isinstance(node, dict):
            todo.extend(path + (k,) for k in node)
        elif isinstance(node, list):
            todo.extend(path + (i,) for i in range(len(node)))
    return out


def get(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def put(doc, path, value):
    doc = json.loads(json.dumps(doc))
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value
    return doc


def blind_replace(doc, pick, others):
    ps = paths(doc)
    path = ps[pick(len(ps))]
    value = ODD_VALUES[pick(len(ODD_VALUES))] if pick(8) else DEEP
    return put(doc, path, value)


def blind_drop_or_add(doc, pick, others):
    containers = [p for p in paths(doc) if isinstance(get(doc, p), (dict, list))]
    if not containers:
        return doc
    path = containers[pick(len(containers))]
    node = json.loads(json.dumps(get(doc, path)))
    if isinstance(node, dict):
        if node and pick(2):
            del node[sorted(node)[pick(len(node))]]
        else:
            node[["extra", "pending", "phase", "0"][pick(4)]] = ODD_VALUES[pick(len(ODD_VALUES))]
    elif node and pick(2):
        del node[pick(len(node))]
    else:
        node.insert(pick(len(node) + 1), json.loads(json.dumps(node[pick(len(node))])) if node else 0)
    return put(doc, path, node)


def plausible_transplant(doc, pick, others):
    """A value from the same place in another valid state of the same game (a pending
    decision, a phase, a hand, a claim … of another moment)."""
    other = others[pick(len(others))]
    ps = [p for p in paths(doc) if p and _has(other, p)]
    if not ps:
        return doc
    path = ps[pick(len(ps))]
    return put(doc, path, json.loads(json.dumps(get(other, path))))


def _has(doc, path):
    try:
        get(doc, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def _scalar_lists(doc):
    return [p for p in paths(doc) if isinstance(get(doc, p), list)
            and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in get(doc, p))]


def plausible_move_card(doc, pick, others):
    """One entry moved from one list to another (a card from the supply into a hand …):
    the cards are conserved, only where they lie changes."""
    lists = _scalar_lists(doc)
    sources = [p for p in lists if get(doc, p)]
    if not sources:
        return doc
    src = sources[pick(len(sources))]
    dst = lists[pick(len(lists))]
    doc = json.loads(json.dumps(doc))
    card = get(doc, src).pop(pick(len(get(doc, src))))
    target = get(doc, dst)
    target.insert(pick(len(target) + 1), card)
    return doc


def plausible_reorder(doc, pick, others):
    """Two entries of one list swapped (the supply's order, a hand's, a waiter's): every card
    stays where it was, only the hidden order changes."""
    lists = [p for p in _scalar_lists(doc) if len(get(doc, p)) > 1]
    if not lists:
        return doc
    doc = json.loads(json.dumps(doc))
    items = get(doc, lists[pick(len(lists))])
    i, j = pick(len(items)), pick(len(items))
    items[i], items[j] = items[j], items[i]
    return doc


def plausible_shift_count(doc, pick, others):
    """One unit moved between two counts of the same kind (count vectors of one length), or an
    int nudged: shapes stay right."""
    doc = json.loads(json.dumps(doc))
    ints = [p for p in paths(doc) if isinstance(get(doc, p), int) and not isinstance(get(doc, p), bool)]
    if not ints:
        return doc
    vectors = [p for p in _scalar_lists(doc) if get(doc, p) and all(isinstance(x, int) for x in get(doc, p))]
    if vectors and pick(3):
        a, b = vectors[pick(len(vectors))], vectors[pick(len(vectors))]
        if len(get(doc, a)) == len(get(doc, b)):
            k = pick(len(get(doc, a)))
            get(doc, a)[k] -= 1
            get(doc, b)[k] += 1
            return doc
    path = ints[pick(len(ints))]
    return put(doc, path, get(doc, path) + [-2, -1, 1, 2, 5, 20][pick(6)])


def plausible_swap_strings(doc, pick, others):
    """A string replaced by another string of the same document (a species, a phase, a side)."""
    strings = [p for p in paths(doc) if isinstance(get(doc, p), str)]
    keys = [p for p in paths(doc) if p and isinstance(p[-1], str)]
    words = sorted({get(doc, p) for p in strings} | {p[-1] for p in keys})
    if not strings or not words:
        return doc
    return put(doc, strings[pick(len(strings))], words[pick(len(words))])


def plausible_cut_actions(doc, pick, others):
    """A replay cut short (its actions up to a point, the cursor within them), then maybe
    changed: the replay of an earlier moment, or of another game from the same seed."""
    doc = json.loads(json.dumps(doc))
    doc["actions"] = doc["actions"][: pick(len(doc["actions"]) + 1)]
    doc["cursor"] = min(doc.get("cursor", 0), len(doc["actions"]))
    return doc


BLIND = (blind_replace, blind_drop_or_add)
PLAUSIBLE = (plausible_transplant, plausible_move_card, plausible_shift_count, plausible_shift_count,
             plausible_swap_strings, plausible_reorder)


# checks ----------------------------------------------------------------------------------------
def check_playable(state):
    """What every accepted state keeps: over or an action to play, a view for every seat, and a
    JSON round trip the loader accepts as the same state."""
    game = state.game
    legal = state.legal_actions()
    if state.is_over:
        assert legal == [] or legal == (), f"the game is over but {legal[:3]} are legal"
        assert isinstance(state.winners, tuple)
    else:
        assert 0 <= state.to_move < game.players
        assert legal, "accepted, not over, and nobody can act"
    assert len(state.scores) == game.players
    for seat in (None, *range(game.players)):
        json.dumps(state.observe(seat))
    again = game.state_from_json(state.to_json())
    assert again == state
    return legal


def play_on(state, choose, steps):
    """Play up to ``steps`` actions chosen by ``choose(n)``, checking every state on the way
    (the sub-step states of the events too: a widget draws them)."""
    check_playable(state)
    for _ in range(steps):
        if state.is_over:
            return state
        legal = state.legal_actions()
        state = state.apply(legal[choose(len(legal))])
        for event in state.events:
            if event.after is not None:
                json.dumps(event.after.observe(None))
        check_playable(state)
    return state


# the states the audit found ----------------------------------------------------------------------
from tabletop_widgets.games.mamma_mia import position  # noqa: E402


def payload(state):
    return json.loads(state.to_json())


def load(game, doc):
    return game.state_from_json(json.dumps(doc))


def move(counts_from, counts_to, kind, n=1):
    counts_from[kind] -= n
    counts_to[kind] += n


def plus_mini_decision():
    """Plus, 4 players: Yellow's Mini revealed on an empty table, Yellow to decide."""
    game = tw.make("mamma-mia-plus", players=4)
    mini = next(o for o in game.deck if o.colour == 0 and o.type == "mini")
    hand = {game.kinds[k]: n for k, n in enumerate(mini.recipe) if n}
    state = position(game, oven=[(0, f"order {mini.label}")], hands={0: {"ingredients": hand}}, evaluate=True)
    assert state.pending == ("settle", mini.id) and state.legal_actions()
    return game, mini, state


def test_a_decision_on_a_mini_whose_crossed_out_kind_is_on_the_table_is_refused():
    game, mini, state = plus_mini_decision()
    doc = payload(state)
    move(doc["state"]["used"], doc["state"]["table"], mini.crossed)  # cards conserved
    with pytest.raises(ValueError, match="waits for no decision here"):
        load(game, doc)


def test_a_decision_on_a_classic_minimale_on_an_empty_table_is_refused():
    game = tw.make("mamma-mia", players=3)
    minimale = next(o for o in game.deck if o.colour == 0 and o.type == "minimale")
    state = position(game, base={"salami": 1, "pineapple": 2}, oven=[(0, f"order {minimale.label}")],
                     hands={0: {"ingredients": {"pepper": 3}}}, evaluate=True)
    assert state.pending == ("settle", minimale.id)
    doc = payload(state)
    for kind, n in enumerate(doc["state"]["table"]):
        move(doc["state"]["table"], doc["state"]["used"], kind, n)
    with pytest.raises(ValueError, match="waits for no decision here"):
        load(game, doc)


@pytest.mark.parametrize("name", ["mamma-mia", "mamma-mia-plus"])
def test_a_hand_far_over_the_limit_is_refused(name):
    game = tw.make(name, players=3)
    doc = payload(game.new_state(4))
    supply, hand = doc["state"]["supply"], doc["state"]["hands_ingredients"][0]
    for _ in range(14):
        card = next(c for c in supply if c >= 0)  # an ingredient (the Mamma Mia card is -1)
        supply.remove(card)
        hand[card] += 1
    with pytest.raises(ValueError, match="hand limit is"):
        load(game, doc)


def test_a_decision_whose_shown_order_is_no_object_is_refused():
    game, mini, state = plus_mini_decision()
    doc = payload(state)
    for shown in (5, [], "mini"):
        doc["state"]["shown"] = shown
        with pytest.raises(ValueError, match="shown must be an object"):
            load(game, doc)


def test_a_help_decision_with_an_object_for_its_way_is_refused():
    game, mini, state = plus_mini_decision()
    asked = state.apply("ask for 1 pepper")
    assert asked.pending[0] == "help"
    doc = payload(asked)
    assert load(game, doc) == asked
    for way in ({"a": 1}, [[1], 2], "olive", [1, 2, 3]):
        doc["state"]["pending"][2] = way
        with pytest.raises(ValueError, match="way to make"):
            load(game, doc)


def mammuz_payload(players=4, seed=2):
    game = tw.make("mammuz", players=players)
    return game, payload(game.new_state(seed))


def test_mammuz_a_herd_to_give_without_a_turned_triceratops_is_refused():
    game, doc = mammuz_payload()
    doc["state"]["pending"] = "give"
    with pytest.raises(ValueError, match="Triceratops"):
        load(game, doc)
    replay = {"format": "tabletop_widgets.match", "version": 1, **game.spec(), "start": doc["state"],
              "actions": ["give 1"], "cursor": 1}
    with pytest.raises(tw.ReplayError, match="Triceratops"):
        tw.Match.from_json(json.dumps(replay))


def test_mammuz_a_starter_without_cards_is_refused():
    game, doc = mammuz_payload()
    state = doc["state"]
    starter = state["to_act"]
    other = (starter + 1) % game.players
    state["hands"][other] += state["hands"][starter]
    state["hands"][starter] = []
    with pytest.raises(ValueError, match="holds no card and the game is not over"):
        load(game, doc)


@pytest.mark.parametrize("where", ["hand", "pile", "display", "turned", "claim", "box"])
@pytest.mark.parametrize("entry", [["hare"], {"hare": 1}])
def test_mammuz_a_card_that_is_a_list_or_an_object_is_refused(where, entry):
    game, doc = mammuz_payload()
    state = doc["state"]
    if where == "hand":
        state["hands"][0][0] = entry
    elif where == "pile":
        state["pile"].append(entry)
    elif where == "display":
        state["displays"] = [{"seat": 0, "cards": [entry], "turned": []}]
        state["claim"] = "hare"
    elif where == "turned":
        state["turned"] = [[0, entry, 1]]
    elif where == "claim":
        state["claim"] = entry
    else:
        state["box"].append(entry)
    with pytest.raises(ValueError):
        load(game, doc)


@pytest.mark.parametrize("name", ["mamba", "mamma-mia", "mamma-mia-plus", "mammuz"])
def test_json_nested_thousands_deep_is_a_value_error_or_a_replay_error(name):
    game = tw.make(name)
    doc = payload(game.new_state(1))
    text = json.dumps(dict(doc, state=dict(doc["state"], extra=DEEP)))
    for depth in (100, 5000, 200_000):
        deep_text = text.replace(json.dumps(DEEP), "[" * depth + "]" * depth)
        with pytest.raises(ValueError, match="nested deeper"):
            game.state_from_json(deep_text)
        nested = []
        for _ in range(depth):
            nested = [nested]
        with pytest.raises(ValueError, match="nested deeper"):
            game.state_from_json(dict(doc, state=dict(doc["state"], extra=nested)))
        replay = json.loads(tw.Match(game, seed=1).to_json())
        replay["options"] = dict(replay["options"], extra=DEEP)
        with pytest.raises(tw.ReplayError, match="nested deeper|not valid JSON"):
            tw.Match.from_json(json.dumps(replay).replace(json.dumps(DEEP), "[" * depth + "]" * depth))
        with pytest.raises(tw.ReplayError, match="nested deeper"):
            tw.Match.from_json(dict(replay, options={"x": nested}))


# the property tests ------------------------------------------------------------------------------
import collections  # noqa: E402
import functools  # noqa: E402
import random  # noqa: E402

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from tabletop_widgets.core.game import game_class, registered  # noqa: E402

#: Every game of the package (games registered by tests, like the toy game, are not ours to check).
GAMES = [n for n in registered() if game_class(n).__module__.startswith("tabletop_widgets.")]

PLAY_ON_STEPS = 8
#: The suite runs the same mutations each time (a failure is then reproduced by running it
#: again); TW_MUTATIONS=1500 runs that many fresh random ones per game (a third for replays).
FIXED = "TW_MUTATIONS" not in os.environ

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


@functools.lru_cache(maxsize=None)
def corpus(name):
    """Valid states (sampled along seeded random games at the fewest, the usual and the most
    players, sub-step states included) and replays (seeded, and from a set-up state) of ``name``."""
    cls = game_class(name)
    states, replays = [], []
    for players in sorted({cls.min_players, cls.default_players, cls.max_players}):
        for seed in range(3):
            m = tw.Match(name, players=players, seed=seed)
            rnd = random.Random(seed)
            while not m.state.is_over and len(m) < 300:
                m.play(rnd.choice(m.state.legal_actions()))
            every = max(1, len(m) // 12)
            for step in list(range(0, len(m) + 1, every)) + [len(m)]:
                states.append(m.state_at(step))
                states += [e.after for e in m.state_at(step).events if e.after is not None][:1]
            cut = rnd.randrange(len(m) + 1)
            m.goto(cut)
            replays.append(m.to_json())
            fork = tw.Match(m.game, state=m.state_at(cut // 2))
            for action in m.actions[cut // 2: cut]:
                fork.play(action)
            replays.append(fork.to_json())
    by_players = collections.defaultdict(list)
    for state in states:
        by_players[state.game.players].append(payload(state)["state"])
    return states, dict(by_players), replays


def mutate(data, doc, others, plausible=PLAUSIBLE):
    """``doc`` changed once or twice, blindly or plausibly; the kind of change. Hypothesis
    draws a seed and the changes are made from it: drawn choice by choice, hypothesis favours
    the first option of each, and the mix it would explore is nearly all refusals."""
    rnd = random.Random(data.draw(st.integers(0, 2 ** 32), label="mutation seed"))
    pick = rnd.randrange
    blind = rnd.random() < 0.4
    for _ in range(rnd.choice((1, 1, 2))):
        if not isinstance(doc, (dict, list)):
            break  # the whole document was replaced by a plain value
        if blind and rnd.random() < 0.25:
            ps = paths(doc)
            doc = put(doc, ps[pick(len(ps))], data.draw(json_values, label="any JSON"))
        else:
            doc = rnd.choice(BLIND if blind else plausible)(doc, pick, others)
    return doc, "blind" if blind else "plausible"


def record_totals(record_property, what, counts):
    record_property("state_loading", json.dumps({"what": what, **counts}))


@pytest.mark.parametrize("name", GAMES)
def test_mutated_states_load_only_when_playable(name, record_property):
    states, by_players, _ = corpus(name)
    counts = collections.Counter()

    @settings(max_examples=int(os.environ.get("TW_MUTATIONS", 70)), deadline=None, database=None, derandomize=FIXED,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(data=st.data())
    def run(data):
        base = states[data.draw(st.integers(0, len(states) - 1), label="state")]
        game = base.game
        doc = payload(base)
        if data.draw(st.integers(0, 9), label="cut the text") == 9:
            text = json.dumps(doc)
            text, kind = text[: data.draw(st.integers(0, len(text) - 1))], "blind"
        else:
            state_doc, kind = mutate(data, doc["state"], by_players[game.players])
            text = to_text(dict(doc, state=state_doc))
        counts["tried"] += 1
        counts[kind] += 1
        try:
            state = game.state_from_json(text)
        except ValueError as exc:
            assert str(exc)
            return
        counts["accepted"] += 1
        rnd = random.Random(data.draw(st.integers(0, 2 ** 32), label="play seed"))
        if not state.is_over:
            counts["played_on"] += 1
        play_on(state, rnd.randrange, PLAY_ON_STEPS)

    run()
    record_totals(record_property, f"{name} states", counts)
    # the test must reach both sides: refusals and states played on
    assert counts["accepted"] < counts["tried"] and counts["played_on"] > 0


@pytest.mark.parametrize("name", GAMES)
def test_mutated_replays_load_only_when_playable(name, record_property):
    _, _, replays = corpus(name)
    docs = [json.loads(r) for r in replays]
    counts = collections.Counter()

    @settings(max_examples=int(os.environ.get("TW_MUTATIONS", 75)) // 3, deadline=None, database=None, derandomize=FIXED,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(data=st.data())
    def run(data):
        doc = docs[data.draw(st.integers(0, len(docs) - 1), label="replay")]
        same = [d for d in docs if d["players"] == doc["players"]]
        mutated, kind = mutate(data, doc, same, PLAUSIBLE + (plausible_cut_actions,) * 3)
        counts["tried"] += 1
        counts[kind] += 1
        try:
            m = tw.Match.from_json(to_text(mutated))
        except tw.ReplayError as exc:
            assert str(exc)
            return
        counts["accepted"] += 1
        assert 0 <= m.cursor <= len(m)
        for seat in (None, 0):
            m.frames_of_step(m.cursor, seat)
        state = m.state
        if not state.is_over:
            counts["played_on"] += 1
        play_on(state, random.Random(data.draw(st.integers(0, 2 ** 32))).randrange, PLAY_ON_STEPS)

    run()
    record_totals(record_property, f"{name} replays", counts)
    assert counts["accepted"] < counts["tried"] and counts["played_on"] > 0
