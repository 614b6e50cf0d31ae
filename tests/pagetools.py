"""Page steps the browser tests share: reloading a report and opening it at a link, as a reader does; a blank
page holding the viewer's pure scripts; a pass's Ops line as a reader reads it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

# The next page must read what the last one stored (the report writes storage only when the reader changes
# a setting): checked on every step, as a reload that lost a setting once failed a test far from its cause.
STORED = "() => JSON.stringify(Object.entries(localStorage).sort())"
READY = "body[data-ready='true']"


def reload(page) -> None:
    """Reload the report, and wait until it is ready with the settings the page stored."""
    _open_with_storage(page, page.reload)


def open_link(page, fragment: str) -> None:
    """Open the report anew at `fragment`, as a pasted link or a new tab does: not a change of the open
    page's hash, which the page reads as a step within it and keeps its other settings through."""
    url = page.url.split("#")[0] + fragment

    def open_() -> None:
        page.goto("about:blank")
        page.goto(url)

    _open_with_storage(page, open_)


def _open_with_storage(page, open_) -> None:
    stored = page.evaluate(STORED)
    now = None
    for _ in range(2):
        open_()
        page.wait_for_selector(READY, state="attached")
        now = page.evaluate(STORED)
        if now == stored:
            return
        # The last page's write reaches the browser process a moment after it is made: on a loaded host the next
        # page can start before it (seen when other work held both cores). A setting that was lost stays lost when the
        # page is opened once more; one that was late is there.
        page.wait_for_timeout(500)
    raise AssertionError(f"the stored settings {stored} did not reach the next page: {now}")


@contextmanager
def pure_page(browser, pure_scripts: list[str], title: str) -> Iterator:
    """A blank page holding only the viewer's pure scripts, inlined; on leaving, it must have asked for nothing
    and thrown nothing."""
    context = browser.new_context()
    page = context.new_page()
    requests, problems = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_content(f"<!doctype html><title>{title}</title>")
    for source in pure_scripts:
        page.add_script_tag(content=source)
    yield page
    context.close()
    assert (requests, problems) == ([], [])


def pass_ops(page) -> dict[str, int]:
    """op -> its count delta, as the pass's Ops line says in full (its tooltip); {} when the line is hidden."""
    line = page.locator("#pass-ops")
    if line.is_hidden():
        return {}
    found = {}
    for entry in line.get_attribute("title").split("\n")[1:]:
        op, delta = entry.rsplit(" ", 1)
        found[op] = int(delta.replace("\u2212", "-"))
    return found
