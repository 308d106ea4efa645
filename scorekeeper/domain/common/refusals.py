"""Why the domain (a table, a turma, a torneio) did not do what it was asked. Each refusal
carries the status and the pt-BR message it is answered with; one handler
(errors.answer_refusals) answers them all, each page family saying only which page to draw
again. A request's input the domain cannot take is an InputError; the rules' own refusal,
RulesError, stays in the rules. Both are answered the same way: a 422 in their words."""

from __future__ import annotations

from typing import ClassVar

from ...rules import RulesError


class Refusal(Exception):
    """A request the domain refused: the page it came from is drawn again with `message` (none:
    the page as it stands) and answered with `status`."""

    status: ClassVar[int] = 422
    message: ClassVar[str | None] = None


class BadLink(Refusal):
    """A link that reaches no page it may use: answered with its error page, nothing drawn
    again."""


class UnknownTable(BadLink):
    """No table has this token (it never had one, or its links were rotated)."""

    status = 404


class ViewOnly(BadLink):
    """A viewer's token where a scorer's is needed."""

    status = 403


class StaleRevision(Refusal):
    """The board changed since the client drew it."""

    status = 409
    message = "O placar mudou em outro aparelho; confira."


class StaleTurma(StaleRevision):
    """The turma changed since the client drew its page."""

    message = "A turma mudou em outro aparelho; confira."


class MatchOver(Refusal):
    """A torneio match decided off its board (a W.O., the organiser's result, the clock's
    limit) or called off: its table takes no more writes; the board drawn again says why and
    leads to the mesa's match now."""

    message = "Este jogo do torneio já foi encerrado fora do placar: nada foi marcado."


class AlreadyApplied(Refusal):
    """The table applied a write with this client id before (its answer was lost on the way
    back and the phone sent it again): answer with the current board, apply nothing."""

    status = 200

    def __init__(self, record_id: int) -> None:
        super().__init__(record_id)
        self.record_id = record_id


class ReusedClientId(Refusal):
    """A client id the table journaled for another write came with this one (a client's bug,
    never a retry): refused, nothing applied, nothing to retry."""

    message = "Esse toque já foi usado para outra jogada: nada foi marcado. Recarregue a página."


class InputError(ValueError):
    """Input the domain cannot take (a bad name, a bad file, too many mesas, a step the
    torneio is not at): no rule of the game, whose refusals are the rules' RulesError. The
    message is pt-BR; answered as a RulesError is, a 422 in its words."""


def answer_of(error: Refusal | RulesError | InputError) -> tuple[int, str | None]:
    """The status and the message a refusal is answered with: a Refusal's own, a 422 in its
    words for an InputError or the rules' RulesError."""
    if isinstance(error, Refusal):
        return error.status, error.message
    return 422, str(error)
