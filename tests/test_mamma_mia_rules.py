"""Mamma Mia! and Mamma Mia! Plus: set-up, options, turns, the evaluation and the worked
examples of the rules (shared/rules/mamma-mia.md and the source texts)."""

import json

import pytest

import tabletop_widgets as tw
from tabletop_widgets.games.mamma_mia import position
from tabletop_widgets.games.mamma_mia.rules import DECK_DIR, MAMMA_MIA

GREEN, BROWN, PURPLE, RED = 1, 2, 3, 4


def legal(state):
    return sorted(str(a) for a in state.legal_actions())


def table(state):
    return {k: n for k, n in state.observe(None)["table"].items() if n}


def kinds_used(state):
    return dict(zip(state.game.kinds, state.used))


# set-up and options ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, players, per_kind", [
    ("mamma-mia", 2, 8), ("mamma-mia", 3, 10), ("mamma-mia", 4, 12), ("mamma-mia", 5, 13),
    ("mamma-mia-plus", 2, 8), ("mamma-mia-plus", 3, 10), ("mamma-mia-plus", 4, 12),
    ("mamma-mia-plus", 5, 14), ("mamma-mia-plus", 6, 15),
])
def test_set_up_removes_cards_per_player_count_and_deals(name, players, per_kind):
    state = tw.make(name, players=players).new_state(seed=7)
    view = state.observe(None)
    classic = name == "mamma-mia"
    assert len(view["kinds"]) == (5 if classic else 6)
    in_play = {k: sum(h["ingredients"].get(k, 0) for h in view["hands"]) for k in view["kinds"]}
    for k in state.supply:
        if k != MAMMA_MIA:
            in_play[state.game.kinds[k]] += 1
    assert in_play == {k: per_kind for k in view["kinds"]}
    for p in view["players"]:
        assert (p["hand_ingredients"], p["hand_orders"]) == ((6, 1) if classic else (8, 1))
        assert p["waiter"] == (7 if classic else 14)
    assert state.supply.count(MAMMA_MIA) == (1 if classic else 0)
    assert view["mamma_mia_card"] == ("supply" if classic else None)
    assert view["ovens"] == (3 if classic or players >= 3 else 4)
    assert state.to_move == 0


def test_the_mamma_mia_card_is_shuffled_in_after_dealing():
    positions = set()
    for seed in range(40):
        state = tw.make("mamma-mia", players=4).new_state(seed)
        positions.add(state.supply.index(MAMMA_MIA))
        assert all(p["hand_ingredients"] == 6 for p in state.observe(None)["players"])
    assert len(positions) > 10  # anywhere in the supply, never in a hand


def test_options_and_their_errors():
    assert tw.make("mamma-mia-plus", players=3).options["help"] is True
    assert tw.make("mamma-mia-plus", players=2).options["help"] is False
    assert tw.make("mamma-mia-plus", players=4, help=False).ovens == 4
    with pytest.raises(ValueError, match="help=True is not allowed with 2 players"):
        tw.make("mamma-mia-plus", players=2, help=True)
    with pytest.raises(ValueError, match="unknown option 'helpers'"):
        tw.make("mamma-mia", players=3, helpers=True)
    with pytest.raises(ValueError, match="allowed values: False, True"):
        tw.make("mamma-mia", optional_actions="yes")
    with pytest.raises(ValueError, match="first_player=4 is not a seat; allowed values: 0 to 3"):
        tw.make("mamma-mia", players=4, first_player=4)
    with pytest.raises(ValueError, match="players must be an int from 2 to 5"):
        tw.make("mamma-mia", players=6)
    assert tw.make("mamma-mia", players=3, first_player=2).new_state(1).to_move == 2


def test_a_replacement_deck_is_validated(tmp_path):
    with open(f"{DECK_DIR}/classic.json") as fh:
        doc = json.load(fh)
    doc["orders"]["green"][0]["recipe"] = {"pepper": 1, "shrimp": 4}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="recipe kind must be one of salami, pineapple"):
        tw.make("mamma-mia", deck=str(bad))
    with pytest.raises(ValueError, match="cannot be read"):
        tw.make("mamma-mia", deck=str(tmp_path / "missing.json"))
    (tmp_path / "junk.json").write_text("{")
    with pytest.raises(ValueError, match="not valid JSON"):
        tw.make("mamma-mia", deck=str(tmp_path / "junk.json"))
    with pytest.raises(ValueError, match="for the 'classic' edition, not 'plus'"):
        tw.make("mamma-mia-plus", deck=f"{DECK_DIR}/classic.json")
    doc["orders"]["green"] = doc["orders"]["green"][:3]
    doc["orders"]["green"][0]["recipe"] = {"pepper": 1, "olive": 5}
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc))
    game = tw.make("mamma-mia", players=2, deck=str(good))
    state = game.new_state(3)
    assert state.observe(None)["players"][GREEN]["waiter"] == 2
    assert "5 olive + 1 pepper" in {o.label for o in game.deck}


def test_the_reconstructed_decks_follow_the_decision():
    classic = tw.make("mamma-mia", players=5)
    plus = tw.make("mamma-mia-plus", players=6)
    for game, per_colour in ((classic, 8), (plus, 15)):
        for colour in range(game.players):
            cards = [o for o in game.deck if o.colour == colour]
            assert len(cards) == per_colour
            p = game.personal[colour]
            normals = [o for o in cards if o.type == "normal"]
            assert all(o.recipe[p] == 1 for o in normals)
    green = [o for o in plus.deck if o.colour == GREEN]
    assert sorted(o.type for o in green) == sorted(
        ["normal"] * 7 + ["bombastica", "monotoni", "ciottona", "small_monotoni", "mini", "mini", "minimale",
                          "pizza_mamma_mia"])


# turns -----------------------------------------------------------------------------------------
def test_a_turn_puts_one_kind_maybe_an_order_then_refills_from_one_source():
    game = tw.make("mamma-mia", players=4)
    state = position(game, to_move=GREEN, hands={GREEN: {"ingredients": {"salami": 3, "olive": 3}, "orders": ["monotoni"]}})
    actions = legal(state)
    assert "put 3 salami; order monotoni; draw supply" in actions
    assert "put 2 olive; draw waiter" in actions
    assert not any(a.startswith("order") or a.startswith("draw") for a in actions)  # ingredients are mandatory
    assert not any("draw 2 from" in a for a in actions)  # the draw fills the hand
    after = state.apply("put 3 salami; order monotoni; draw supply")
    me = after.observe(GREEN)
    assert me["players"][GREEN]["hand_ingredients"] + me["players"][GREEN]["hand_orders"] == 7
    assert me["oven"]["log"] == [{"seat": GREEN, "kind": "salami", "count": 3}, {"seat": GREEN, "order": "green"}]
    assert after.to_move == BROWN
    # the other seats learn that a green order went in, not which
    text, _ = after.events[-1].seen_by(BROWN)
    assert "monotoni" not in text.lower() and "a green order" in text
    assert "the order Monotoni in the oven" in after.events[-1].seen_by(GREEN)[0]


