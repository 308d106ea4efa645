"""The helpers the browser tests share: a phone, a table opened, a tap, the score read. Each is
defined here once; a step the web tier's helpers (tests/web/helpers.py) also take is named
`..._on_page` here."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect

SIZES = ((320, 568), (390, 844))  # a small and a common phone
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
# A test's `width` and `height`: each of SIZES in turn, named 320x568 and 390x844.
ON_PHONES = pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)


def phone_context(browser: Browser, width: int, height: int, **options: Any) -> BrowserContext:
    """A phone-sized browser context in Brazilian Portuguese (`options` as new_context takes
    them)."""
    return browser.new_context(
        viewport={"width": width, "height": height}, locale="pt-BR", **options
    )


def phone_page(browser: Browser, contexts: list[BrowserContext], width: int, height: int) -> Page:
    """A phone-sized page in pt-BR without a service worker, in a context of its own (closed at
    the end of the test: it goes in `contexts`)."""
    context = phone_context(browser, width, height, service_workers="block")
    contexts.append(context)
    return context.new_page()


def open_table_on_page(page: Page, base: str, series: str | None = None) -> str:
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


def side_on_page(page: Page, name: str) -> Locator:
    """A side's panel: 'a' (Nós) or 'b' (Eles)."""
    return page.get_by_test_id(f"team-{name}")


def confirmed(page: Page, timeout: float | None = None) -> None:
    """Wait until no tap waits for the server: nothing pending, nothing forecast (`timeout` ms
    for each, else the expectations' default)."""
    expect(page.get_by_test_id("pendentes")).to_have_count(0, timeout=timeout)
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bprevisto\b"), timeout=timeout)


def tap_on_page(page: Page, team: str, label: str, *, confirm: bool = False) -> None:
    """Tap a +N button under a side and wait for the new board (its revision changes); with
    `confirm`, also until the server has every tap."""
    rev = page.locator("#board").get_attribute("data-rev")
    side_on_page(page, team).get_by_role("button", name=label, exact=True).click()
    expect(page.locator("#board")).not_to_have_attribute("data-rev", rev or "")
    if confirm:
        confirmed(page)


def press_on_page(page: Page, testid: str) -> None:
    """Tap the board's button with this test id and wait for the server's next board."""
    next_board(page, lambda: page.get_by_test_id(testid).click())


def score_on_page(page: Page, a: int, b: int) -> None:
    """Assert both scores as shown."""
    expect(page.get_by_test_id("score-a")).to_have_text(str(a))
    expect(page.get_by_test_id("score-b")).to_have_text(str(b))


# Everything a thumb aims at on the board, in every phase.
TARGETS = (
    "[data-testid^='tap-'], [data-testid^='onze-'], [data-testid^='ferro-'], "
    "[data-testid=anulada], [data-testid=desfazer], [data-testid=refazer], "
    "[data-testid=proxima-partida], [data-testid=nova-serie]"
)

# Each target's box in page coordinates, whether it lies inside the viewport, and whether
# document.elementFromPoint at its centre is the target itself (nothing covers it).
_GEOMETRY = """(selector) => {
  const out = {};
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    out[el.dataset.testid] = {
      x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
      inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
      clear: !!hit && (hit === el || el.contains(hit)),
    };
  }
  return out;
}"""


Boxes = dict[str, dict[str, float | bool]]


def geometry(page: Page) -> Boxes:
    """The board's tap targets, measured from the top of the page (scrolled back there)."""
    page.evaluate("window.scrollTo(0, 0)")
    found: Boxes = page.evaluate(_GEOMETRY, TARGETS)
    return found


def targets_on_screen(page: Page, phase: str, where: str = "") -> Boxes:
    """The board's tap targets, each on screen unscrolled and uncovered (`phase`, and `where`
    after it, say when in a failure's message)."""
    boxes = geometry(page)
    for name, box in boxes.items():
        assert box["inside"], f"{phase}: {name} is off screen{where}"
        assert box["clear"], f"{phase}: something covers {name}"
    return boxes


def assert_unmoved(before: Boxes, after: Boxes, event: str) -> None:
    """Every target is where it was (±1 px) and nothing covers one that is on screen."""
    assert before.keys() == after.keys(), (event, sorted(before), sorted(after))
    for name, box in after.items():
        for edge in ("x", "y", "w", "h"):
            moved = abs(float(box[edge]) - float(before[name][edge]))
            assert moved <= 1, f"{event}: {name} moved {moved:.1f} px ({edge})"
        if box["inside"]:
            assert box["clear"], f"{event}: something covers {name}"


def next_board(page: Page, action: Callable[[], None]) -> None:
    """Do something that writes, and wait until the board shows the next revision."""
    rev = page.locator("#board").get_attribute("data-rev")
    action()
    expect(page.locator("#board")).not_to_have_attribute("data-rev", rev or "")


def wait_until(page: Page, expression: str, timeout_ms: int = 20_000) -> None:
    """Wait until a JavaScript expression (or the promise it gives) is true in the page, asked
    from outside every 50 ms (page.wait_for_function polls with eval inside the page, which the
    app's CSP refuses)."""
    for _ in range(timeout_ms // 50):
        if page.evaluate(f"Promise.resolve({expression}).then(Boolean)"):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"still false after {timeout_ms} ms: {expression}")


HELD_S = 0.3  # a held answer waits this long, as a slow network would


def hold(route: Route) -> None:
    """Let a request reach the server, then hold its answer back for HELD_S."""
    answer = route.fetch()
    time.sleep(HELD_S)
    route.fulfill(response=answer)
