"""MammuZ: the worked cases of the rules page, each dinosaur, extinctions, the end, hidden cards."""

import json
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop_widgets as tw
from tabletop_widgets.games.mammuz.rules import CARDS, DINOSAURS, SPECIES_SIZE

GAME = tw.make("mammuz", players=5)
ALL_DINOS = list(DINOSAURS)


def position(hands, displays=(), claim=None, to_act=0, pile=(), bases=None, extinct=(), box=None, game=GAME):
    """A 5-player position: hands of seats 0–2 as named cards; the cards not placed are split
    between seats 3 and 4, so that neither holds a whole species (which would die out)."""
    hands = [list(h) for h in hands] + [[]]
    placed = [c for h in hands for c in h] + [c for _, cards in displays for c in cards] + list(pile)
    bases = dict(bases or {})
    for s, n in bases.items():
        placed += [s] * n
    in_play_dinos = [c for c in placed if c in DINOSAURS]
    box = list(box) if box is not None else [d for d in DINOSAURS if d not in in_play_dinos]
    for species in game.species:
        for i in range(SPECIES_SIZE[species] - placed.count(species)):
            hands[3 + i % 2].append(species)
    payload = {
        "hands": hands, "box": box, "starter": to_act, "to_act": to_act, "claim": claim,
        "displays": [{"seat": s, "cards": list(c), "turned": []} for s, c in displays],
        "pile": list(pile), "bases": bases, "dinosaurs_out": [], "extinct": list(extinct),
        "turned": [], "pending": None, "winner": None, "rng": 12345,
    }
    return game.state_from_json(json.dumps({**game.spec(), "state": payload}))


def test_set_up_by_player_count():
    for players, cards, each in [(3, 30, 10), (4, 40, 10), (5, 40, 8), (6, 48, 8), (7, 49, 7)]:
        s = tw.make("mammuz", players=players).new_state(3)
        view = s.observe(None)
        # a species dealt whole into one hand dies out at the start: its cards are on its base
        extinct = sum(view["bases"][x] for x in view["extinct"])
        assert sum(view["hand_sizes"]) + extinct == cards
        assert max(view["hand_sizes"]) == each
        assert len(view["dinosaurs_in_play"]) == {3: 3, 4: 5, 5: 5, 6: 4, 7: 5}[players]


def test_true_claim_challenged_challenger_takes_and_the_next_starts():
    s = position([["hare", "gopher"], ["hare", "deer"], ["bear"], []], displays=[(0, ["hare", "hare"])],
                 claim="hare", to_act=1)
    s = s.apply("challenge 1")
    assert [e.kind for e in s.events] == ["turn", "take", "starter"]
    assert "the claim was true" in s.events[0].text
    assert s.observe(None)["hand_sizes"][:3] == [2, 4, 1] and s.to_move == 2


def test_false_claim_challenged_displayer_takes_and_the_challenger_starts():
    s = position([["hare", "gopher"], ["hare", "deer"], ["bear"], []], displays=[(0, ["deer", "deer"])],
                 claim="hare", to_act=1)
    s = s.apply("challenge 2")
    assert "the claim of hare was false" in s.events[0].text
    assert s.observe(None)["hand_sizes"][:3] == [4, 2, 1] and s.to_move == 1


def dino(card, hands=None, **kw):
    hands = hands or [["hare", "gopher"], ["hare", "deer"], ["bear", "bear"], []]
    return position(hands, displays=[(2, ["hare"]), (0, [card])], claim="hare", to_act=1, **kw)


@pytest.mark.parametrize(
    "card, sizes, starter",
    [
        ("brontosaurus", [4, 2, 2], 1),  # displayer (seat 0) takes the herd of 2; the next after him starts
        ("pterosaur", [2, 4, 2], 2),  # challenger (seat 1) takes it
    ],
)
def test_brontosaurus_and_pterosaur(card, sizes, starter):
    s = dino(card).apply("challenge 1")
    assert s.observe(None)["hand_sizes"][:3] == sizes and s.to_move == starter


def test_triceratops_lets_the_challenger_choose_anyone_himself_included():
    s = dino("triceratops").apply("challenge 1")
    assert s.to_move == 1 and [str(a) for a in s.legal_actions()] == ["give 0", "give 1", "give 2", "give 3", "give 4"]
    assert s.observe(1)["phase"] == "give"
    given = s.apply("give 2")
    assert given.observe(None)["hand_sizes"][:3] == [2, 2, 4] and given.to_move == 3
    assert s.apply("give 1").observe(None)["hand_sizes"][1] == 4