def _turns_from_the_rules(state):
    """A turn's legal actions in the engine's order, written out from the rules: put one kind
    (1 to all of it; nothing only with optional actions or an empty hand), maybe one order of
    each label held, then refill to the limit from the supply or the waiter (Plus: at most 5)."""
    from tabletop_widgets.games.mamma_mia.cards import RESTOCK, Turn

    g, seat = state.game, state.to_move
    ing, orders = state.hands_ing[seat], state.hands_ord[seat]
    optional = g.options["optional_actions"]
    if g.draw_cap is not None and not any(ing):
        return [RESTOCK]
    puts = [(g.kinds[k], c) for k in range(g.nk) for c in range(1, ing[k] + 1)]
    if optional or not puts:
        puts.insert(0, (None, 0))
    out = []
    for kind, count in puts:
        for order in [None] + sorted({g.deck[o].label for o in orders}):
            need = g.limit - (sum(ing) - count) - (len(orders) - (order is not None))
            need = max(0, need if g.draw_cap is None else min(need, g.draw_cap))
            if need == 0:
                out.append(Turn(kind, count, order))
                continue
            out += [Turn(kind, count, order)] if optional else []
            out += [Turn(kind, count, order, "supply"), Turn(kind, count, order, "waiter")]
            if optional:
                out += [Turn(kind, count, order, source, n) for source in ("supply", "waiter") for n in range(1, need)]
    return out


@pytest.mark.parametrize("name, players, options", [
    ("mamma-mia", 4, {}), ("mamma-mia", 3, {"optional_actions": True}), ("mamma-mia-plus", 6, {}),
    ("mamma-mia-plus", 3, {"optional_actions": True}),
])
def test_a_turns_legal_actions_joined_from_kept_parts_are_those_of_the_rules(name, players, options):
    # the list is joined from parts kept by the game (each kind's puts by its count and the
    # hand's size, the turns with an order by label) for a hand of one label or none seen
    # before, or else directly from the rows of each count (in Plus a hand of several labels
    # keeps no parts: such hands seldom recur; classic, 8 labels a colour, keeps parts for
    # every set of labels): along random games, in which hands of one, two and many labels
    # recur, both are exactly the rules' list, in the same order
    import random

    game = tw.make(name, players=players, **options)
    assert game._label_sets_kept == (name == "mamma-mia")
    rng, turns, many, kept, kept_many = random.Random(players), 0, 0, 0, 0
    for seed in range(4):
        state = game.new_state(seed)
        while not state.is_over:
            before = len(game._kind_turns)
            legal = state.legal_actions()
            if state.phase == "turn":
                rules = _turns_from_the_rules(state)
                assert legal == rules
                assert state.legal_actions() == rules  # the second time: kept
                labels = len({game.deck[o].label for o in state.hands_ord[state.to_move]})
                if labels > 1 and not game._label_sets_kept:
                    assert len(game._kind_turns) == before
                kept += len(game._kind_turns) > before
                kept_many += labels > 1 and len(game._kind_turns) > before
                turns += 1
                many += labels > 2
            state = state._apply(rng.choice(legal))
    assert turns > 100 and many > 0 and kept > 0
    assert (kept_many > 0) == game._label_sets_kept


@pytest.mark.parametrize("name", ["mamma-mia", "mamma-mia-plus"])
def test_captions_name_no_seat_with_a_gendered_pronoun(name):
    # the seats are colours ("Brown draws 1 order from their waiter"): no caption of any
    # event, public or secret, says he or his, and a count of orders is spelt out
    import random
    import re

    game, rng, texts = tw.make(name, players=4), random.Random(3), set()
    for seed in range(6):
        state = game.new_state(seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            texts.update(t for e in state.events for t in (e.text, e.public_text) if t)
    assert any("from their waiter" in t for t in texts)
    assert any("help" in t.lower() for t in texts) == (name == "mamma-mia-plus")
    for text in texts:
        assert not re.search(r"\b(he|his|him|himself)\b", text, re.IGNORECASE), text
        assert "(s)" not in text, text


def test_czech_example_draws_only_two_with_optional_actions():
    # Green puts three salami and the order "4 salami + 1 pepper", then draws only two orders
    # from his waiter: he plays on with five cards
    hands = {GREEN: {"ingredients": {"salami": 3, "mushroom": 3}, "orders": ["4 salami + 1 pepper"]}}
    turn = "put 3 salami; order 4 salami + 1 pepper; draw 2 from waiter"
    strict = position(tw.make("mamma-mia", players=4), to_move=GREEN, hands=hands)
    with pytest.raises(tw.IllegalAction):
        strict.apply(turn)
    with pytest.raises(tw.IllegalAction):
        strict.apply("pass")
    free = position(tw.make("mamma-mia", players=4, optional_actions=True), to_move=GREEN, hands=hands)
    after = free.apply(turn)
    green = after.observe(GREEN)["players"][GREEN]
    assert (green["hand_ingredients"], green["hand_orders"]) == (3, 2)
    assert "pass" in legal(free) and "order 4 salami + 1 pepper; draw waiter" in legal(free)


def test_spanish_example_a_waiter_of_three_leaves_the_hand_at_six():
    game = tw.make("mamma-mia", players=4)
    state = position(game, to_move=GREEN, waiters={GREEN: 3},
                     hands={GREEN: {"ingredients": {"salami": 3, "olive": 3}, "orders": ["4 salami + 1 pepper"]}})
    after = state.apply("put 3 salami; order 4 salami + 1 pepper; draw waiter")
    green = after.observe(GREEN)["players"][GREEN]
    assert (green["hand_ingredients"], green["hand_orders"], green["waiter"]) == (3, 3, 0)


def test_plus_example_a_waiter_of_three_leaves_the_hand_at_eight():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, to_move=GREEN, waiters={GREEN: 3},
                     hands={GREEN: {"ingredients": {"salami": 3, "olive": 5}, "orders": ["4 salami + 1 pepper"]}})
    after = state.apply("put 3 salami; order 4 salami + 1 pepper; draw waiter")
    green = after.observe(GREEN)["players"][GREEN]
    assert green["hand_ingredients"] + green["hand_orders"] == 8 and green["waiter"] == 0


def test_plus_draws_at_most_five_per_turn():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, hands={0: {"ingredients": {"salami": 6, "olive": 2}, "orders": ["monotoni"]}})
    after = state.apply("put 6 salami; order monotoni; draw supply")
    assert after.observe(0)["players"][0]["hand_ingredients"] == 7  # 2 + 5, the hand stays below 9


def test_classic_player_without_ingredients_skips_the_first_step():
    state = position(tw.make("mamma-mia", players=3), hands={0: {"orders": ["monotoni", "minimale"]}})
    assert legal(state) == sorted(["draw supply", "draw waiter", "order monotoni; draw supply",
                                   "order monotoni; draw waiter", "order minimale; draw supply",
                                   "order minimale; draw waiter"])
    after = state.apply("order monotoni; draw supply")
    assert after.observe(0)["players"][0]["hand_ingredients"] == 6


def test_plus_player_without_ingredients_draws_five_beyond_the_limit():
    labels = ["monotoni", "minimale", "ciottona", "bombastica", "4 salami + 1 pepper"]
    state = position(tw.make("mamma-mia-plus", players=3), to_move=GREEN, hands={GREEN: {"orders": labels}})
    assert legal(state) == ["draw 5 ingredients"]
    after = state.apply("draw 5 ingredients")
    green = after.observe(GREEN)["players"][GREEN]
    assert (green["hand_ingredients"], green["hand_orders"]) == (5, 5)  # 10 cards: the limit does not cap
    assert after.to_move == BROWN


def test_drawing_the_mamma_mia_card_lays_it_out_and_draws_a_replacement():
    game = tw.make("mamma-mia", players=4)
    state = position(game, hands={0: {"ingredients": {"salami": 2}}})
    # put the Mamma Mia card on top of the supply
    supply = (MAMMA_MIA,) + tuple(c for c in state.supply if c != MAMMA_MIA)
    state = state._with(supply=supply).validate()
    after = state.apply("put 1 salami; draw supply")
    view = after.observe(1)
    assert view["mamma_mia_card"] == 0 and view["players"][0]["mamma_mia"]
    assert view["players"][0]["hand_ingredients"] == 7  # the card is not in the hand: 1 + 6
    assert view["supply"] == len(supply) - 7


