"""examples/mammuz.ipynb in JupyterLab: every widget draws, a seat's view shows that seat's
hand only, drawn and received, a person composes a lay by clicks and it is played as one
action, and the all-seeing view shows every hand."""

from __future__ import annotations

import json
import time

from lab_helpers import ROLES_SHOWN, assert_dark_theme_changes, axe_problems, check_colour_roles, decoded_comm_messages

from conftest import ARTIFACTS

# The viewing widget's hand as drawn: {card: count}, per hand row (by its seat).
HANDS_JS = """(root) => Object.fromEntries([...root.querySelectorAll('.mz-hand')].map(row =>
    [row.dataset.seat, [...row.querySelectorAll(':scope > [data-card]')].reduce(
        (n, c) => (n[c.dataset.card] = (n[c.dataset.card] || 0) + 1, n), {})]))"""


def wait_until(check, timeout=30.0, what="the condition"):
    deadline = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.2)
    return value


def test_mammuz_seat_view_shows_only_its_own_hand(notebook):
    nb = notebook("mammuz.ipynb")
    nb.run_all()
    page = nb.page
    page.locator(".tw-root .mz-hand").first.wait_for()
    assert page.locator(".tw-root.tw-mammuz").count() == 3  # seat 0, the bots' game, the duel
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []

    root = page.locator(".tw-root.tw-mammuz").first
    assert root.locator("select.tw-seat").input_value() == "0"
    widget = next(w for w in nb.widgets() if w["game"] == "mammuz" and w["seat"] == 0)
    kernel_hand = (
        "import json, gc, tabletop_widgets as tw\n"
        f"w = next(x for x in gc.get_objects() if isinstance(x, tw.GameWidget) and getattr(x, 'model_id', None) == {widget['id']!r})\n"
        "print(json.dumps([w.match.state.observe(0)['hand'], w.match.state.observe(None)['hands']]))"
    )

    # Drawn: one hand, seat 0's, as the kernel holds it (once the bots have answered).
    def drawn_matches_kernel():
        own, hands = json.loads(nb.execute(kernel_hand).strip().splitlines()[-1])
        drawn = root.evaluate(HANDS_JS)
        return (own, hands) if drawn == {"0": own} else None

    own, hands = wait_until(drawn_matches_kernel, what="seat 0's drawn hand to be the kernel's")
    assert root.locator(".mz-teaching").count() == 0
    # Other seats show only how many cards they hold.
    sizes = root.evaluate("(root) => [...root.querySelectorAll('.mz-seat')].map(s => Number(s.dataset.hand))")
    assert sizes == [sum(h.values()) for h in hands]

    # Received: no frame of this widget carries the all-seeing keys, another seat's display
    # cards face down, or a hand other than seat 0's.
    messages = nb.received_comm_msgs(widget["id"])
    # Each message's views rebuilt as the page does (they come as patches).
    frames = [f for m in decoded_comm_messages(messages) if m.get("data", {}).get("content", {}).get("type") == "frames"
              for f in m["data"]["content"]["frames"]]
    assert frames
    for f in frames:
        view = f["view"]
        assert "hands" not in view and "pile_cards" not in view and "dinosaurs_in_play" not in view
        assert all("cards" not in d for d in view["displays"] if d["seat"] != 0), view["displays"]
        assert view["hand"] is not None
    assert frames[-1]["view"]["hand"] == own

    # A person composes a lay: (a species when starting a herd,) two cards, Lay. The kernel
    # plays it as one whole lay, one step of the timeline, and the bots answer.
    count_steps = kernel_hand.rsplit("\n", 1)[0] + "\nprint(json.dumps([len(w.match), [str(a) for a in w.match.actions]]))"
    before, _ = json.loads(nb.execute(count_steps).strip().splitlines()[-1])
    # The composer opens once the page has played the bots' answers to the lay made in the
    # notebook, each a beat at the widget's pace: on a busy machine that outlasts 30 s.
    root.locator(".mz-composer button.mz-lay").wait_for(timeout=90_000)
    if root.locator("button.mz-species").count():
        root.locator("button.mz-species").first.click()
    cards = root.locator(".mz-hand button.mz-card")
    # where a person clicks a fanned card: its uncovered left edge (in a long hand, as the bots'
    # answers can leave one, the next cards cover its middle)
    for card in (cards.nth(0), cards.nth(1)):
        card.click(position={"x": 4, "y": card.bounding_box()["height"] / 2})
    lay = root.locator(".mz-composer button.mz-lay")
    assert lay.is_enabled()
    root.screenshot(path=str(ARTIFACTS / "mammuz-composed-lay.png"))
    # Seat 0 to move with two cards picked: the seat to move, the picked cards (and the cards
    # one may challenge, the last lay) each in a colour and a shape of their own, and axe-core
    # finds no serious or critical violation, in JupyterLab's light and dark themes.
    root.scroll_into_view_if_needed()
    problems = check_colour_roles(root.evaluate(ROLES_SHOWN), "light", required=("turn", "choice"))
    problems += [f"light: {p}" for p in axe_problems(page, root)]

    def dark_checks():
        problems.extend(check_colour_roles(root.evaluate(ROLES_SHOWN), "dark", required=("turn", "choice")))
        problems.extend(f"dark: {p}" for p in axe_problems(page, root))
        root.screenshot(path=str(ARTIFACTS / "mammuz-lab-dark.png"))

    colours = "(root) => [getComputedStyle(root.querySelector('.mz-root')).color, getComputedStyle(root.querySelector('.mz-section')).backgroundColor]"
    assert_dark_theme_changes(page, root, colours, while_dark=dark_checks)
    assert problems == [], "\n".join(problems)
    lay.click()

    def played():
        n, actions = json.loads(nb.execute(count_steps).strip().splitlines()[-1])
        return actions if n > before else None

    actions = wait_until(played, what="the composed lay to be played")
    laid = actions[before]
    assert laid.startswith("lay ") and len(laid.split(": ")[1].split()) == 2, laid
    assert not any(a.split()[0] in ("claim", "add", "done") for a in actions)
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []
    # the page follows the bots' answers sub-step by sub-step to the match's end
    def at_the_end():
        own, hands = json.loads(nb.execute(kernel_hand).strip().splitlines()[-1])
        drawn = root.evaluate("(root) => [...root.querySelectorAll('.mz-seat')].map(s => Number(s.dataset.hand))")
        # on the newest frame: an earlier one, on the way there, may show the same counts
        newest = root.evaluate("(root) => { const s = root.querySelector('.tw-slider'); return s.value === s.max; }")
        return (own, hands) if newest and drawn == [sum(h.values()) for h in hands] and root.evaluate(HANDS_JS) == {"0": own} else None

    own, hands = wait_until(at_the_end, timeout=60, what="the page to show the match's end after the lay")

    # The all-seeing view draws every hand.
    root.locator("select.tw-seat").select_option("")
    root.locator(".tw-see-all-yes").click()  # it asks before it shows every hand
    page.wait_for_function("(root) => root.querySelectorAll('.mz-hand').length === 4", arg=root.element_handle())
    assert root.evaluate(HANDS_JS) == {str(s): {c: n for c, n in h.items()} for s, h in enumerate(hands)}
