"""Shared steps for the browser tests: open a table, tap, read the score."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect


def open_table(page: Page, base: str, series: str | None = None) -> str:
    """Open a table from the home page (with a series when given) and return the board URL."""
    page.goto(base + "/")
    if series:
        page.get_by_text("Opções da mesa").click()
        page.get_by_label(series).check()
        page.get_by_role("button", name="Abrir mesa com essas opções").click()
    else:
        page.get_by_test_id("nova-mesa").click()
    page.wait_for_url("**/m/*")
    return page.url


def side(page: Page, name: str) -> Locator:
    """A side's panel: 'a' (Nós) or 'b' (Eles)."""
    return page.get_by_test_id(f"team-{name}")


def tap(page: Page, team: str, label: str) -> None:
    """Tap a +N button under a side and wait for the new board (its revision changes)."""
    rev = page.locator("#board").get_attribute("data-rev")
    side(page, team).get_by_role("button", name=label, exact=True).click()
    expect(page.locator("#board")).not_to_have_attribute("data-rev", rev or "")


def score(page: Page, a: int, b: int) -> None:
    """Assert both scores as shown."""
    expect(page.get_by_test_id("score-a")).to_have_text(str(a))
    expect(page.get_by_test_id("score-b")).to_have_text(str(b))