def test_the_mamma_mia_card_as_the_last_supply_card_ends_the_phase():
    game = tw.make("mamma-mia", players=4)
    state = position(game, to_move=BROWN, supply={}, hands={BROWN: {"ingredients": {"olive": 2}}},
                     oven=[(0, "3 salami")])
    assert state.supply == (MAMMA_MIA,)
    after = state.apply("put 2 olive; draw supply")
    kinds = [e.kind for e in after.events]
    assert kinds[:2] == ["turn", "oven-closed"]
    assert "Mamma Mia card" in after.events[0].text
    closed = after.events[1]
    assert closed.data["emptier"] == BROWN
    # nothing to decide: the oven is emptied and Brown starts the next round
    assert after.phase == "turn" and after.to_move == BROWN and after.oven_number == 2
    assert after.observe(None)["players"][BROWN]["hand_ingredients"] == 0  # no replacement was left


def test_the_phase_ends_with_the_last_supply_card_and_plus_drawer_empties():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, to_move=PURPLE, supply={"olive": 2}, hands={PURPLE: {"ingredients": {"salami": 3}}},
                     oven=[(0, "1 salami")])
    after = state.apply("put 3 salami; draw supply")
    assert after.events[1].kind == "oven-closed" and after.events[1].data["emptier"] == PURPLE
    assert after.turn == PURPLE and after.oven_number == 2
    # used cards make the new supply, leftovers the base of the next oven
    assert after.observe(None)["oven"]["log"] == [{"seat": None, "kind": "salami", "count": 4, "base": True}]
    assert len(after.supply) == 15 * 6 - 3 * 6 - 4 - 2  # everything else was in the used pile


def test_deadlock_guard_ends_the_phase_after_a_cycle_without_a_moving_card():
    game = tw.make("mamma-mia", players=4)
    hands = {}
    for seat in range(4):
        labels = [o.label for o in game.deck if o.colour == seat][:7]
        hands[seat] = {"orders": labels}
    state = position(game, hands=hands, base={"salami": 2})
    supply = len(state.supply)
    for seat in range(3):
        assert "pass" in legal(state)
        state = state.apply("pass")
        assert state.phase == "turn" and state.to_move == seat + 1
    state = state.apply("pass")
    closed = [e for e in state.events if e.kind == "oven-closed"][0]
    assert closed.data == {"emptier": 3, "reason": "deadlock"}  # the card is in the supply: the last player
    assert state.oven_number == 2 and state.to_move == 3
    # the cards left in the supply join the new supply (nothing was used): no card is lost
    state.validate()
    assert len(state.supply) == supply and state.observe(None)["oven"]["log"][0]["count"] == 2


# the evaluation ----------------------------------------------------------------------------------
def test_table_example_green_adds_one_pineapple():
    game = tw.make("mamma-mia", players=4)
    state = position(game, base={"pineapple": 3, "pepper": 3, "mushroom": 4, "salami": 2},
                     oven=[(GREEN, "order 4 pineapple + 1 pepper"), (0, "1 olive")],
                     hands={GREEN: {"ingredients": {"pineapple": 1, "olive": 2}}}, evaluate=True)
    assert state.to_move == GREEN
    # the base's 12 cards, one at a time (the table grows by one per sub-step), then the order
    assert [e.kind for e in state.events] == ["reveal"] * 13
    afters = [e.after or state for e in state.events]  # the last event's state is ``state`` itself
    assert [sum(a.table) for a in afters] == list(range(1, 13)) + [12]
    assert [e.after.observe(3)["evaluation"]["remaining"] for e in state.events[:12]] == list(range(13, 1, -1))
    assert state.events[0].data == {"kind": "salami", "count": 1, "seat": None, "nth": 1, "of": 2}
    assert state.events[0].text == "Revealed: 1 salami (the leftovers of the last oven, 1 of 2); sorted into the table."
    # the public log keeps one entry per played group; mid-entry it is neither struck nor lost
    assert [len(a.observe(3)["oven"]["log"]) for a in afters] == [6] * 13
    assert state.events[1].after.observe(3)["evaluation"]["revealed"] == [
        {"type": "ingredient", "kind": "salami", "seat": None}] * 2
    assert legal(state) == ["make adding 1 pineapple", "send back"]
    view = state.observe(GREEN)["evaluation"]
    assert view["decision"]["kind"] == "add_from_hand" and view["order"]["needs"] == {"pineapple": 4, "pepper": 1}
    after = state.apply("make adding 1 pineapple")
    made = after.events[0]
    assert made.kind == "made"
    assert made.data["from_table"] == {"pineapple": 3, "pepper": 1} and made.data["from_hand"] == {"pineapple": 1}
    assert "3 pineapples + 1 pepper from the table, 1 pineapple from Green's hand" in made.text
    # 5 cards used; the rest stays and is the base of the next oven (with the olive revealed after)
    assert tuple(a - b for a, b in zip(made.after.used, state.used)) == (0, 4, 0, 1, 0)
    assert table(made.after) == {"salami": 2, "mushroom": 4, "pepper": 2}
    assert after.observe(None)["players"][GREEN]["delivered"] == 1
    assert after.observe(None)["hands"][GREEN]["ingredients"] == {"olive": 2}
    base = {e["kind"]: e["count"] for e in after.observe(None)["oven"]["log"]}
    assert base == {"salami": 2, "mushroom": 4, "pepper": 2, "olive": 1}


def test_an_order_sent_back_goes_under_the_waiter_and_uses_nothing():
    game = tw.make("mamma-mia", players=4)
    state = position(game, base={"pineapple": 3, "pepper": 1}, oven=[(GREEN, "order 4 pineapple + 1 pepper")],
                     hands={GREEN: {"ingredients": {"pineapple": 1}}}, evaluate=True)
    waiter = state.waiters[GREEN]
    after = state.apply("send back")
    assert after.waiters[GREEN] == waiter + (game.order_id(GREEN, "4 pineapple + 1 pepper"),)
    assert sum(after.used) == 0 and after.observe(None)["hands"][GREEN]["ingredients"] == {"pineapple": 1}


def test_an_order_the_table_holds_is_made_without_a_decision():
    game = tw.make("mamma-mia", players=4)
    state = position(game, base={"pineapple": 5, "pepper": 1}, oven=[(GREEN, "order 4 pineapple + 1 pepper")],
                     evaluate=True, emptier=PURPLE)
    assert state.phase == "turn" and state.to_move == PURPLE  # the emptier starts the next round
    assert [e.kind for e in state.events][-2:] == ["made", "new-round"]
    assert state.observe(None)["players"][GREEN]["delivered"] == 1


def test_classic_monotoni_example_offers_every_kind_but_the_personal_one():
    game = tw.make("mamma-mia", players=4)
    state = position(game, base={"pepper": 4, "salami": 2, "mushroom": 2, "pineapple": 4},
                     oven=[(GREEN, "order monotoni")],
                     hands={GREEN: {"ingredients": {"pineapple": 2, "salami": 4, "mushroom": 4, "olive": 6}}},
                     evaluate=True)
    assert legal(state) == sorted(["make with pineapple adding 2 pineapple", "make with salami adding 4 salami",
                                   "make with mushroom adding 4 mushroom", "make with olive adding 6 olive",
                                   "send back"])
    assert state.observe(0)["evaluation"]["decision"]["kind"] == "choose_kind"
    after = state.apply("make with pineapple adding 2 pineapple")
    assert after.events[0].data["from_table"] == {"pineapple": 4, "pepper": 1}
    assert after.events[0].data["from_hand"] == {"pineapple": 2}


