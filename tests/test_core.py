"""The shared core: seeded randomness, rules switches, the checked path, typed errors."""

import json

import pytest

import tabletop_widgets as tw
from tabletop_widgets.core import Rng
from tabletop_widgets.core.events import Event

import toy_game  # noqa: F401  (registers "toy-fifteen")


def test_rng_is_a_value_and_reproducible():
    a = Rng.from_seed(42)
    x1, a1 = a.below(1000)
    x2, _ = a.below(1000)
    assert x1 == x2 and a1 != a  # drawing returns a new generator, the old one is unchanged
    assert Rng.from_seed(42, stream=1) != Rng.from_seed(42)


def test_rng_splitmix_known_values():
    # splitmix64's published first output for state 0 pins the algorithm across machines.
    value, _ = Rng(0).next64()
    assert value == 0xE220A8397B1DCDAF


def test_rng_below_is_uniform_enough():
    rng = Rng.from_seed(7)
    counts = [0] * 6
    for _ in range(6000):
        v, rng = rng.below(6)
        counts[v] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_rng_shuffle_is_a_permutation_and_depends_on_seed():
    items = list(range(30))
    s1, _ = Rng.from_seed(1).shuffled(items)
    s2, _ = Rng.from_seed(2).shuffled(items)
    assert sorted(s1) == items and s1 != items and s1 != s2


def _reference_below(rng, n):
    # The definition: rejection sampling on next64 with no modulo bias.
    limit = (1 << 64) - (1 << 64) % n
    while True:
        value, rng = rng.next64()
        if value < limit:
            return value % n, rng


def _reference_shuffled(rng, items):
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, rng = _reference_below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, rng


def test_the_fast_draws_are_the_generators_draws():
    # below/shuffled/choice and the bots' draws work on the bare state, with the mixing written
    # out; every deal and every seeded bot game depends on them drawing what next64 defines.
    from tabletop_widgets.core.rng import below_state, shuffled_state

    for seed in range(400):
        rng = Rng.from_seed(seed, stream=seed % 3)
        n = (1, 2, 3, 6, 7, 52, 1000, (1 << 63) + 5)[seed % 8]  # the last rejects often
        expected, after = _reference_below(rng, n)
        assert rng.below(n) == (expected, after)
        assert below_state(rng.state, n) == (expected, after.state)
        items = list(range(seed % 40))
        order, after = _reference_shuffled(rng, items)
        assert rng.shuffled(items) == (order, after)
        assert shuffled_state(rng.state, items) == (order, after.state)
        if items:
            assert rng.choice(items) == (items[_reference_below(rng, len(items))[0]], _reference_below(rng, len(items))[1])