def test_stegosaurus_deals_the_herd_out_from_the_next_player():
    s = dino("stegosaurus").apply("challenge 1")
    sizes = s.observe(None)["hand_sizes"]
    assert sizes[:3] == [2, 2, 3] and s.to_move == 1  # seat 2 then seat 3 each get one card
    assert "deals it out" in s.events[1].text


def test_plesiosaur_pile_goes_to_the_next_taker():
    s = dino("plesiosaur").apply("challenge 1")
    assert s.observe(0)["pile"] == 2 and s.observe(None)["hand_sizes"][:3] == [2, 2, 2] and s.to_move == 1
    s = s.apply("lay deer: deer")  # seat 1 starts a herd
    s = s.apply("challenge 1")  # seat 2 challenges a true claim: takes the herd and the pile
    assert s.observe(None)["hand_sizes"][2] == 2 + 1 + 2 and s.observe(0)["pile"] == 0
    assert "with the pile of 2" in s.events[1].text


def test_plesiosaur_pile_is_shuffled_into_a_stegosaurus_deal():
    s = position([["hare", "gopher"], ["hare", "deer"], ["bear", "bear"], []], displays=[(0, ["stegosaurus"])],
                 claim="hare", to_act=1, pile=["plesiosaur", "gopher"])
    before = sum(s.observe(None)["hand_sizes"])
    s = s.apply("challenge 1")
    assert sum(s.observe(None)["hand_sizes"]) == before + 3 and s.observe(0)["pile"] == 0
    assert "with the pile of 2" in s.events[1].text


def test_tyrannosaurus_puts_the_herd_face_up_on_the_bases():
    s = dino("tyrannosaurus").apply("challenge 1")
    view = s.observe(3)
    assert view["bases"]["hare"] == 1 and view["dinosaurs_out"] == ["tyrannosaurus"]
    assert s.observe(None)["hand_sizes"][:3] == [2, 2, 2] and s.to_move == 1


def test_taking_a_herd_that_completes_a_species_makes_it_extinct_at_once():
    # seat 1 holds one mammoth, the other is in seat 0's display; a true claim makes seat 1 take it
    s = position([["hare", "gopher"], ["mammoth", "deer", "hare"], ["bear"], []], displays=[(0, ["mammoth"])],
                 claim="mammoth", to_act=1)
    s = s.apply("challenge 1")
    assert [e.kind for e in s.events] == ["turn", "take", "extinction", "starter"]
    view = s.observe(2)
    assert "mammoth" in view["extinct"] and view["bases"]["mammoth"] == 2 and view["hand_sizes"][1] == 2
    assert s.legal_actions() and not any(str(a).startswith("lay mammoth") for a in s.legal_actions())


def test_extinction_all_cards_option_spares_a_species_with_cards_on_its_base():
    g = tw.make("mammuz", players=5, extinction="all_cards")
    s = position([["hare", "gopher"], ["mammoth", "deer"], ["bear"], []], displays=[(0, ["bear"])],
                 claim="bear", to_act=1, bases={"mammoth": 1}, game=g)
    assert "mammoth" not in s.apply("challenge 1").observe(None)["extinct"]
    s2 = position([["hare", "gopher"], ["mammoth", "deer"], ["bear"], []], displays=[(0, ["bear"])],
                  claim="bear", to_act=1, bases={"mammoth": 1})
    assert "mammoth" in s2.observe(None)["extinct"] or "mammoth" in s2.apply("challenge 1").observe(None)["extinct"]


def test_laying_the_last_card_must_be_challenged_and_a_true_card_wins():
    s = position([["hare"], ["deer", "bear"], ["bear"], []], to_act=0)
    s = s.apply("lay hare: hare")
    assert "their last cards" in s.events[0].public_text
    assert [str(a) for a in s.legal_actions()] == ["challenge 1"]
    with pytest.raises(tw.IllegalAction, match="must be challenged"):
        s.apply("lay hare: deer")
    end = s.apply("challenge 1")
    assert end.is_over and end.winners == (0,) and end.events[-1].kind == "end"


