"""A step whose action caused no event is captioned by ``State.caption(action)``, one sentence
for every seat. Only MammuZ has such steps (a herd's species named, a card put face down), and
its sentences say what every seat may know; every step of Mamba and Mamma Mia comes with events,
so no player reads a caption made of an action's notation."""

import pytest

import tabletop_widgets as tw

# The decisions that cause no event, by game: every other step is told by its events.
EVENTLESS = {"mamba": set(), "mamma-mia": set(), "mamma-mia-plus": set(), "mammuz": {"Claim", "AddCard"}}


@pytest.mark.parametrize("name, players", [("mamba", 2), ("mamba", 4), ("mamma-mia", 3), ("mamma-mia", 5),
                                           ("mamma-mia-plus", 6), ("mammuz", 3), ("mammuz", 6)])
def test_a_step_without_events_reads_as_a_sentence_that_names_no_hidden_card(name, players):
    seen = set()
    for seed in range(6):
        m = tw.Match(name, seed=seed, players=players)
        m.autoplay({s: tw.bots.Random(seed=10 * seed + s) for s in range(players)}, max_steps=300)
        for step in range(1, len(m) + 1):
            if m.state_at(step).events:
                continue
            action = m.actions[step - 1]
            seen.add(type(action).__name__)
            captions = {f.caption for seat in range(players) for f in m.frames_of_step(step, seat)}
            assert len(captions) == 1, captions  # one frame, the same for every seat
            caption = captions.pop()
            mover = m.game.seat_names[m.state_at(step - 1).to_move]
            assert caption.startswith(f"{mover} ") and caption.endswith(".") and str(action) not in caption, caption
    assert seen == EVENTLESS[name]
