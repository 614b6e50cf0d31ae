"""Real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright, one browser per session."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pytest

from dumptools import made_once
from pagetools import STORED, reload
from pypto_ir_trace import cli, render

try:
    from playwright import sync_api
except ImportError:  # said once, below: a skip, or in CI a stop (never an error for every test collected)
    sync_api = None

CHROMIUM_ENV = "PYPTO_CHROMIUM"  # another Chromium binary (tests point it at a missing file)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LOCAL_SCHEMES = ("file:", "data:", "blob:")


def chromium() -> Path | None:
    """The Chromium to drive: $PYPTO_CHROMIUM if set, else Debian's /usr/bin/chromium or one on PATH."""
    if os.environ.get(CHROMIUM_ENV):
        path = Path(os.environ[CHROMIUM_ENV])
        return path if path.is_file() else None
    found = Path("/usr/bin/chromium") if Path("/usr/bin/chromium").is_file() else shutil.which("chromium")
    return Path(found) if found else None


MISSING = "browser tests need Chromium: none at {where}; install Debian's chromium (apt-get install chromium)"
NO_PLAYWRIGHT = "browser tests need Playwright: the playwright package cannot be imported (pip install playwright)"


def _missing_reason() -> str | None:
    if sync_api is None:
        return NO_PLAYWRIGHT
    if chromium() is not None:
        return None
    return MISSING.format(where=os.environ.get(CHROMIUM_ENV) or "/usr/bin/chromium (or chromium on PATH)")


def pytest_collection_modifyitems(config, items):
    """Without Playwright or Chromium: CI stops with one line (a skip would pass unseen); elsewhere the tests
    here skip."""
    here = Path(__file__).parent
    ours = [item for item in items if here in item.path.parents]
    reason = _missing_reason() if ours else None
    if reason is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.exit(f"CI: {reason}", returncode=1)
    config.stash[_SKIPPED] = reason
    for item in ours:
        item.add_marker(pytest.mark.skip(reason=reason))


_SKIPPED = pytest.StashKey[str]()


def pytest_terminal_summary(terminalreporter, config):
    """The reason once, even without -rs."""
    if _SKIPPED in config.stash:
        terminalreporter.write_line(f"SKIPPED: {config.stash[_SKIPPED]}")


@pytest.fixture(scope="session")
def browser():
    path = chromium()
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(path), args=ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="session")
def pure_scripts() -> list[str]:
    """The sources of the viewer's pure scripts (no DOM touched when loaded), in the page's order: static/scripts.json."""
    static = resources.files("pypto_ir_trace").joinpath("static")
    return [
        static.joinpath(entry["file"]).read_text("utf-8") for entry in render.scripts()["viewer"] if entry.get("pure")
    ]


@pytest.fixture(scope="session")
def report(tmp_path_factory):
    """report(case, *options) -> Path of the HTML built by the CLI from fixtures/<case> (or an absolute path);
    built once per run, whichever worker asks first."""

    def build(case: str, *extra: str) -> Path:
        name = hashlib.sha256(json.dumps([case, *extra]).encode()).hexdigest()[:16]

        def make(into: Path) -> None:
            into.mkdir(exist_ok=True)  # a worker that failed half-way may have made it
            assert cli.main([str(FIXTURES / case), "-o", str(into / "report.html"), *extra]) == 0

        return made_once(tmp_path_factory, f"report-{name}", make) / "report.html"

    return build


@dataclass
class Opened:
    page: object
    requests: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # console errors and warnings, uncaught exceptions


# A page left as a test found it goes back to a pool, by the options it was opened with, and the next test with
# those options navigates it to its report: a new context and page cost more than half a second, most tests'
# whole time. What a test may change is undone or checked (`reusable`); anything else closes the context.
NATIVE_TIMERS = """() => [Date.now, setTimeout, performance.now].every(f => /\\[native code\\]/.test(Function.prototype.toString.call(f)))"""
MODIFIERS = ("Shift", "Control", "Alt", "Meta")
START_STORAGE = """elide => {
  localStorage.clear(); sessionStorage.clear();
  if (!elide) localStorage.setItem('pypto-ir-trace-elide', 'off');
}"""