def _unmix(z):
    # the inverse of splitmix64's finaliser: the state whose draw is z
    mask = (1 << 64) - 1

    def unshift(v, k):
        out = v
        for _ in range(64 // k + 1):
            out = v ^ (out >> k)
        return out & mask

    z = unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
    return unshift(z, 30)


def test_a_shuffle_draws_again_when_a_draw_is_rejected():
    # A draw in the top (2**64 % n) values is rejected and drawn again; a shuffle meets one
    # once in ~2**58 decks, so the states are made to: the draw of 2**64 - 1, then of 2**64 - 2.
    from tabletop_widgets.core.rng import _GOLDEN, _MASK, _mix, below_state, shuffled_state

    top = (1 << 64) - 1
    for size in (6, 7, 40, 600):  # neither size nor size - 1 a power of two: the top draw is rejected
        for first_rejected in (True, False):
            # the k-th draw (k = 1, 2, …) is the mix of state + k * golden
            drawn = (_unmix(top) - (1 if first_rejected else 2) * _GOLDEN) & _MASK
            assert _mix((drawn + _GOLDEN * (1 if first_rejected else 2)) & _MASK) == top
            rng = Rng(drawn)
            order, after = _reference_shuffled(rng, range(size))
            assert shuffled_state(drawn, range(size)) == (order, after.state)
            assert rng.shuffled(range(size)) == (order, after)
            # the rejection costs a draw: the generator ends one step further than without it
            assert after.state == (drawn + _GOLDEN * size) & _MASK
        rejected = Rng((_unmix(top) - _GOLDEN) & _MASK)
        value, after = _reference_below(rejected, size)
        assert below_state(rejected.state, size) == (value, after.state) == (value, (rejected.state + 2 * _GOLDEN) & _MASK)



def test_a_shuffle_mixed_all_at_once_draws_what_one_at_a_time_draws():
    # A shuffle of 5 to 257 cards mixes the states of all its draws at once (one big int, a lane
    # per draw): a draw rejected anywhere in it continues one by one from that draw's state,
    # and a state given with bits beyond 64 (or below 0) draws as its low 64 bits do.
    from tabletop_widgets.core.rng import _GOLDEN, _MASK, shuffled_state

    top = (1 << 64) - 1  # rejected below any n that is not a power of two
    for size in (4, 5, 6, 66, 200, 257, 258):
        cards = range(size)
        for n in sorted({3, 5, 6, size - 1, size}):
            if n > size or n & (n - 1) == 0:
                continue
            k = size + 1 - n  # the draw below n is the k-th
            drawn = (_unmix(top) - k * _GOLDEN) & _MASK
            order, after = _reference_shuffled(Rng(drawn), cards)
            assert shuffled_state(drawn, cards) == (order, after.state)
            assert after.state == (drawn + _GOLDEN * size) & _MASK  # one draw more: it was rejected
        for state in (0, _MASK, 12345 + (7 << 64), -12345):
            assert shuffled_state(state, cards) == (lambda o, a: (o, a.state))(*_reference_shuffled(Rng(state), cards))

def test_a_random_bot_draws_from_its_seeded_generator():
    bot = tw.bots.Random(seed=5)
    rng = Rng.from_seed(5, stream=7)
    items = ["a", "b", "c", "d", "e"]
    for _ in range(50):
        expected, rng = rng.choice(items)
        assert bot.choose(None, items) == expected
    with pytest.raises(ValueError, match="at least one legal action"):
        bot.choose(None, [])


class _FirstLegal(tw.bots.Bot):
    """A bot written outside the package: plays the first legal action."""

    def choose(self, observation, legal_actions):
        assert isinstance(observation, dict)
        return legal_actions[0]


class _Scribbler(_FirstLegal):
    """The same, but it edits everything it is given before choosing."""

    def choose(self, observation, legal_actions):
        def scribble(x):
            if isinstance(x, dict):
                for v in list(x.values()):
                    scribble(v)
                x["scribbled"] = True
            elif isinstance(x, list):
                for v in x:
                    scribble(v)
                x.append("scribbled")

        scribble(observation)
        return super().choose(observation, legal_actions)


@pytest.mark.parametrize("name, players", [("mamma-mia", 3), ("mamma-mia-plus", 4), ("mammuz", 3), ("mamba", 2)])
def test_a_bot_that_edits_its_view_changes_nothing_of_the_game(name, players):
    # Views share their parts with other views and the match's frames (read-only by contract);
    # a bot written elsewhere is given a copy, so what it edits stays its own.
    def frames(bot_class):
        m = tw.Match(name, players=players, seed=4)
        m.autoplay({seat: bot_class() for seat in range(players)}, max_steps=120)
        return [(f.caption, f.view) for seat in (None, *range(players)) for f in m.frames(seat=seat)]

    quiet = json.dumps(frames(_FirstLegal), sort_keys=True, default=str)
    assert "scribbled" not in quiet
    assert json.dumps(frames(_Scribbler), sort_keys=True, default=str) == quiet


@pytest.mark.parametrize("seed", [1.5, "1", None, True])
def test_bad_seed_is_a_value_error(seed):
    with pytest.raises(ValueError, match="seed"):
        tw.make("toy-fifteen").new_state(seed)


def test_unknown_game_names_the_games():
    with pytest.raises(ValueError, match="unknown game 'chess'.*toy-fifteen"):
        tw.make("chess")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 9}, "players must be an int from 2 to 4"),
        ({"players": "2"}, "players must be an int"),
        ({"colour": "red"}, "unknown option 'colour'; the options are limit"),
        ({"limit": 11}, r"option limit=11 is not allowed; allowed values: 10, 15, 20"),
        ({"limit": True}, "option limit=True is not allowed"),
    ],
)
def test_bad_options_are_value_errors_naming_them(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tw.make("toy-fifteen", **kwargs)


def test_game_equality_follows_its_spec():
    assert tw.make("toy-fifteen", players=3) == tw.make("toy-fifteen", players=3, limit=15)
    assert tw.make("toy-fifteen", players=3) != tw.make("toy-fifteen", players=3, limit=10)
    assert "limit=15" in repr(tw.make("toy-fifteen"))


def test_apply_never_mutates_and_accepts_notation():
    s = tw.make("toy-fifteen").new_state(5)
    before = s.to_json()
    action = s.legal_actions()[0]
    t1 = s.apply(action)
    t2 = s.apply(str(action))
    assert s.to_json() == before
    assert t1 == t2 and t1.to_json() != before


def test_illegal_action_says_why_and_lists_legal_ones():
    s = tw.make("toy-fifteen").new_state(5)
    before = s.to_json()
    legal = [str(a) for a in s.legal_actions()]
    with pytest.raises(tw.IllegalAction) as info:
        s.apply("play 99")
    assert "'play 99' is not a legal action for Player 1" in str(info.value)
    assert all(a in str(info.value) for a in legal)
    assert isinstance(info.value, ValueError) and s.to_json() == before
    with pytest.raises(tw.IllegalAction):
        s.apply(object())
    with pytest.raises(tw.IllegalAction):
        s.apply(toy_game.Play(99))


def test_applying_to_a_finished_game_is_illegal():
    m = tw.Match("toy-fifteen", seed=2)
    m.autoplay({0: "random", 1: "random"})
    assert m.state.is_over and m.state.to_move is None and m.state.legal_actions() == []
    with pytest.raises(tw.IllegalAction, match="the game is over"):
        m.state.apply("play 1")


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not valid JSON"),
        ("[]", "must be an object"),
        ('{"game": "mamba", "players": 2, "options": {}, "state": {}}', "is a 'mamba' state"),
        ('{"game": "toy-fifteen", "players": 3, "options": {"limit": 15}, "state": {}}', "for 3 players"),
        ('{"game": "toy-fifteen", "players": 2, "options": {"limit": 10}, "state": {}}', "made with options"),
        ('{"game": "toy-fifteen", "players": 2, "options": {"limit": 15}, "state": []}', "'state' must be an object"),
    ],
)
def test_state_from_json_rejects_what_does_not_fit(text, message):
    with pytest.raises(ValueError, match=message):
        tw.make("toy-fifteen").state_from_json(text)


