def test_scratch(notebook):
    nb = notebook("/tmp/twscratch/generic.ipynb")
    nb.run_all()
    page = nb.page
    page.wait_for_selector(".tw-root button[data-action]", timeout=60000)
    before = nb.widgets()
    mark = len(nb.sent)
    btn = page.locator(".tw-root button[data-action]").first
    action = btn.get_attribute("data-action")
    btn.click()
    page.wait_for_function("() => document.querySelector('.tw-step').textContent.startsWith('step 1')")
    assert nb.comm_msgs_since(mark) >= 1
    after = nb.widgets()
    print(before, after, action)
    assert after[0]["actions"][-1] == action
    mark = len(nb.sent)
    page.locator(".tw-slider").focus()
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('.tw-step').textContent.startsWith('step 0')")
    nb.execute("1")
    assert nb.comm_msgs_since(mark) == 0
    page.locator(".jp-LabShell").screenshot(path="/tmp/twscratch/shot2.png"); page.screenshot(path="/tmp/twscratch/shot.png"); print(page.evaluate("() => [document.querySelector('.jp-Notebook').getBoundingClientRect().toJSON(), document.querySelector('.tw-root').getBoundingClientRect().toJSON()]"))
