"""The HTML viewer in a real headless Chromium: step to the last move, check the goal is drawn.

Needs Debian's ``chromium`` and ``chromium-driver`` (``apt-get install -y
chromium chromium-driver``; ``.ci/run`` installs them); without them the test
is skipped, saying so.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from pathlib import Path

import pytest

from heurist.domains import get_domain
from heurist.domains.klotski.board import BIG
from heurist.domains.klotski.drawing import SHAPE_COLOUR
from heurist.render import render_plan
from heurist.search import search

DATA = Path(__file__).resolve().parents[1] / "data"
INSTALL_HINT = (
    "the browser test needs Chromium and its driver: on Debian/Ubuntu run "
    "'sudo apt-get install -y chromium chromium-driver' (CI's .ci/run does this)"
)


def _chromium_paths() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if driver is None and Path("/usr/lib/chromium/chromedriver").exists():
        driver = "/usr/lib/chromium/chromedriver"
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is missing: pip install -e '.[test]'")
    paths = _chromium_paths()
    if paths is None:
        pytest.skip(INSTALL_HINT)
    binary, driver_path = paths
    profile = tempfile.TemporaryDirectory(prefix="heurist-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run", "--disable-dev-shm-usage", f"--user-data-dir={profile.name}",
        "--window-size=1100,900",
    ):
        options.add_argument(flag)
    from selenium.webdriver.chrome.service import Service

    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()
    profile.cleanup()


def test_viewer_steps_to_the_goal_in_chromium(browser, tmp_path):
    from PIL import Image
    from selenium.webdriver.common.by import By

    domain = get_domain("klotski")
    problem = domain.load(DATA / "hrd" / "f24_w25_goal" / "easy3.txt")  # has a goal board
    result = search(problem, "astar", domain.heuristics.resolve("manhattan"))
    assert result.solved and len(result.states) > 2
    page = tmp_path / "viewer.html"
    render_plan(domain, problem, result.states, result.statistics, page)

    browser.get(page.as_uri())
    text = browser.find_element(By.ID, "board-text").text
    assert text == domain.format_state(problem, problem.initial_state)
    assert browser.find_element(By.ID, "goal-status").text == ""

    next_button = browser.find_element(By.ID, "next")
    for _ in range(len(result.states) - 2):
        next_button.click()
    assert browser.find_element(By.ID, "goal-status").text == ""  # one move short
    next_button.click()
    next_button.click()  # stepping past the end stays on the last state
    last = len(result.states) - 1
    assert browser.find_element(By.ID, "move-number").text == str(last)
    goal_text = domain.format_state(problem, problem.goal_state)
    assert browser.find_element(By.ID, "board-text").text == goal_text
    assert browser.find_element(By.ID, "goal-status").text == "goal reached"
    assert browser.find_element(By.ID, "cost").text == str(int(result.cost))
    # The drawing shows the goal too: the current board's pieces where the goal board has them.
    panels = browser.find_elements(By.CSS_SELECTOR, "#board g.panel")
    assert len(panels) == 2
    drawn = [
        sorted(
            (piece.get_attribute("class").replace(" moved", ""), piece.get_attribute("x"), piece.get_attribute("y"))
            for piece in panel.find_elements(By.CSS_SELECTOR, "rect.piece")
        )
        for panel in panels
    ]
    assert drawn[0] == drawn[1] and len(drawn[0]) == len(problem.geometry.pieces(problem.goal_state))

    screenshot = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
    colours = screenshot.getcolors(maxcolors=1 << 20)
    assert len(colours) > 20, "the screenshot is blank"
    red = tuple(int(SHAPE_COLOUR[BIG][i : i + 2], 16) for i in (1, 3, 5))
    red_pixels = sum(count for count, colour in colours if colour == red)
    assert red_pixels > 1000, "the 2x2 piece is not drawn"


def test_viewer_scrub_keys_and_play(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    domain = get_domain("blocksworld")
    problem = domain.load(DATA / "blocksworld" / "probA06.bwp")
    result = search(problem, "astar", domain.heuristics.resolve(domain.default_heuristic))
    page = tmp_path / "viewer.html"
    render_plan(domain, problem, result.states, result.statistics, page)
    browser.get(page.as_uri())
    last = len(result.states) - 1

    def shown() -> tuple[str, str]:
        return browser.find_element(By.ID, "move-number").text, browser.find_element(By.ID, "board-text").text

    browser.execute_script(
        "var s = document.getElementById('scrub'); s.value = '2'; s.dispatchEvent(new Event('input'));"
    )
    assert shown() == ("2", domain.format_state(problem, result.states[2]))
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    assert shown() == (str(last), domain.format_state(problem, problem.goal_state))
    body.send_keys(Keys.HOME)
    body.send_keys(Keys.ARROW_RIGHT)
    assert shown()[0] == "1"
    Select(browser.find_element(By.ID, "speed")).select_by_visible_text("fast")
    browser.find_element(By.ID, "play").click()
    WebDriverWait(browser, 30).until(
        lambda driver: driver.find_element(By.ID, "goal-status").text == "goal reached"
    )
    assert shown() == (str(last), domain.format_state(problem, problem.goal_state))