def test_classic_minimale_example():
    game = tw.make("mamma-mia", players=4)
    state = position(game, base={"pepper": 2, "salami": 2, "mushroom": 2, "pineapple": 3},
                     oven=[(GREEN, "order minimale")], hands={GREEN: {"ingredients": {"salami": 1, "mushroom": 1}}},
                     evaluate=True)
    # olive is absent, pepper is green's own: salami or mushroom, 3 of them
    assert legal(state) == ["make with mushroom adding 1 mushroom", "make with salami adding 1 salami", "send back"]
    after = state.apply("make with salami adding 1 salami")
    assert after.events[0].data["from_table"] == {"salami": 2, "pepper": 1}


def test_plus_minimale_example_for_red():
    game = tw.make("mamma-mia-plus", players=5)
    state = position(game, base={"pepper": 2, "salami": 2, "mushroom": 2, "pineapple": 3},
                     oven=[(RED, "order minimale")], hands={RED: {"ingredients": {"pepper": 2, "mushroom": 2}}},
                     evaluate=True)
    makes = [a for a in legal(state) if a.startswith("make")]
    assert makes == ["make with mushroom adding 2 mushroom", "make with pepper adding 2 pepper"]
    after = state.apply("make with pepper adding 2 pepper")
    assert after.events[0].data["from_table"] == {"pepper": 2, "salami": 1}


def test_minimale_with_no_eligible_kind_fails():
    game = tw.make("mamma-mia", players=4)
    state = position(game, base={"pepper": 3}, oven=[(GREEN, "order minimale")],
                     hands={GREEN: {"ingredients": {"salami": 3}}}, evaluate=True)
    sent = [e for e in state.events if e.kind == "sent-back"]
    assert sent and "no kind is eligible" in sent[0].text
    assert state.phase == "turn" and sum(state.used) == 0


def test_bombastica_with_21_cards_uses_all_21():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"salami": 5, "pineapple": 4, "mushroom": 4, "pepper": 3, "olive": 3, "shrimp": 2},
                     oven=[(GREEN, "order bombastica")], evaluate=True)
    i = next(i for i, e in enumerate(state.events) if e.kind == "made")
    made, before = state.events[i], state.events[i - 1].after
    assert sum(before.table) == 21 and sum(made.data["from_table"].values()) == 21
    assert sum(made.after.used) - sum(before.used) == 21 and sum(made.after.table) == 0


@pytest.mark.parametrize("from_hand", [True, False])
def test_bombastica_at_exactly_15_and_14(from_hand):
    game = tw.make("mamma-mia", players=4, bombastica_from_hand=from_hand)
    fifteen = position(game, base={"salami": 5, "pineapple": 5, "olive": 5}, oven=[(GREEN, "order bombastica")],
                       evaluate=True)
    assert [e.kind for e in fifteen.events][-2:] == ["made", "new-round"]
    fourteen = position(game, base={"salami": 5, "pineapple": 5, "olive": 4}, oven=[(GREEN, "order bombastica")],
                        hands={GREEN: {"ingredients": {"mushroom": 1, "pepper": 1}}}, evaluate=True)
    if not from_hand:
        assert [e.kind for e in fourteen.events][-2:] == ["sent-back", "new-round"]
        return
    assert legal(fourteen) == ["make adding 1 mushroom", "make adding 1 pepper", "send back"]
    after = fourteen.apply("make adding 1 pepper")
    assert sum(after.events[0].after.used) - sum(fourteen.used) == 15
    assert after.observe(None)["hands"][GREEN]["ingredients"] == {"mushroom": 1}


def test_plus_help_example():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"mushroom": 4, "olive": 2, "pepper": 1}, oven=[(GREEN, "order 4 olive + 1 pepper")],
                     hands={GREEN: {"ingredients": {"olive": 1}}, BROWN: {"ingredients": {"salami": 2}},
                            PURPLE: {"ingredients": {"olive": 1}}}, evaluate=True)
    assert legal(state) == ["ask for 1 olive", "ask for 2 olive", "send back"]
    state = state.apply("ask for 1 olive")
    # the left neighbour is asked first; Brown has no olive, so he can only refuse
    assert state.to_move == BROWN and legal(state) == ["refuse"]
    assert state.observe(BROWN)["evaluation"]["decision"]["kind"] == "help"
    state = state.apply("refuse")
    assert state.to_move == PURPLE and legal(state) == ["help", "refuse"]
    top = state.waiters[PURPLE][0]
    after = state.apply("help")
    made = after.events[0]
    assert made.kind == "made" and made.data["helper"] == PURPLE
    assert made.data["from_table"] == {"olive": 2, "pepper": 1}
    assert made.data["from_hand"] == {"olive": 1} and made.data["from_helper"] == {"olive": 1}
    assert sum(made.after.used) - sum(state.used) == 5 and table(made.after) == {"mushroom": 4}
    assert top in after.delivered[PURPLE] and top not in after.waiters[PURPLE]
    assert after.scores[GREEN] == 1 and after.scores[PURPLE] == 1
    view = after.observe(None)
    assert view["hands"][GREEN]["ingredients"] == {} and view["hands"][PURPLE]["ingredients"] == {}


def test_help_refused_by_all_fails_even_if_the_owner_could_finish():
    game = tw.make("mamma-mia-plus", players=3)
    state = position(game, base={"olive": 2, "pepper": 1}, oven=[(GREEN, "order 4 olive + 1 pepper")],
                     hands={GREEN: {"ingredients": {"olive": 2}}, 2: {"ingredients": {"olive": 2}},
                            0: {"ingredients": {"olive": 2}}}, evaluate=True)
    assert "make adding 2 olive" in legal(state)
    state = state.apply("ask for 2 olive")
    assert state.to_move == 2
    state = state.apply("refuse")
    assert state.to_move == 0
    after = state.apply("refuse")
    assert after.events[0].kind == "sent-back" and "even if they could finish it" in after.events[0].text
    assert after.observe(None)["hands"][GREEN]["ingredients"] == {"olive": 2}
    assert after.scores == (0, 0, 0)


def test_help_skips_players_with_an_empty_waiter_and_is_never_offered_for_bombastica():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"olive": 3, "pepper": 1}, oven=[(GREEN, "order 4 olive + 1 pepper")],
                     waiters={BROWN: 0}, evaluate=True)
    state = state.apply("ask for 1 olive")
    assert state.to_move == PURPLE
    bomb = position(game, base={"olive": 10}, oven=[(GREEN, "order bombastica")],
                    hands={GREEN: {"ingredients": {"salami": 5}}}, evaluate=True)
    assert not any(a.startswith("ask") for a in legal(bomb))