@pytest.fixture(scope="session")
def warm_pages(browser):
    """Options -> [(context, page)] kept between tests; closed at the end of the session."""
    pool: dict[tuple, list] = {}
    yield pool
    for kept in pool.values():
        for context, _ in kept:
            context.close()


def new_page(browser, key: tuple):
    color_scheme, viewport, init_script, permissions, _ = key
    context = browser.new_context(color_scheme=color_scheme, viewport={"width": viewport[0], "height": viewport[1]})
    if permissions:
        context.grant_permissions(list(permissions))
    if init_script:
        context.add_init_script(init_script)
    return context, context.new_page()


def start_storage(page, elide: bool) -> None:
    """The settings a test's page starts with: none, but Elide types off unless the test asks for it (on by
    default; the tests of what else the panes show read lines whole). Set in the page, never by an init
    script: Chromium's new document, touching storage that early, can miss what the last one stored."""
    page.evaluate(START_STORAGE, elide)


def settle_storage(page, elide: bool, tries: int = 3) -> None:
    """The report just opened starts with the test's settings (start_storage): else they are written in it and it
    is opened again. A write straight before a navigation may not reach the next document (Chromium hands storage
    to its browser process asynchronously: a new context's first settings, or a reused page's, were lost in 2 of 6
    CI runs); every later reload must keep what the page stored (pagetools)."""
    wanted = json.dumps([] if elide else [["pypto-ir-trace-elide", "off"]], separators=(",", ":"))
    for attempt in range(tries):
        if page.evaluate(STORED) == wanted:
            return
        start_storage(page, elide)
        try:
            reload(page)
        except AssertionError:
            if attempt == tries - 1:
                raise
    assert page.evaluate(STORED) == wanted, f"the test's settings {wanted} did not reach the report"


def reusable(context, page, key: tuple) -> bool:
    """Whether the page can serve another test as if new: one page, on a report, its timers the browser's own
    (a test's page.clock stays with the context), its storage cleared, its media, size and keys as opened."""
    if page.is_closed() or context.pages != [page] or not page.url.startswith("file:"):
        return False
    try:
        if not page.evaluate(NATIVE_TIMERS):
            return False
        start_storage(page, key[4])
        page.emulate_media(media="null", color_scheme=key[0])
        page.set_viewport_size({"width": key[1][0], "height": key[1][1]})
        for key_name in MODIFIERS:
            page.keyboard.up(key_name)
        page.goto("about:blank")  # the next report is a new document, whatever its fragment
    except Exception:  # a page the test left unable to answer: not kept
        return False
    return True


@pytest.fixture
def open_report(browser, report, warm_pages):
    """open_report(case, color_scheme=..., ...) -> an Opened page, ready; checks console and network after."""
    used: list[tuple] = []
    opened: list[Opened] = []

    def open_(
        case: str,
        *extra: str,
        color_scheme: str = "light",
        viewport=(1280, 720),
        init_script: str | None = None,
        permissions: list[str] | None = None,
        fragment: str = "",
        elide: bool = False,
    ) -> Opened:
        key = (color_scheme, tuple(viewport), init_script, tuple(permissions or ()), elide)
        kept = warm_pages.get(key)
        context, page = kept.pop() if kept else new_page(browser, key)
        page.set_default_timeout(5000)
        result = Opened(page)
        handlers = [
            ("request", lambda request: result.requests.append(request.url)),
            (
                "console",
                lambda message: (
                    message.type in ("error", "warning")
                    and result.problems.append(f"console {message.type}: {message.text}")
                ),
            ),
            ("pageerror", lambda error: result.problems.append(f"page error: {error}")),
        ]
        for event, handler in handlers:
            page.on(event, handler)
        used.append((key, context, page, handlers))
        page.goto(report(case, *extra).as_uri() + fragment)
        page.wait_for_selector("body[data-ready='true']", state="attached")
        settle_storage(page, elide)
        opened.append(result)
        return result

    yield open_
    try:
        for result in opened:
            assert result.problems == [], result.problems
            strays = [url for url in result.requests if not url.startswith(LOCAL_SCHEMES)]
            assert strays == [], f"network requests: {strays}"
    finally:
        for key, context, page, handlers in used:
            for event, handler in handlers:
                page.remove_listener(event, handler)
            if reusable(context, page, key):
                warm_pages.setdefault(key, []).append((context, page))
            else:
                context.close()
