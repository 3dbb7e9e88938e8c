"""examples/mamma_mia.ipynb in JupyterLab: a seat's view shows that seat's hand only; the
all-seeing teaching view shows every hand."""

from __future__ import annotations


def hand_seats(root) -> list[str]:
    return root.evaluate("(root) => [...root.querySelectorAll('.mm-hand-cards')].map(e => e.dataset.seat)")


def test_seat_view_hides_the_other_hands(notebook):
    nb = notebook("mamma_mia.ipynb")
    nb.run_all()
    page = nb.page
    page.locator(".tw-root .mm-hand-cards").first.wait_for()
    # The first widget plays seat 0 of four against bots (pinned by position: its hands change).
    roots = page.locator(".tw-root")
    index = [roots.nth(i).locator(".mm-hand-cards").count() > 0 for i in range(roots.count())].index(True)
    root = roots.nth(index)
    seat = root.locator("select.tw-seat")
    assert seat.input_value() == "0"
    assert hand_seats(root) == ["0"]

    seat.select_option("")
    page.wait_for_function("(root) => root.querySelectorAll('.mm-hand-cards').length === 4", arg=root.element_handle())
    assert sorted(hand_seats(root)) == ["0", "1", "2", "3"]

    seat.select_option("2")
    page.wait_for_function(
        "(root) => [...root.querySelectorAll('.mm-hand-cards')].map(e => e.dataset.seat).join() === '2'",
        arg=root.element_handle())
    assert any(w["game"] == "mamma-mia" and w["seat"] == 2 for w in nb.widgets())
    assert page.locator(".tw-root .tw-error:not([hidden])").all_inner_texts() == []