def test_small_monotoni_and_mini_fail_on_their_crossed_kind():
    game = tw.make("mamma-mia-plus", players=4)
    small = next(o for o in game.deck if o.colour == GREEN and o.type == "small_monotoni")
    crossed = game.kinds[small.crossed]
    state = position(game, base={crossed: 1, "salami": 5}, oven=[(GREEN, f"order {small.label}")], evaluate=True)
    assert any(e.kind == "sent-back" and "crossed out" in e.text for e in state.events)
    state = position(game, base={"salami": 5, "olive": 5}, oven=[(GREEN, f"order {small.label}")], evaluate=True)
    choices = [a for a in legal(state) if a.startswith("make")]
    assert choices == ["make with olive", "make with salami"]
    mini = next(o for o in game.deck if o.colour == GREEN and o.type == "mini")
    recipe = {game.kinds[k]: n for k, n in enumerate(mini.recipe) if n}
    made = position(game, base=recipe, oven=[(GREEN, f"order {mini.label}")], evaluate=True)
    assert any(e.kind == "made" for e in made.events)
    failed = position(game, base=dict(recipe, **{game.kinds[mini.crossed]: 1}), oven=[(GREEN, f"order {mini.label}")],
                      evaluate=True)
    assert any(e.kind == "sent-back" for e in failed.events)


def test_ciottona_needs_two_different_jokers():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"pepper": 1, "salami": 4, "olive": 4, "shrimp": 4}, oven=[(GREEN, "order ciottona")],
                     evaluate=True)
    makes = [a for a in legal(state) if a.startswith("make")]
    assert makes == ["make with salami+olive", "make with salami+shrimp", "make with olive+shrimp"] or \
        sorted(makes) == sorted(["make with salami+olive", "make with salami+shrimp", "make with olive+shrimp"])
    assert "send back" not in legal(state)  # the table holds it: the pizza is made, the owner only chooses
    after = state.apply("make with olive+shrimp")
    assert after.events[0].data["from_table"] == {"pepper": 1, "olive": 4, "shrimp": 4}


def test_pizza_mamma_mia_example_card(tmp_path):
    with open(f"{DECK_DIR}/plus.json") as fh:
        doc = json.load(fh)
    card = next(c for c in doc["orders"]["green"] if c["type"] == "pizza_mamma_mia")
    card.update(fixed="salami", choices=["pepper", "pineapple"])  # the source's example
    path = tmp_path / "plus.json"
    path.write_text(json.dumps(doc))
    game = tw.make("mamma-mia-plus", players=4, deck=str(path))
    label = "pizza mamma mia 1 salami + 5 pepper/pineapple"
    for kind, other in (("pepper", "pineapple"), ("pineapple", "pepper")):
        state = position(game, base={"salami": 1, "pepper": 5, "pineapple": 5}, oven=[(GREEN, f"order {label}")],
                         evaluate=True)
        assert [a for a in legal(state) if a.startswith("make")] == ["make with pepper", "make with pineapple"]
        after = state.apply(f"make with {kind}")
        assert after.events[0].data["from_table"] == {"salami": 1, kind: 5}
        assert table(after.events[0].after) == {other: 5}


# end and scoring ------------------------------------------------------------------------------------
def test_scoring_most_delivered_then_most_ingredients_then_shared():
    game = tw.make("mamma-mia", players=3)
    end = position(game, oven_number=3, delivered={0: 2, 1: 2, 2: 1}, evaluate=True,
                   hands={0: {"ingredients": {"salami": 3}}, 1: {"ingredients": {"olive": 2}}, 2: {"ingredients": {"olive": 5}}})
    assert end.is_over and end.scores == (2, 2, 1) and end.winners == (0,)
    shared = position(game, oven_number=3, delivered={0: 2, 1: 2}, evaluate=True,
                      hands={0: {"ingredients": {"salami": 3}}, 1: {"ingredients": {"olive": 3}}})
    assert shared.winners == (0, 1)
    assert shared.observe(1)["winners"] == [0, 1] and shared.observe(1)["phase"] == "over"


def test_the_game_lasts_three_ovens_or_four_without_help():
    for game, ovens in ((tw.make("mamma-mia", players=3), 3), (tw.make("mamma-mia-plus", players=3, help=False), 4)):
        match = tw.Match(game, seed=4)
        seen = set()
        while not match.state.is_over:
            seen.add(match.state.oven_number)
            match.play(match.state.legal_actions()[0])
        assert seen == set(range(1, ovens + 1))


def test_state_json_rejects_inconsistent_states():
    game = tw.make("mamma-mia", players=4)
    state = game.new_state(1)
    doc = json.loads(state.to_json())
    assert game.state_from_json(state.to_json()) == state
    twice = json.loads(state.to_json())
    twice["state"]["waiters"][0].append(twice["state"]["hands_orders"][0][0])
    with pytest.raises(ValueError, match="is twice"):
        game.state_from_json(json.dumps(twice))
    lost = json.loads(state.to_json())
    lost["state"]["supply"].pop(0 if lost["state"]["supply"][0] != -1 else 1)
    with pytest.raises(ValueError, match="conservation broken"):
        game.state_from_json(json.dumps(lost))
    short = dict(doc, state=dict(doc["state"], table=[0, 0]))
    with pytest.raises(ValueError, match="table must be a list of 5 ints"):
        game.state_from_json(json.dumps(short))
    mm = json.loads(state.to_json())
    mm["state"]["mamma_mia"] = 2
    with pytest.raises(ValueError, match="Mamma Mia card must be exactly once"):
        game.state_from_json(json.dumps(mm))


def test_classic_accepts_help_false_and_rejects_help_true():
    # API.md lists help=False: the classic edition has no Help, so False is accepted and changes nothing
    game = tw.make("mamma-mia", players=4, help=False)
    assert game.ovens == 3 and not game.help and "help" not in game.options
    assert game.new_state(2).to_json() == tw.make("mamma-mia", players=4).new_state(2).to_json()
    with pytest.raises(ValueError, match="help=True is not allowed: the classic edition has no Help; allowed values: False"):
        tw.make("mamma-mia", players=4, help=True)
    with pytest.raises(ValueError, match="help='no' is not allowed"):
        tw.make("mamma-mia", players=4, help="no")


def _help_example():
    """Plus, Help: Green asks for 1 olive; Brown (seat 2) is asked first."""
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"mushroom": 4, "olive": 2, "pepper": 1}, oven=[(GREEN, "order 4 olive + 1 pepper")],
                     hands={GREEN: {"ingredients": {"olive": 1}}, 2: {"ingredients": {"olive": 1}},
                            3: {"ingredients": {"olive": 1}}}, evaluate=True, emptier=0)
    return game, state.apply("ask for 1 olive")


def test_state_json_rejects_an_impossible_pending_help():
    game, state = _help_example()
    assert state.pending[0] == "help" and state.to_move == 2
    assert game.state_from_json(state.to_json()) == state

    def edited(change):
        doc = json.loads(state.to_json())
        change(doc["state"])
        return json.dumps(doc)

    def empty_waiter(s):  # Brown's waiter cards go to his delivered pile: he cannot be asked
        s["delivered"][2] += s["waiters"][2]
        s["waiters"][2] = []
    with pytest.raises(ValueError, match="Brown is asked for Help but their waiter is empty"):
        game.state_from_json(edited(empty_waiter))
    with pytest.raises(ValueError, match="a seat other than the owner"):
        game.state_from_json(edited(lambda s: s["pending"].__setitem__(5, GREEN)))
    with pytest.raises(ValueError, match="exactly what the table lacks"):
        game.state_from_json(edited(lambda s: s["pending"].__setitem__(3, [0, 0, 0, 0, 2, 0])))
    with pytest.raises(ValueError, match="a way to make"):
        game.state_from_json(edited(lambda s: s["pending"].__setitem__(2, 3)))
    no_help = tw.make("mamma-mia-plus", players=4, help=False)
    doc = json.loads(state.to_json())
    doc["options"] = dict(doc["options"], help=False)
    with pytest.raises(ValueError, match="a pending Help, but this game has no Help"):
        no_help.state_from_json(json.dumps(doc))


