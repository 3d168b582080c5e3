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
