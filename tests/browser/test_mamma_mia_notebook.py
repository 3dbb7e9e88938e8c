"""examples/mamma_mia.ipynb and mamma_mia_oven.ipynb in JupyterLab: a seat's view shows that
seat's hand only, the all-seeing view every hand; a turn composed by clicks in the hand and a
decision answered in the pop-up reach the kernel's match; the timeline steps back through the
evaluation card by card; the card table keeps one footprint, follows the dark theme and passes
axe-core in both themes (one notebook run, one theme switch)."""

from __future__ import annotations

from conftest import ARTIFACTS
from lab_helpers import ROLES_SHOWN, WALK_HEIGHTS, assert_dark_theme_changes, axe_problems, check_colour_roles, wait_until


def hand_seats(root) -> list[str]:
    return root.evaluate("(root) => [...root.querySelectorAll('.mm-hand-cards')].map(e => e.dataset.seat)")


def check_seat_views(nb):
    """The first widget's seat view holds seat 0's hand only; the all-seeing view, once
    confirmed, every hand; seat 2's view seat 2's only, in the kernel too."""
    page = nb.page
    page.locator(".tw-root .mm-hand-cards").first.wait_for()
    # The first widget plays seat 0 of four against bots (pinned by position: its hands change).
    roots = page.locator(".tw-root")
    index = [roots.nth(i).locator(".mm-hand-cards").count() > 0 for i in range(roots.count())].index(True)
    root = roots.nth(index)
    seat = root.locator("select.tw-seat")
    assert seat.input_value() == "0"
    assert hand_seats(root) == ["0"]

    # The all-seeing view asks first: until confirmed, the seat's own hand only.
    seat.select_option("")
    root.locator(".tw-see-all-yes").wait_for()
    assert seat.input_value() == "0" and hand_seats(root) == ["0"]
    root.locator(".tw-see-all-yes").click()
    page.wait_for_function("(root) => root.querySelectorAll('.mm-hand-cards').length === 4", arg=root.element_handle())
    assert sorted(hand_seats(root)) == ["0", "1", "2", "3"]

    seat.select_option("2")
    page.wait_for_function(
        "(root) => [...root.querySelectorAll('.mm-hand-cards')].map(e => e.dataset.seat).join() === '2'",
        arg=root.element_handle())
    assert any(w["game"] == "mamma-mia" and w["seat"] == 2 for w in nb.widgets())
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []




def grown_widgets(nb, before):
    """The widgets whose match recorded more actions than in `before`, as (old, new) pairs."""
    now = {w["id"]: w for w in nb.widgets()}
    return [(b, now[b["id"]]) for b in before if len(now[b["id"]]["actions"]) > len(b["actions"])]


# The table's column counts, as the widget draws them.
TABLE_JS = """(root) => Object.fromEntries([...root.querySelectorAll('.mm-table .mm-column')]
    .map(c => [c.dataset.kind, Number(c.dataset.count)]))"""


def test_a_turn_played_by_clicks_in_the_hand_and_the_seat_views(notebook):
    nb = notebook("mamma_mia.ipynb")
    nb.run_all()
    page = nb.page
    cards = page.locator(".tw-root .mm-hand-cards button.mm-card[data-action='ingredient']:not([disabled])")
    cards.first.wait_for()
    roots = page.locator(".tw-root")
    index = [roots.nth(i).locator(".mm-hand-cards button.mm-card[data-action='ingredient']").count() > 0
             for i in range(roots.count())].index(True)
    root = roots.nth(index)
    before = nb.widgets()
    mark = len(nb.sent)
    heard = len(nb.received_comm_msgs())

    # Two cards of one kind if the hand has them (clicking the second card selects both).
    second = root.locator(".mm-hand-group button.mm-card[data-action='ingredient'][data-count='2']:not([disabled])")
    card = second.first if second.count() else root.locator("button.mm-card[data-action='ingredient']").first
    count = int(card.get_attribute("data-count"))
    kind = card.evaluate("(c) => c.closest('.mm-hand-group').dataset.kind")
    # On its visible edge, as a person clicks a card the next one of its kind covers.
    card.click(position={"x": 12, "y": 40})
    group = root.locator(f".mm-hand-group[data-kind='{kind}'] button.mm-card[aria-pressed='true']")
    assert group.count() == count
    # The seat to move and the cards picked: a colour and a shape each, none a seat's colour.
    assert check_colour_roles(root.evaluate(ROLES_SHOWN), "light", required=("turn", "choice")) == []
    play = root.locator("button.mm-play")
    root.locator("button[data-action='source'][data-source='supply']").click()
    assert play.is_enabled()
    assert play.get_attribute("title") == f"put {count} {kind}; draw supply"
    # Played from the keyboard: the button goes away with the turn, the focus stays in the widget.
    play.press("Enter")
    assert nb.comm_msgs_since(mark) >= 1

    grown = wait_until(lambda: grown_widgets(nb, before), what="the kernel to record the turn")
    assert len(grown) == 1, grown
    old, new = grown[0]
    assert new["game"] == "mamma-mia" and new["seat"] == 0
    assert new["actions"][: len(old["actions"])] == old["actions"]
    assert new["actions"][len(old["actions"])] == f"put {count} {kind}; draw supply"
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []
    assert play.count() == 0 or not play.is_enabled()
    assert root.evaluate("(r) => r.contains(document.activeElement)")
    # The turn's frames came once: not again as `current` (the page's model keeps the last
    # frame it received, for the notebook's saved widget state).
    answers = nb.received_comm_msgs()[heard:]
    assert any(m.get("data", {}).get("content", {}).get("type") == "frames" for m in answers)
    assert not [m for m in answers if "current" in m.get("data", {}).get("state", {})]
    # The same notebook run serves the seat views: a seat change carries that frame back,
    # which the kernel takes as the echo it is (no error).
    check_seat_views(nb)
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []


def test_oven_decision_answered_in_the_pop_up_then_stepped_back_card_by_card(notebook):
    nb = notebook("mamma_mia_oven.ipynb")
    nb.run_all()
    page = nb.page
    # The Monotoni example stops at Green's decision, asked in a dialog (the examples shown at
    # an earlier step offer theirs again: a reader may try another answer there).
    dialog = page.locator(".tw-root .mm-decision[role='dialog']", has_text="monotoni")
    dialog.first.wait_for()
    assert dialog.count() == 1
    # pinned by position: once answered, the widget has no dialog any more
    roots = page.locator(".tw-root")
    index = [roots.nth(i).locator(".mm-decision[role='dialog']", has_text="monotoni").count() > 0
             for i in range(roots.count())].index(True)
    root = roots.nth(index)
    before = nb.widgets()
    answer = "make with pineapple adding 2 pineapple"
    dialog.first.locator(f"button[data-notation='{answer}']").click()
    grown = wait_until(lambda: grown_widgets(nb, before), what="the kernel to record the answer")
    assert [new["actions"] for _, new in grown] == [["put 1 olive; draw supply", answer]]
    assert grown[0][1]["seat"] == 1
    page.wait_for_function("(root) => !root.querySelector('.mm-decision')", arg=root.element_handle())

    # Back through the evaluation with the timeline button: each ingredient card leaves the
    # table one frame at a time (4 pepper, 2 salami, 2 mushroom, 4 pineapple: 12 cards).
    kernel_before = nb.widgets()
    mark = len(nb.sent)
    slider = root.locator("input.tw-slider")
    totals = []
    while int(slider.input_value()) > 0:
        root.get_by_role("button", name="Previous frame").click()
        totals.append(sum(root.evaluate(TABLE_JS).values()))
    run = list(range(12, -1, -1))
    assert any(totals[i:i + len(run)] == run for i in range(len(totals))), totals
    assert nb.widgets() == kernel_before and nb.comm_msgs_since(mark) == 0


def test_card_table_keeps_its_footprint_follows_the_dark_theme_and_passes_axe_in_both(notebook):
    nb = notebook("mamma_mia_oven.ipynb")
    nb.run_all()
    page = nb.page
    page.set_viewport_size({"width": 1280, "height": 800})
    root = page.locator(".tw-root", has=page.locator(".mm-root")).first
    root.locator(".mm-table").wait_for()
    root.scroll_into_view_if_needed()
    # Over every frame it holds (an oven emptied card by card), the widget keeps one size
    # that fits a laptop screen.
    heights = root.evaluate(WALK_HEIGHTS)
    assert len(heights) > 5 and max(heights) - min(heights) <= 2 and max(heights) <= 800, heights
    problems = axe_problems(page, root)
    colours = """(root) => {
        const pick = (sel, prop) => { const n = root.querySelector(sel); return n ? getComputedStyle(n)[prop] : ''; };
        return [pick('.mm-root', 'color'), pick('.mm-root', 'backgroundColor'),
                pick('.mm-table-box', 'backgroundColor'), pick('.mm-table-box', 'borderTopColor')];
    }"""

    def dark_checks():
        problems.extend(f"dark: {p}" for p in axe_problems(page, root))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        root.screenshot(path=str(ARTIFACTS / "mamma-mia-lab-dark.png"))

    # One theme switch for both: the card table follows it, and axe-core runs in the dark.
    assert_dark_theme_changes(page, root, colours, while_dark=dark_checks)
    assert problems == [], "\n".join(problems)