def test_state_json_rejects_a_shown_order_that_is_not_the_revealed_one():
    game, state = _help_example()

    def edited(change):
        doc = json.loads(state.to_json())
        change(doc["state"])
        return json.dumps(doc)

    # shown is copied into every seat's view: another card there would leak it
    secret = dict(game.card_dicts[game.orders_of[2][0]])
    with pytest.raises(ValueError, match="the last revealed order card"):
        game.state_from_json(edited(lambda s: s["shown"].update(secret)))
    with pytest.raises(ValueError, match="exactly the keys"):
        game.state_from_json(edited(lambda s: s["shown"].update(hand_of_brown={"olive": 1})))
    with pytest.raises(ValueError, match="needs a pending decision|needs the order shown"):
        game.state_from_json(edited(lambda s: s.update(shown=None)))
    with pytest.raises(ValueError, match=r"shown\['result'\]"):
        game.state_from_json(edited(lambda s: s["shown"].update(result="eaten")))


def test_state_json_rejects_a_turn_with_evaluation_leftovers():
    game = tw.make("mamma-mia", players=4)
    state = game.new_state(3)
    for field, value in (("emptier", 1), ("shown", {"label": "monotoni"})):
        doc = json.loads(state.to_json())
        doc["state"][field] = value
        with pytest.raises(ValueError, match="a turn-phase state has no emptier and no order shown"):
            game.state_from_json(json.dumps(doc))
    assert game.state_from_json(state.to_json()) == state


def test_only_the_all_seeing_view_names_the_orders_in_the_oven():
    game = tw.make("mamma-mia", players=3)
    state = game.new_state(seed=2)
    while not any(item[0] != "i" for item in state.oven):  # play until an order lies in the oven
        orders = [a for a in state.legal_actions() if "order" in str(a)]
        state = state.apply(orders[0] if orders else state.legal_actions()[0])
    in_oven = [item for item in state.oven if item[0] != "i"]
    teacher = [e for e in state.observe(None)["oven"]["log"] if "order" in e]
    assert [e["card"]["label"] for e in teacher] == [game.deck[item[2]].label for item in in_oven]
    for seat in range(3):
        assert all("card" not in e for e in state.observe(seat)["oven"]["log"])
    json.dumps(state.observe(None))  # still JSON-safe


def test_event_sentences_count_in_good_english():
    import re

    counted = re.compile(r"\b1 (cards|used cards|ingredients|orders)\b|\b(?:[02-9]|\d\d+) card\b(?! of)")
    new_round = set()
    for seed in range(12):
        for name, players in (("mamma-mia", 3), ("mamma-mia-plus", 4)):
            m = tw.Match(name, seed=seed, players=players)
            m.autoplay({s: "random" for s in range(players)}, max_steps=300)
            for i in range(1, len(m) + 1):
                for e in m.state_at(i).events:
                    assert not counted.search(e.text), e.text
                    if e.kind == "new-round":
                        new_round.add(e.data["base"] == 1)
    assert True in new_round  # an oven that left exactly one card was seen


# an order the table can make is made (Help and sending back exist only for what is missing) --------
def test_a_monotoni_the_table_holds_offers_no_help_and_cannot_be_sent_back():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"pepper": 1, "salami": 6}, oven=[(GREEN, "order monotoni")],
                     hands={BROWN: {"ingredients": {"olive": 6}}}, evaluate=True)
    assert state.to_move == GREEN
    # the table holds the salami way; olive is missing, but asking for it could only send back
    # a pizza the table held
    assert legal(state) == ["make with salami"]
    decision = state.observe(GREEN)["evaluation"]["decision"]
    assert "made" in decision["question"] and "send it back" not in decision["question"]
    after = state.apply("make with salami")
    assert after.scores[GREEN] == 1 and after.events[0].data["from_table"] == {"pepper": 1, "salami": 6}


def test_an_order_the_table_holds_keeps_the_ways_the_owners_hand_completes():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"pepper": 1, "salami": 6, "olive": 4}, oven=[(GREEN, "order monotoni")],
                     hands={GREEN: {"ingredients": {"olive": 2}}}, evaluate=True)
    assert legal(state) == ["make with olive adding 2 olive", "make with salami"]
    after = state.apply("make with olive adding 2 olive")
    assert after.events[0].data["from_hand"] == {"olive": 2} and after.scores[GREEN] == 1


def test_an_order_the_table_cannot_make_still_offers_help_and_sending_back():
    game = tw.make("mamma-mia-plus", players=4)
    state = position(game, base={"pepper": 1, "salami": 5}, oven=[(GREEN, "order monotoni")], evaluate=True)
    actions = legal(state)
    assert "send back" in actions and "ask with salami for 1 salami" in actions


# option small_monotoni_personal ----------------------------------------------------------------------
@pytest.mark.parametrize("personal", [False, True])
def test_small_monotoni_personal_option_allows_the_personal_kind(personal):
    game = tw.make("mamma-mia-plus", players=4, small_monotoni_personal=personal)
    assert game.options["small_monotoni_personal"] is personal
    small = next(o for o in game.deck if o.colour == GREEN and o.type == "small_monotoni")
    state = position(game, base={"pepper": 5, "salami": 5}, oven=[(GREEN, f"order {small.label}")], evaluate=True)
    # the table holds a way, so only the ways are offered (no Help, no sending back)
    assert legal(state) == (["make with pepper", "make with salami"] if personal else ["make with salami"])
    kind = "pepper" if personal else "salami"
    after = state.apply(f"make with {kind}")
    assert after.events[0].data["from_table"] == {kind: 5} and after.scores[GREEN] == 1


def test_small_monotoni_personal_is_a_plus_option(capsys):
    assert tw.make("mamma-mia-plus").options["small_monotoni_personal"] is False
    with pytest.raises(ValueError, match="allowed values: False, True"):
        tw.make("mamma-mia-plus", small_monotoni_personal="yes")
    with pytest.raises(ValueError, match="unknown option 'small_monotoni_personal'"):
        tw.make("mamma-mia", small_monotoni_personal=True)
    from tabletop_widgets.__main__ import main
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    plus = out[out.index("\nmamma-mia-plus  ("):]
    classic = out[out.index("\nmamma-mia  ("):out.index("\nmamma-mia-plus  (")]
    assert "--option small_monotoni_personal=VALUE  (default false; allowed: false, true)" in plus
    assert "small_monotoni_personal" not in classic


def test_observations_built_along_a_game_match_a_state_loaded_afresh():
    # the oven's public side is built once per oven and shared along the turns (OvenView); a
    # state loaded from JSON builds it anew, and a branch (another action from the same
    # position) builds its own: every seat's view must be the same either way
    import random

    for name, players in (("mamma-mia", 4), ("mamma-mia-plus", 5)):
        game = tw.make(name, players=players)
        rng = random.Random(players)
        compared = 0
        for seed in range(3):
            state = game.new_state(seed)
            while not state.is_over:
                legal = state.legal_actions()
                if len(legal) > 1 and rng.random() < 0.3:
                    branch = state._apply(legal[-1])  # extends the shared view first
                    fresh = game.state_from_json(branch.to_json())
                    assert branch.observe(0, tally=True) == fresh.observe(0, tally=True)
                state = state._apply(rng.choice(legal))
                fresh = game.state_from_json(state.to_json())
                for seat in [None, *range(players)]:
                    assert state.observe(seat) == fresh.observe(seat)
                    compared += 1
        assert compared > 1000