def test_the_turned_card_decides_before_the_extinction_it_causes():
    # Ada lays her last card, a true hare; Bruno must challenge and takes the herd, which gives
    # him all six hares: the extinction would empty his hand, but Ada won when the card turned.
    s = position([["hare"], ["hare"] * 5, ["bear"], []], to_act=0).apply("lay hare: hare")
    end = s.apply("challenge 1")
    assert end.is_over and end.winners == (0,)
    assert [e.kind for e in end.events] == ["turn", "take", "end"]
    assert "laid their last cards and still holds none: Ada wins" in end.events[-1].text
    assert "hare" not in end.observe(None)["extinct"]


def test_laying_the_last_card_with_a_lie_takes_the_herd_back():
    s = position([["deer"], ["hare", "bear"], ["bear"], []], to_act=0).apply("lay hare: deer").apply("challenge 1")
    assert not s.is_over and s.observe(None)["hand_sizes"][0] == 1


def test_a_hand_emptied_by_an_extinction_wins():
    s = position([["hare", "gopher"], ["mammoth"], ["bear"], []], displays=[(0, ["mammoth"])], claim="mammoth", to_act=1)
    end = s.apply("challenge 1")
    # seat 1 took 1 mammoth: he now holds both; they die out and his hand empties
    assert end.is_over and end.winners == (1,) and "emptied through an extinction" in end.events[-1].text


def test_observation_hides_other_hands_and_unturned_cards():
    s = position([["hare", "gopher", "deer"], ["hare", "deer"], ["bear"], []], to_act=0).apply("lay hare: hare gopher")
    lay = s.events[0]
    assert lay.seen_by(1)[0] == "Ada starts a herd: 2 cards face down, claimed to be 2 hares."
    assert "gopher" in lay.seen_by(0)[0] and "gopher" not in json.dumps(lay.seen_by(2))
    for seat in (1, 2, 3, 4):
        view = s.observe(seat)
        assert "cards" not in view["displays"][0] and "hands" not in view
        assert view["hand"] == {c: n for c, n in s.observe(None)["hands"][seat].items()}
    assert s.observe(0)["displays"][0]["cards"]


def test_bad_positions_say_what_is_wrong():
    good = json.loads(position([["hare"], ["deer"], ["bear"], []]).to_json())
    for change, message in [
        (lambda p: p["hands"][0].append("hare"), "hare cards found"),
        (lambda p: p["hands"][0].append("unicorn"), "unknown card"),
        (lambda p: p.update(to_act=9), "must be seats"),
        (lambda p: p.update(claim="hare"), "does not fit the displays"),
        (lambda p: p.update(rng="x"), "'rng' must be an int"),
        (lambda p: p["displays"].append({"seat": 0, "cards": [], "turned": []}), "bad display"),
    ]:
        doc = json.loads(json.dumps(good))
        change(doc["state"])
        with pytest.raises(ValueError, match=message):
            GAME.state_from_json(json.dumps(doc))


def test_options_are_checked():
    with pytest.raises(ValueError, match="first_player=5 is not a seat"):
        tw.make("mammuz", players=4, first_player=5)
    with pytest.raises(ValueError, match="extinction='some'"):
        tw.make("mammuz", extinction="some")
    assert tw.make("mammuz", players=5, first_player=4).new_state(0).to_move == 4


def test_a_lay_is_offered_one_decision_at_a_time_and_equals_the_whole_lay():
    s = position([["tiger", "hare", "hare", "gopher", "tyrannosaurus"], ["deer"], ["bear"], []], to_act=0)
    assert [str(a) for a in s.legal_actions()] == [f"claim {x}" for x in GAME.species]
    assert s.caption(s.legal_actions()[0]) == "Ada starts a herd of mammoths and chooses the cards to lay."
    step = s.apply("claim hare")
    assert step.to_move == 0 and step.events == ()
    # the claim as the whole lay's sentence says it: "claimed to be 2 hares", not "to be hare"
    assert step.caption(step.legal_actions()[0]) == "Ada puts a card face down (1 so far, claimed to be 1 hare)."
    assert step.apply("add tiger").caption(step.legal_actions()[1]) == "Ada puts a card face down (2 so far, claimed to be 2 hares)."
    assert [str(a) for a in step.legal_actions()] == ["add tiger", "add hare", "add gopher", "add tyrannosaurus"]
    step = step.apply("add gopher")
    assert step.observe(1)["laying"] == {"seat": 0, "species": "hare", "count": 1}
    assert step.observe(0)["laying"]["cards"] == ["gopher"]
    assert "gopher" not in step.caption(step.legal_actions()[0])
    with pytest.raises(tw.IllegalAction, match="one card at a time"):
        step.apply("lay hare: hare")
    step = step.apply("add hare").apply("done")
    assert step == s.apply("lay hare: hare gopher")
    # the fourth card closes the lay
    four = s.apply("claim hare")
    for card in ("hare", "hare", "gopher", "tyrannosaurus"):
        four = four.apply(f"add {card}")
    assert four == s.apply("lay hare: hare hare gopher tyrannosaurus") and four.to_move == 1
    # expanding starts with the first card; the claim is the herd's
    expand = four.legal_actions()
    assert [str(a) for a in expand] == ["challenge 1", "challenge 2", "challenge 3", "challenge 4", "add deer"]


