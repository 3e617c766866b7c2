"""The widgets in a real browser: JupyterLab on a free localhost port, the tour notebook run in
headless Chromium through Selenium, the explorer's and the playtest's widgets found on the page,
and one decision clicked.

Needs Debian's ``chromium`` and ``chromium-driver`` (``apt-get install chromium chromium-driver``;
CI's ``.ci/run`` installs them); skipped elsewhere.  ``GAMELIB_SCREENSHOTS=docs`` also saves the
README's pictures of both widgets there.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ROOT = Path(__file__).resolve().parents[1]
TOUR = ROOT / "notebooks" / "00-tour.ipynb"

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="the browser test needs /usr/bin/chromium and /usr/bin/chromedriver: "
    "apt-get install chromium chromium-driver (CI's .ci/run does)",
)

#: how long the whole tour may take in the browser (a cold numba cache compiles the kernels)
RUN_TIMEOUT = 420


def _without_outputs(source: Path, target: Path) -> None:
    """A copy of a notebook without outputs or saved widget state, so whatever widget shows
    up was made by running it."""
    nb = json.loads(source.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    nb["metadata"].pop("widgets", None)
    target.write_text(json.dumps(nb), encoding="utf-8")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[str]:
    """JupyterLab serving a copy of the tour (so autosave never touches the committed one);
    yields the notebook's URL with the token; the server and its kernels are stopped after."""
    work = tmp_path / "lab"
    work.mkdir()
    _without_outputs(TOUR, work / TOUR.name)
    port, token = _free_port(), os.urandom(16).hex()
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
    }
    cmd = [
        str(Path(sys.executable).with_name("jupyter")),
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ip=127.0.0.1",
        f"--ServerApp.token={token}",
        f"--ServerApp.root_dir={work}",
        "--ServerApp.port_retries=0",
        "--LabApp.news_url=",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    # no "get Jupyter news?" notice over the widgets
    notes = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    notes.mkdir(parents=True)
    (notes / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(
        cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        status = f"http://127.0.0.1:{port}/api/status?token={token}"
        deadline = time.monotonic() + 120
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited: {(tmp_path / 'lab.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(status, timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("JupyterLab did not answer within 120 s")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/lab/tree/{TOUR.name}?token={token}"
    finally:
        try:
            os.killpg(server.pid, signal.SIGTERM)  # the server and the kernels it started
            server.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        log.close()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()


def test_the_tour_renders_the_explorer_and_a_playtest_in_jupyterlab(lab, browser, tmp_path):
    try:
        _run_the_tour(browser, lab)
    except Exception as exc:
        shot = tmp_path / "page.png"
        browser.save_screenshot(str(shot))
        exc.add_note(f"the page as it was: {shot}")
        raise


def _accept_dialogs(d: Any) -> None:
    """Press the proposed answer of any JupyterLab dialog on the page (returns None)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    for button in d.find_elements(By.CSS_SELECTOR, ".jp-Dialog button.jp-mod-accept"):
        with contextlib.suppress(WebDriverException):
            button.click()


def _run_the_tour(d: Any, lab: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    d.get(lab)
    wait = WebDriverWait(d, 120)
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".jp-Notebook .jp-Cell")))
    # the kernel must be idle before Run All, else the command is queued behind its start
    wait.until(
        ec.presence_of_element_located(
            (By.CSS_SELECTOR, ".jp-Notebook-ExecutionIndicator[data-status='idle']")
        )
    )
    # JupyterLab may ask which kernel to start: take the one it proposes (the notebook's)
    time.sleep(2)
    _accept_dialogs(d)
    run = next(
        m for m in d.find_elements(By.CSS_SELECTOR, ".lm-MenuBar-item") if m.text.strip() == "Run"
    )
    run.click()
    wait.until(
        ec.element_to_be_clickable(
            (By.CSS_SELECTOR, ".lm-Menu-item[data-command='runmenu:run-all']")
        )
    ).click()
    long = WebDriverWait(d, RUN_TIMEOUT)
    explorer = long.until(
        lambda _: (
            _accept_dialogs(d)
            or d.find_element(By.CSS_SELECTOR, ".gamelib-explorer .widget-dropdown")
        )
    ).find_element(By.XPATH, "ancestor::div[contains(@class, 'gamelib-explorer')]")
    labels = [e.text for e in explorer.find_elements(By.CSS_SELECTOR, ".widget-dropdown label")]
    assert {"game", "metric", "group by"} <= set(labels)
    chart = long.until(lambda _: explorer.find_element(By.CSS_SELECTOR, "img"))
    long.until(
        lambda _: chart.get_attribute("src").startswith("blob:") or chart.size["height"] > 50
    )
    assert "setup" in explorer.find_element(By.CSS_SELECTOR, "table").text

    playtest = long.until(
        lambda _: d.find_element(By.CSS_SELECTOR, ".gamelib-playtest .gamelib-picture")
    ).find_element(By.XPATH, "ancestor::div[contains(@class, 'gamelib-playtest')]")
    picture = playtest.find_element(By.CSS_SELECTOR, ".gamelib-picture").get_attribute("outerHTML")
    assert "turn 1<" in picture
    moves = playtest.find_elements(By.CSS_SELECTOR, "button.gamelib-move")
    assert moves and all(m.text.startswith(("play a ", "discard a ")) for m in moves)
    shots = os.environ.get("GAMELIB_SCREENSHOTS")
    if shots:
        d.execute_script("arguments[0].scrollIntoView();", explorer)
        explorer.screenshot(str(Path(shots) / "explore.png"))
    moves[0].click()  # the kernel answers: the picture is drawn again for turn 2
    long.until(
        lambda _: (
            "turn 2<"
            in playtest.find_element(By.CSS_SELECTOR, ".gamelib-picture").get_attribute("outerHTML")
        )
    )
    if shots:
        d.execute_script("arguments[0].scrollIntoView();", playtest)
        playtest.screenshot(str(Path(shots) / "play.png"))
