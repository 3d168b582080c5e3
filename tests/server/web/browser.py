"""A real headless Chromium for the page tests: Debian's chromium and chromium-driver (the
Makefile and .ci/run install them), driven by Selenium. Selenium Manager never runs: the driver's
path is given, so nothing is downloaded."""

from __future__ import annotations

import shutil
import socket
import threading
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "var" / "screenshots"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LiveServer:
    """The app served by werkzeug on a thread, on 127.0.0.1."""

    def __init__(self, app, port: int) -> None:
        from werkzeug.serving import make_server

        self.url = f"http://127.0.0.1:{port}"
        self._server = make_server("127.0.0.1", port, app, threaded=True)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=10)


def chromium(offline_except: str | None = None):
    """A headless Chromium. `offline_except`: a host (127.0.0.1) that alone resolves, so the page
    cannot reach any other address (the network is off for it)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    for path in (CHROMIUM, CHROMEDRIVER):
        if shutil.which(path) is None:
            pytest.fail(f"{path} is missing: `make test` installs Debian's chromium and "
                        "chromium-driver (apt-get install chromium chromium-driver)",
                        pytrace=False)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1300", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update"):
        options.add_argument(argument)
    if offline_except:
        options.add_argument(
            f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {offline_except}")
        options.add_argument("--proxy-server=http://0.0.0.0:9")  # nothing goes out by a proxy
        options.add_argument(f"--proxy-bypass-list={offline_except}")
    return webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))


PHONE = (390, 844)
DESKTOP = (1280, 800)
AXE = Path(__file__).resolve().parents[3] / "node_modules" / "axe-core" / "axe.min.js"


def at_size(driver, size: tuple[int, int]) -> None:
    """The viewport exactly `size` CSS pixels; a phone's (narrow) is a mobile one, which honours
    the page's viewport tag as a phone does."""
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def overflow(driver) -> int:
    """How many CSS pixels the page is wider than the screen (0: no horizontal scrolling)."""
    return driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth")


def axe_violations(driver) -> list[dict]:
    """axe-core's serious and critical violations on the page (its npm package: `make test`
    installs it with `npm ci`)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)", pytrace=False)
    driver.execute_script(AXE.read_text() + "\n;window.__axe_loaded = true;")
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.html)}))))"
        ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e)}]));")
    return [v for v in result if v["impact"] in ("serious", "critical")]
