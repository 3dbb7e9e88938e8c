# Temporary check of the Mamba example in a real JupyterLab (removed after use).
def test_mamba_scratch(notebook):
    nb = notebook("mamba.ipynb")
    nb.run_all()
    page = nb.page
    page.wait_for_selector(".tw-root svg.mamba-board [data-cell='e5']", timeout=60000)
    root = page.locator(".tw-root").first
    page.wait_for_selector(".tw-root >> nth=0 >> .cell.pickable", timeout=30000)
    root.locator("[data-cell='d3'] [data-stone]").click()
    root.locator("[data-cell='d4']").click()
    page.wait_for_function("() => document.querySelector('.tw-step').textContent.startsWith('step 2')", timeout=30000)
    w = nb.widgets()
    assert any(x["actions"][:1] == ["d3-d4"] and x["len"] == 2 for x in w), w
    root.locator(".edit-toggle").click()
    root.locator(".editor .notation").fill("9/2N6/9/9/4S4/9/9/9/9 S")
    root.locator(".editor .load").click()
    page.wait_for_function("() => document.querySelector('.tw-root .editor').hidden === true", timeout=30000)
    page.wait_for_selector(".tw-root >> nth=0 >> [data-cell='e5'] .parent-ring")
    root.locator("[data-cell='e5']").click()
    assert root.locator(".cell.birth-target").count() == 4
    root.screenshot(path="/tmp/shots/lab_birth.png")
    root.locator("[data-cell='e6']").click()
    page.wait_for_timeout(1500)
    w = nb.widgets()
    assert any(x["actions"][:1] == ["e5*e6"] for x in w), w
    root.screenshot(path="/tmp/shots/lab_birth_after.png")
    print(w)
    print("\n".join(nb.console))
