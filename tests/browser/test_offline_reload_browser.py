"""A board no service worker looks after (plain HTTP on the local network): a reload while taps
wait for the network would land on the browser's error page, so the browser asks first; with
nothing waiting, or once the taps are sent, it reloads without asking."""

from __future__ import annotations

from playwright.sync_api import Dialog, Page, expect

from .pages import open_table_on_page, score_on_page


def asked_on_reload(page: Page) -> list[str]:
    """Reload the page from its own script; the kinds of dialog the browser showed, each
    dismissed (the reload then does not happen)."""
    shown: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        """Note the dialog and stay on the page."""
        shown.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", dismiss)
    with page.expect_event("dialog"):
        page.evaluate("window.setTimeout(() => location.reload(), 0)")
    page.remove_listener("dialog", dismiss)
    return shown


def test_a_reload_while_taps_wait_for_the_network_asks_first(page: Page, live_server: str) -> None:
    """Offline, +1 Nós: a reload asks (beforeunload); staying keeps the board and its waiting
    tap, which lands once the network is back; then a reload goes through without asking."""
    open_table_on_page(page, live_server)
    page.context.set_offline(True)
    page.get_by_test_id("tap-a-1").click()
    expect(page.get_by_test_id("pendentes")).to_contain_text("1 toque esperando")
    assert asked_on_reload(page) == ["beforeunload"]
    expect(page.get_by_test_id("pendentes")).to_contain_text("1 toque esperando")
    page.context.set_offline(False)
    score_on_page(page, 1, 0)
    expect(page.get_by_test_id("pendentes")).to_have_count(0)
    asked: list[str] = []
    page.on("dialog", lambda dialog: asked.append(dialog.type))
    page.reload()
    score_on_page(page, 1, 0)
    assert asked == []