def test_views_along_a_game_share_the_log_and_the_counts_that_did_not_change():
    # a view shares with the view before it (of the state it came from) the oven's log when
    # the oven is the same, and every seat's counts entry when the seat's hand, waiter and
    # delivered pile are the same; what changed is built anew and equals a fresh state's view
    import random

    game = tw.make("mamma-mia-plus", players=6)
    rng = random.Random(5)
    state = game.new_state(5)
    before = state.observe(state.turn)
    logs = entries = rebuilt = 0
    while not state.is_over:
        after = state._apply(rng.choice(state.legal_actions()))
        seat = after.to_move if after.to_move is not None else 0
        view = after.observe(seat)
        if after.oven == state.oven and after.oven_number == state.oven_number:
            assert view["oven"]["log"] is before["oven"]["log"]
            logs += 1
        for s in range(6):
            same = (after.hands_ing[s] == state.hands_ing[s] and after.hands_ord[s] == state.hands_ord[s]
                    and after.waiters[s] == state.waiters[s] and after.delivered[s] == state.delivered[s])
            if same and after.mm == state.mm:
                assert view["players"][s] is before["players"][s]
                entries += 1
            elif not same:
                rebuilt += 1
        assert view == game.state_from_json(after.to_json()).observe(seat)
        state, before = after, view
    assert logs > 50 and entries > 500 and rebuilt > 50


def test_playouts_write_no_event_until_one_is_read(monkeypatch):
    # a playout that never reads the events builds no sentence; reading them afterwards gives
    # exactly the events of applying the action with events, the same state reached either way
    from tabletop_widgets.games.mamma_mia import cards, oven, rules
    import random

    for name, players in (("mamma-mia", 4), ("mamma-mia-plus", 6)):
        game = tw.make(name, players=players)
        rng = random.Random(players)
        state, before, applied = game.new_state(3), [], []
        written = []
        with monkeypatch.context() as m:
            for module in (oven, rules):
                m.setattr(module, "new_event", lambda *a, **k: written.append(a[0]))
            while not state.is_over:
                action = rng.choice(state.legal_actions())
                before.append(state)
                applied.append(action)
                state = state._apply(action)
        assert written == [] and len(applied) > 100
        kinds = set()
        for i, (position, action) in enumerate(zip(before, applied)):
            after = before[i + 1] if i + 1 < len(before) else state
            full = position._apply_with_events(action)
            assert full == after
            assert [(e.kind, e.text, e.data, e.seats, e.public_text, e.public_data) for e in after.events] == \
                [(e.kind, e.text, e.data, e.seats, e.public_text, e.public_data) for e in full.events]
            assert [e.after for e in after.events] == [e.after for e in full.events]
            kinds.update(e.kind for e in after.events)
        assert {"turn", "oven-closed", "reveal", "made", "sent-back", "new-round", "game-over"} <= kinds


def test_playouts_build_the_revealed_order_only_when_it_is_read(monkeypatch):
    # a playout without events leaves each state's revealed order (``shown``) unbuilt, and
    # answers a settling decision with the ways and missing cards worked out when it was offered;
    # read afterwards, every state is the one reached by applying the actions with events
    from tabletop_widgets.games.mamma_mia import oven
    import random

    for name, players in (("mamma-mia", 4), ("mamma-mia-plus", 6)):
        game = tw.make(name, players=players)
        rng = random.Random(players)
        state, states, actions = game.new_state(5), [], []
        built, worked_out = [], []
        with monkeypatch.context() as m:
            m.setattr(oven, "_shown_with", lambda *a: built.append(a))
            real_needs = oven._needs
            m.setattr(oven, "_needs", lambda *a: worked_out.append(a) or real_needs(*a))
            while not state.is_over:
                legal = state.legal_actions()
                action = rng.choice(legal)
                actions.append(action)
                state = state._apply(action)
                states.append(state)
        assert built == [] and len(actions) > 50
        # only a Help answer works out the ways again (the decision offered was the helper's)
        assert len(worked_out) <= sum(type(a).__name__ == "Help" for a in actions)
        lazy = sum(type(s.__dict__["shown"]) is oven.LazyShown for s in states)
        assert lazy > 10
        eager = game.new_state(5)
        for action, quiet in zip(actions, states):
            eager = eager.apply(action)
            assert quiet.shown == eager.shown and quiet._payload() == eager._payload()
        assert type(states[-1].__dict__["shown"]) is not oven.LazyShown


def test_actions_are_built_once_per_value():
    # equal actions are one object, so the legal list's membership test and the learning
    # index compare identities; copies, pickles and keyword spellings give that object back
    import copy
    import dataclasses
    import pickle
    import random

    from tabletop_widgets.games.mamma_mia.cards import RESTOCK, SEND_BACK, Ask, Make, Restock, SendBack, Turn

    turn = Turn("olive", 2, None, "supply")
    assert turn is Turn(kind="olive", count=2, source="supply") is Turn("olive", 2, source="supply")
    assert turn is not Turn("olive", 2, None, "waiter") and turn != Turn("olive", 2, None, "waiter")
    assert str(turn) == "put 2 olive; draw supply" and repr(turn).startswith("Turn(kind='olive', count=2")
    for action in (turn, Make(1, "1 pineapple", "make adding 1 pineapple"), Ask(None, "1 olive", "ask for 1 olive"),
                   SEND_BACK, RESTOCK):
        assert copy.copy(action) is action and copy.deepcopy(action) is action
        assert pickle.loads(pickle.dumps(action)) is action
    assert SendBack() is SEND_BACK and Restock() is RESTOCK
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.count = 3
    with pytest.raises(TypeError):
        Turn("olive", 2, None, "supply", None, "extra")
    # every legal action of a game in progress is the object built for its value
    game = tw.make("mamma-mia-plus", players=4)
    rng, kinds = random.Random(5), set()
    for seed in range(2):
        state = game.new_state(seed)
        while not state.is_over:
            legal = state.legal_actions()
            for action in legal:
                fields = [getattr(action, name) for name in type(action)._FIELDS]
                assert type(action)(*fields) is action
                kinds.add(type(action).__name__)
            state = state._apply(rng.choice(legal))
    assert {"Turn", "Make", "SendBack", "Help", "Refuse"} <= kinds


def test_an_action_built_from_equal_values_of_another_type_is_not_the_engines():
    # True == 1 and 2.0 == 2 (numpy's integers too): had they found the same built action, the
    # first one built (by a user, before the engine) would be every later one, in every game:
    # its notation "put True olive", its events' data not JSON
    np = pytest.importorskip("numpy")
    from tabletop_widgets.games.mamma_mia.cards import Make, Turn

    label = "an order of this test"  # a label no deck has: the engine never builds these turns
    for odd, count in ((True, 1), (2.0, 2), (np.int64(3), 3)):
        first = Turn("olive", odd, label, "supply")
        own = Turn("olive", count, label, "supply")
        assert own is not first and str(own) == f"put {count} olive; order {label}; draw supply"
        assert type(own.count) is int and own is Turn("olive", count, label, "supply")
    first = Make((np.int64(0), True), None, "make of this test")
    assert Make((0, 1), None, "make of this test") is not first
    # one built by hand before a game starts is not among its legal actions, so not playable
    odd = Turn("pepper", True, None, "supply")
    game = tw.make("mamma-mia", players=3)
    state = game.new_state(0)
    assert all("True" not in str(a) for a in state.legal_actions())
    with pytest.raises(tw.IllegalAction):
        state.apply(odd)


