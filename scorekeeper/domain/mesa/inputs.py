"""What every write to a table carries, read from a form with pt-BR refusals."""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from ...rules import RulesError
from ..common.refusals import StaleRevision

INT_LIMIT = 2**31  # every integer column is 32-bit; larger values would crash the database driver
MAX_TEAM = 24  # the longest team name a table keeps
MAX_PLAYER = 24  # the longest player name a table keeps
MAX_REASON = 200  # the longest reason a record keeps (a correction's "motivo")


INVISIBLE = ("Cc", "Cf", "Co", "Cs", "Cn")  # control, format (zero-width, bidi), unassigned


def visible(text: str) -> str:
    """A text as people read it: NFC, without control, zero-width or bidi-override characters,
    its runs of spaces made one and none at either end."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", text)
        if ch.isspace() or unicodedata.category(ch) not in INVISIBLE
    )
    return " ".join(kept.split())


def kept_visible(text: str) -> bool:
    """True when `visible` would change nothing in `text` but its spaces (a run of them, or
    one at either end, as a name cut at its limit may keep): NFC, no control, zero-width or
    bidi character, no line break or tab."""
    return unicodedata.is_normalized("NFC", text) and all(
        ch == " " or not (ch.isspace() or unicodedata.category(ch) in INVISIBLE) for ch in text
    )


def checked_text(text: object, what: str, limit: int) -> str:
    """A name (or a reason) as the tables keep one: a text of at most `limit` characters that
    `visible` leaves as it is but for its spaces; a pt-BR refusal naming `what` otherwise."""
    if not isinstance(text, str) or not kept_visible(text):
        raise RulesError(
            f"{what} inválido: tem caractere invisível, de controle ou quebra de linha."
        )
    if len(text) > limit:
        raise RulesError(f"{what} muito longo: no máximo {limit} caracteres.")
    return text


def _integer(value: str | None, what: str) -> int:
    """An integer from a form field, or a pt-BR refusal naming `what`."""
    try:
        return int((value or "").strip())
    except ValueError:
        raise RulesError(f"Valor inválido para {what}.") from None


def number(value: str | None, what: str) -> int:
    """An integer from a form field (within 32 bits), or a pt-BR refusal naming `what`."""
    found = _integer(value, what)
    if not -INT_LIMIT <= found < INT_LIMIT:
        raise RulesError(f"Valor inválido para {what}.")
    return found


@dataclass(frozen=True)
class Write:
    """The revision a write's board was drawn from and, from the page's script, a client-made
    id (a UUID) that makes a retry recognisable."""

    rev: int
    cid: str | None

    @classmethod
    def read(cls, form: Mapping[str, str], stale: type[StaleRevision] = StaleRevision) -> Write:
        """The write's revision and client id, or a pt-BR refusal; a revision no table (or, with
        `stale` StaleTurma, no turma) can have (negative, or past 32 bits) is as stale as an old
        one."""
        rev = _integer(form.get("rev"), "a revisão do placar")
        if not 0 <= rev < INT_LIMIT:
            raise stale()
        raw = (form.get("cid") or "").strip()
        if not raw:
            return cls(rev, None)
        try:
            return cls(rev, str(uuid.UUID(raw)))
        except ValueError:
            raise RulesError("Toque com identificação inválida: recarregue a página.") from None
