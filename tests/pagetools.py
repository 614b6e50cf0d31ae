"""Page steps the browser tests share: reloading a report and opening it at a link, as a reader does."""

from __future__ import annotations

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
    open_()
    page.wait_for_selector(READY, state="attached")
    now = page.evaluate(STORED)
    assert now == stored, f"the stored settings {stored} did not reach the next page: {now}"
