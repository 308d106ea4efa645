"""No tap is ever lost, none counts twice: taps made without network are kept (page and
localStorage), survive a reload, and are sent in order when the server answers again; a retry
after a lost answer is recognised by its client id; after another phone's change the scorer
chooses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from .pages import open_table_on_page, press_on_page, score_on_page

SLOW = 10_000  # ms: the "within 10 s"


@pytest.fixture
def phones(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[list[Page]]:
    """Two phones (separate browser contexts) at 390x844, no service worker, closed whatever
    happens."""
    contexts: list[BrowserContext] = [browser.new_context(**browser_context_args) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


@pytest.fixture
def installed_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A phone at 390x844 whose service worker installs, as the app's does on a real phone."""
    context = browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    yield context.new_page()
    context.close()


def log_lines(page: Page) -> list[str]:
    """The active hands of the log, oldest first, as 'Nós +1'."""
    return [
        line.locator(".what").inner_text().split("\n")[0]
        for line in reversed(page.locator("[data-testid=registro].active").all())
    ]


def test_taps_made_offline_survive_a_reload_and_land_in_order_when_the_network_returns(
    installed_phone: Page, live_server: str
) -> None:
    """Offline: +1 Nós, +3 Eles, +1 Nós, then a reload while still offline; with the network
    back, within 10 s the score is 2 x 3, the log has exactly those hands in that order, and
    nothing is pending."""
    page = installed_phone
    open_table_on_page(page, live_server)
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
    page.context.set_offline(True)
    for testid in ("tap-a-1", "tap-b-3", "tap-a-1"):
        page.get_by_test_id(testid).click()
    expect(page.get_by_test_id("pendentes")).to_contain_text("3 toques")
    page.reload()
    expect(page.get_by_test_id("offline")).to_be_visible()
    expect(page.get_by_test_id("pendentes")).to_contain_text("3 toques")
    page.context.set_offline(False)
    expect(page.get_by_test_id("score-a")).to_have_text("2", timeout=SLOW)
    expect(page.get_by_test_id("score-b")).to_have_text("3", timeout=SLOW)
    expect(page.get_by_test_id("pendentes")).to_have_count(0, timeout=SLOW)
    assert log_lines(page) == ["Nós +1", "Eles +3", "Nós +1"]


def test_a_tap_whose_answer_was_lost_is_sent_again_and_counted_once(
    phones: list[Page], live_server: str
) -> None:
    """The tap reaches the server, its answer is dropped on the way back; the page retries and
    the server recognises the client id: one record."""
    page = phones[0]
    open_table_on_page(page, live_server)
    dropped: list[int] = []

    def drop_first_answer(route: Route) -> None:
        """Let the first tap reach the server, then lose its answer."""
        if dropped:
            route.continue_()
            return
        dropped.append(route.fetch().status)
        route.abort()

    page.route("**/marcar", drop_first_answer)
    page.get_by_test_id("tap-a-3").click()
    score_on_page(page, 3, 0)
    expect(page.get_by_test_id("pendentes")).to_have_count(0, timeout=SLOW)
    assert dropped == [200]
    assert log_lines(page) == ["Nós +3"]
    page.reload()
    score_on_page(page, 3, 0)


def test_the_tapped_button_shows_at_once_that_the_tap_was_taken(
    phones: list[Page], live_server: str
) -> None:
    """Before the server answers, the button looks pressed and the slot says it is being sent."""
    page = phones[0]
    open_table_on_page(page, live_server)
    held: list[Route] = []
    page.route("**/marcar", lambda route: held.append(route))
    page.get_by_test_id("tap-b-6").click()
    expect(page.get_by_test_id("tap-b-6")).to_have_class(re.compile(r"\bpending\b"))
    expect(page.get_by_test_id("pendentes")).to_contain_text("Eles +6")
    for _ in range(200):  # the request reaches the route a moment after the page shows it
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    held[0].continue_()
    score_on_page(page, 0, 6)
    expect(page.get_by_test_id("tap-b-6")).not_to_have_class(re.compile(r"\bpending\b"))
    expect(page.get_by_test_id("pendentes")).to_have_count(0)


def offline_tap_then_another_phone(page: Page, other: Page, base: str) -> None:
    """This phone taps +1 Nós offline while another phone taps +3 Eles; the network returns."""
    url = open_table_on_page(page, base)
    other.goto(url)
    page.context.set_offline(True)
    page.get_by_test_id("tap-a-1").click()
    expect(page.get_by_test_id("pendentes")).to_contain_text("1 toque")
    press_on_page(other, "tap-b-3")
    page.context.set_offline(False)
    expect(page.get_by_test_id("conflito")).to_contain_text("mudou em outro aparelho", timeout=SLOW)
    expect(page.get_by_test_id("conflito")).to_contain_text("Nós +1")
    score_on_page(page, 0, 3)


def test_a_kept_tap_after_another_phones_change_can_be_sent_anyway(
    phones: list[Page], live_server: str
) -> None:
    """After a 409 the kept tap is not applied blindly: 'marcar assim mesmo' sends it on the
    new board."""
    page, other = phones
    offline_tap_then_another_phone(page, other, live_server)
    page.get_by_role("button", name="marcar assim mesmo").click()
    score_on_page(page, 1, 3)  # at once, as forecast: the server's answer brings the log
    expect(page.get_by_test_id("conflito")).to_have_count(0)
    expect(page.locator("[data-testid=registro].active")).to_have_count(2, timeout=SLOW)
    assert log_lines(page) == ["Eles +3", "Nós +1"]


def test_a_kept_tap_after_another_phones_change_can_be_discarded(
    phones: list[Page], live_server: str
) -> None:
    """'descartar' drops the kept tap: the other phone's hand stands alone."""
    page, other = phones
    offline_tap_then_another_phone(page, other, live_server)
    page.get_by_role("button", name="descartar").click()
    expect(page.get_by_test_id("conflito")).to_have_count(0)
    expect(page.get_by_test_id("pendentes")).to_have_count(0)
    page.reload()
    score_on_page(page, 0, 3)
    assert log_lines(page) == ["Eles +3"]


def test_undo_takes_back_a_tap_that_is_still_waiting(phones: list[Page], live_server: str) -> None:
    """Offline, +1 then +3 for Nós, then Desfazer: the +3 never leaves the phone."""
    page = phones[0]
    open_table_on_page(page, live_server)
    page.context.set_offline(True)
    page.get_by_test_id("tap-a-1").click()
    page.get_by_test_id("tap-a-3").click()
    expect(page.get_by_test_id("pendentes")).to_contain_text("2 toques")
    page.get_by_test_id("desfazer").click()
    expect(page.get_by_test_id("pendentes")).to_contain_text("1 toque")
    page.context.set_offline(False)
    score_on_page(page, 1, 0)
    expect(page.get_by_test_id("pendentes")).to_have_count(0, timeout=SLOW)
    assert log_lines(page) == ["Nós +1"]


def test_the_offline_message_clears_by_itself_when_the_server_answers(
    phones: list[Page], live_server: str
) -> None:
    """'sem conexão' appears when a poll fails and goes when one succeeds, with no tap."""
    page = phones[0]
    open_table_on_page(page, live_server)
    page.context.set_offline(True)
    expect(page.get_by_test_id("sem-conexao")).to_be_visible(timeout=SLOW)
    page.context.set_offline(False)
    expect(page.get_by_test_id("sem-conexao")).to_have_count(0, timeout=SLOW)