def test_state_json_is_canonical():
    s = tw.make("toy-fifteen").new_state(9)
    doc = json.loads(s.to_json())
    assert doc["game"] == "toy-fifteen" and doc["players"] == 2 and doc["options"] == {"limit": 15}
    assert s.to_json() == json.dumps(doc, sort_keys=True, separators=(",", ":"))


def test_event_secret_parts_are_seen_only_by_their_seats():
    e = Event("draw", "Seat 0 draws a 5.", {"card": 5}, seats=(0,), public_text="Seat 0 draws a card.")
    assert e.seen_by(0) == ("Seat 0 draws a 5.", {"card": 5})
    assert e.seen_by(None) == ("Seat 0 draws a 5.", {"card": 5})
    assert e.seen_by(1) == ("Seat 0 draws a card.", {})


def test_a_secret_event_without_public_text_does_not_show_its_secret():
    from tabletop_widgets.core.events import HIDDEN_TEXT

    e = Event("draw", "Seat 0 draws a 5.", {"card": 5}, seats=(0,))
    assert e.seen_by(0) == ("Seat 0 draws a 5.", {"card": 5})
    assert e.seen_by(1) == (HIDDEN_TEXT, {})
    assert "5" not in HIDDEN_TEXT and HIDDEN_TEXT.strip()
    # Public data without public text: the data given, the neutral sentence.
    e2 = Event("draw", "Seat 0 draws a 5.", {"card": 5}, seats=(0,), public_data={"seat": 0})
    assert e2.seen_by(1) == (HIDDEN_TEXT, {"seat": 0})