def test_threads_building_the_same_actions_get_one_object_per_value():
    # tw.simulate may run games on threads: two threads building one value at once must still
    # end with one object, or an action built in one would not be "in" another's legal list
    import sys
    import threading

    from tabletop_widgets.games.mamma_mia.cards import Turn

    values, threads = 3000, 8
    built = [None] * threads
    start = threading.Barrier(threads)

    def build(i):
        start.wait()
        built[i] = [Turn("olive", 1, f"an order of thread test {k}", "supply") for k in range(values)]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often, inside the building of one action too
    try:
        workers = [threading.Thread(target=build, args=(i,)) for i in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        sys.setswitchinterval(interval)
    assert all(len({id(b[k]) for b in built}) == 1 for k in range(values))
    assert all(b[k] is Turn("olive", 1, f"an order of thread test {k}", "supply") for b in built for k in (0, values - 1))


def test_events_read_long_after_through_a_pickle_or_a_copy_are_those_read_at_once():
    # a playout's states write their events when first read, from the position they keep: states
    # pickled (to another process) or copied before that, read after the game went on and in any
    # order, tell what the same game's states read at once told
    import copy
    import pickle
    import random

    def told(state):
        return [(e.kind, e.text, e.data, e.seats, e.public_text, e.public_data, e.after) for e in state.events]

    for name, players in (("mamma-mia", 3), ("mamma-mia-plus", 5)):
        game = tw.make(name, players=players)
        rng = random.Random(players)
        state, actions, at_once, later = game.new_state(11), [], [], []
        while not state.is_over:
            actions.append(rng.choice(state.legal_actions()))
            state = state._apply(actions[-1])
            later.append(state)
        state = game.new_state(11)
        for action in actions:
            state = state.apply(action)
            at_once.append(told(state))
        assert len(later) > 100
        pickled, copied = pickle.loads(pickle.dumps(later)), copy.deepcopy(later)
        order = list(range(len(later)))
        rng.shuffle(order)
        for i in order:
            assert told((pickled, copied, later)[i % 3][i]) == at_once[i]


def test_a_playout_keeps_no_older_position_alive_and_its_events_survive_the_caches_read_before():
    # a state applied without events keeps the fields of the position before it, which keep no
    # position of their own: a whole game played through holds two positions' fields, however
    # long. What was read of a position after its successor was made (its view, legal actions,
    # revealed order, events) changes nothing of the successor's events.
    import gc
    import random

    def told(state):
        return [(e.kind, e.text, e.data, e.seats, e.public_text, e.public_data) for e in state.events]

    for name, players in (("mamma-mia", 4), ("mamma-mia-plus", 6)):
        game = tw.make(name, players=players)
        rng = random.Random(players)
        state, played, at_once = game.new_state(5), [], []
        while not state.is_over:
            played.append(rng.choice(state.legal_actions()))
            state = state.apply(played[-1])
            at_once.append(told(state))
        state, later = game.new_state(5), []
        for i, action in enumerate(played):
            after = state._apply(action)
            if i % 2:
                state.observe(None), state.observe(i % players), state.legal_actions(), state.shown
            if i % 3 == 0:
                state.events
            later.append(after)
            state = after
        assert [told(s) for s in later] == at_once and len(later) > 50
        # the last position alone: the fields reachable from it, the game aside
        last, later = later[-1], None
        gc.collect()
        seen, todo, fields = {id(game)}, [last], 0
        while todo:
            obj = todo.pop()
            if id(obj) in seen or isinstance(obj, (type, tw.core.Game)):
                continue
            seen.add(id(obj))
            fields += isinstance(obj, dict) and "hands_ing" in obj
            todo.extend(gc.get_referents(obj))
        assert fields == 2


def test_a_seats_value_is_replaced_in_place_of_that_seat_only():
    # the turn and the evaluation replace one seat's hand, waiter or delivered pile in a tuple of
    # every seat's with a function per seat count and seat (IN_SEAT)
    from tabletop_widgets.games.mamma_mia.cards import IN_SEAT

    for n in range(1, 7):
        values = tuple((s, "old") for s in range(n))
        for s in range(n):
            assert IN_SEAT[n][s](values, "new") == values[:s] + ("new",) + values[s + 1:]


@pytest.mark.parametrize("name, players, options", [
    ("mamma-mia", 4, {}), ("mamma-mia-plus", 6, {}), ("mamma-mia-plus", 4, {"help": False}),
])
def test_an_action_applied_without_events_reaches_the_position_written_with_them(name, players, options):
    # a playout's apply settles orders, sends them back and passes an ask for help on to the next
    # player on the position's own fields, without events: along random games every action
    # reaches the same position, the same revealed order and the same views as with events
    import random

    game = tw.make(name, players=players, **options)
    rng, kinds = random.Random(players), set()
    for seed in range(3):
        state = game.new_state(seed)
        while not state.is_over:
            legal = state.legal_actions()
            action = rng.choice(legal)
            quiet, written = state._apply(action), state._apply_with_events(action)
            assert quiet._payload() == written._payload()
            assert quiet.observe(None) == written.observe(None)
            kinds.update(type(action).__name__ for _ in [0] if state.phase == "evaluation")
            state = quiet
    assert {"SendBack", "Make"} <= kinds and (not game.help or "Refuse" in kinds)



@pytest.mark.parametrize("name, players, options", [
    ("mamma-mia", 4, {}), ("mamma-mia-plus", 6, {}), ("mamma-mia-plus", 3, {"optional_actions": True}),
])
def test_whose_move_it_is_follows_the_phase_turn_and_pending_decision(name, players, options):
    # to_move and is_over are kept with the fields where the phase, the turn or the pending
    # decision change: along random games, quiet and written applies, every sub-step's position
    # in the events and a position read back from its JSON, both are what those fields say
    import random

    def rules_to_move(state):
        if state.phase == "turn":
            return state.turn
        if state.phase == "evaluation" and state.pending is not None:
            p = state.pending
            return state.game.deck[p[1]].colour if p[0] == "settle" else p[5]
        return None

    game = tw.make(name, players=players, **options)
    rng, seen = random.Random(players), set()
    for seed in range(3):
        state = game.new_state(seed)
        while True:
            positions = [state, game.state_from_json(state.to_json())]
            positions += [e.after for e in state.events if e.after is not None]
            for position in positions:
                assert position.to_move == rules_to_move(position)
                assert position.is_over == (position.phase == "over")
                seen.add((position.phase, position.pending is None or position.pending[0]))
            if state.is_over:
                break
            action = rng.choice(state.legal_actions())
            state = state._apply(action) if rng.random() < 0.5 else state.apply(str(action))
    assert {("turn", True), ("evaluation", "settle"), ("evaluation", True), ("over", True)} <= seen
    assert ("evaluation", "help") in seen or not game.help

def test_the_mamma_mia_card_drawn_alone_is_said_without_drawing_nothing():
    # The supply holds only the Mamma Mia card (the oven notebook's table example): the turn's
    # sentence says Yellow draws that card, not "draws 0 from the supply: nothing".
    classic = tw.make("mamma-mia", players=4)
    start = position(classic, oven=[(1, "3 pepper")], hands={0: {"ingredients": {"olive": 2}}}, supply={}, to_move=0)
    m = tw.Match(classic, state=start)
    m.play("put 1 olive; draw supply")
    turn = next(f for f in m.frames(None) if f.step == 1 and f.kind == "turn")
    assert turn.caption == ("Yellow puts 1 olive in the oven. Yellow draws the Mamma Mia card and lays it out: "
                            "they will empty the oven and start the next round.")
    for seat in range(4):
        assert "draws 0" not in next(f for f in m.frames(seat) if f.step == 1).caption