def test_whole_lays_are_checked_without_listing_them():
    s = position([["hare", "hare", "gopher"], ["deer"], ["bear"], []], to_act=0)
    for bad, why in [("lay hare: gopher hare", "card order"), ("lay hare: deer", "does not hold"),
                     ("lay unicorn: hare", "not a species"), ("lay hare:", "1 to 4"), ("lay hare hare", "written")]:
        with pytest.raises(tw.IllegalAction, match=why):
            s.apply(bad)
    assert s.apply("lay hare: hare gopher").observe(0)["hand_sizes"][0] == 1
    laid = s.apply("lay hare: hare")
    with pytest.raises(tw.IllegalAction, match="same species"):
        laid.apply("lay gopher: deer")


def test_a_replay_of_whole_lays_recorded_before_the_decisions_loads_and_plays_the_same():
    cases = json.loads((pathlib.Path(__file__).parent / "data" / "mammuz_replays_whole_lays.json").read_text())
    for case in cases:
        m = tw.Match.from_json(json.dumps(case["replay"]))
        assert json.loads(m.state.to_json())["state"] | {"laying": None} == case["final"] | {"laying": None}
        assert len(m.frames(0)) == case["frames"] and m.state.is_over
        assert tw.Match.from_json(m.to_json()).state == m.state


def test_a_lay_being_made_is_checked_when_loaded():
    s = position([["hare", "hare", "gopher"], ["deer"], ["bear"], []], to_act=0).apply("claim hare").apply("add gopher")
    doc = json.loads(s.to_json())
    assert GAME.state_from_json(json.dumps(doc)) == s
    for laying, message in [({"species": "hare", "cards": ["deer"]}, "does not hold"),
                            ({"species": "unicorn", "cards": []}, "cannot be claimed"),
                            ({"species": "hare", "cards": ["hare"] * 4}, "0–3 cards"),
                            ({"species": "hare"}, "'laying' must be"), ([1], "'laying' must be")]:
        bad = json.loads(json.dumps(doc))
        bad["state"]["laying"] = laying
        with pytest.raises(ValueError, match=message):
            GAME.state_from_json(json.dumps(bad))


_CARD_NAMES = st.sampled_from(list(CARDS) + ["unicorn", ""])
_LAYING = st.one_of(
    st.none(),
    st.fixed_dictionaries({"species": _CARD_NAMES, "cards": st.lists(_CARD_NAMES, max_size=5)}),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                 max_leaves=6),
)


@settings(max_examples=150, deadline=None)
@given(laying=_LAYING, seed=st.integers(0, 40), steps=st.integers(0, 30))
def test_any_lay_being_made_in_a_loaded_state_is_refused_or_playable(laying, seed, steps):
    game = tw.make("mammuz", players=4)
    state = game.new_state(seed)
    for i in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state._apply(legal[(seed + i) % len(legal)])
    doc = json.loads(state.to_json())
    doc["state"]["laying"] = laying
    try:
        loaded = game.state_from_json(json.dumps(doc))
    except ValueError:
        return
    assert loaded.is_over or loaded.legal_actions()
    for _ in range(60):  # play on: every state reached keeps a legal action until the end
        if loaded.is_over:
            break
        legal = loaded.legal_actions()
        assert legal
        loaded = loaded._apply(legal[0])
        game.state_from_json(loaded.to_json())