def test_new_event_is_the_event_the_dataclass_makes():
    import dataclasses

    from tabletop_widgets.core.events import new_event

    fields = [f.name for f in dataclasses.fields(Event)]
    full = ("draw", "Seat 0 draws a 5.", {"card": 5}, object(), (0,), "Seat 0 draws a card.", {"seat": 0})
    for given in (full, full[:3]):
        fast, slow = new_event(*given), Event(*given)
        assert type(fast) is Event
        assert [getattr(fast, f) for f in fields] == [getattr(slow, f) for f in fields]
        assert fast == slow
    with pytest.raises(dataclasses.FrozenInstanceError):
        new_event(*full).text = "changed"


def test_tw_games_lists_the_registry_with_the_four_games_first():
    import importlib

    import tabletop_widgets.core.game as core_game

    four = ("mamba", "mamma-mia", "mamma-mia-plus", "mammuz")
    assert tw.GAMES[:4] == four and isinstance(tw.GAMES, tuple)
    assert "toy-fifteen" in tw.GAMES  # registered by the tests, after tabletop_widgets was imported

    @core_game.register
    class Later(type(tw.make("toy-fifteen"))):
        name = "toy-later"

    try:
        assert tw.GAMES[:4] == four and tw.GAMES[-1] == "toy-later"
        assert set(tw.GAMES) == set(core_game.registered())
        from tabletop_widgets import GAMES  # `from ... import` reads it from the registry too

        assert "toy-later" in GAMES
    finally:
        del core_game._REGISTRY["toy-later"]
    assert "toy-later" not in tw.GAMES
    assert "GAMES" in importlib.import_module("tabletop_widgets").__all__


def test_bots_registry_and_resolution():
    assert tw.bots.for_game("toy-fifteen") == {"random": tw.bots.Random}
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        tw.Match("toy-fifteen").autoplay({0: "genius"})
    with pytest.raises(ValueError, match="unknown game"):
        tw.bots.for_game("go")


def test_random_bot_is_seeded():
    legal = list(range(50))
    picks = lambda seed: [tw.bots.Random(seed).choose({}, legal) for _ in range(1)] + [
        b.choose({}, legal) for b in [tw.bots.Random(seed)] for _ in range(10)
    ]
    assert picks(3) == picks(3) and picks(3) != picks(4)


def test_the_random_bot_draws_what_its_generator_defines():
    # Random.choose draws on the bare state with the mixing written out: every seeded bot game
    # depends on its picks being the generator's below(len(legal)), for any length of list
    for seed in range(60):
        bot, rng = tw.bots.Random(seed), Rng.from_seed(seed, stream=7)
        for n in (1, 2, 3, 7, 22, 300, 511, 512, 513, 2000, 1 + seed * 37):
            legal = [object() for _ in range(n)]
            i, after = _reference_below(rng, n)
            assert bot.choose(None, legal) is legal[i]
            assert bot._rng_state == after.state
            rng = after
    with pytest.raises(ValueError, match="at least one legal action"):
        tw.bots.Random(0).choose(None, [])


class _Recorder(tw.bots.Bot):
    """Plays the first legal action and keeps what it was shown."""

    def __init__(self, seed=0):
        super().__init__(seed)
        self.shown = []

    def choose(self, observation, legal_actions):
        self.shown.append(observation)
        return legal_actions[0]


class _BlindRecorder(_Recorder):
    reads_observation = False


@pytest.mark.parametrize("name", ["mamba", "mamma-mia", "mammuz"])
def test_drivers_build_an_observation_only_for_bots_that_read_it(name):
    players = 3 if name == "mammuz" else 2
    seeing, blind = _Recorder(), _BlindRecorder()
    m = tw.Match(name, seed=3, players=players)
    expected = []
    while not m.state.is_over and len(m) < 12:
        if m.state.to_move == 0:
            expected.append(m.state.observe(0))
        m.autoplay({0: seeing, **{s: blind for s in range(1, players)}}, max_steps=1)
    assert seeing.shown == expected and len(expected) > 0
    assert blind.shown and all(o is None for o in blind.shown)
    assert tw.bots.Random.reads_observation is False
    # tw.simulate's games come out the same whichever way a random bot is fed
    class SeeingRandom(tw.bots.Random):
        reads_observation = True
    from tabletop_widgets.analysis import play_one
    game = tw.make(name, players=players)
    assert play_one(game, (tw.bots.Random,) * players, 5, 40) == play_one(game, (SeeingRandom,) * players, 5, 40)
