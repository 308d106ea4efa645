"""One refusal hierarchy, answered one way: each refusal says its status and its pt-BR message,
every page family draws the page the request came from again with them, and a link that
reaches no page gets its error page."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from scorekeeper.domain.mesa import (
    AlreadyApplied,
    BadLink,
    InputError,
    Refusal,
    ReusedClientId,
    StaleRevision,
    StaleTurma,
    UnknownTable,
    ViewOnly,
    answer_of,
)
from scorekeeper.rules import RulesError

from .helpers import by_testid, open_table, revision


@pytest.mark.parametrize(
    ("refusal", "status", "message"),
    [
        (StaleRevision(), 409, "O placar mudou em outro aparelho; confira."),
        (StaleTurma(), 409, "A turma mudou em outro aparelho; confira."),
        (ReusedClientId(), 422, ReusedClientId.message),
        (AlreadyApplied(7), 200, None),
        (UnknownTable(), 404, None),
        (ViewOnly(), 403, None),
        (RulesError("Não há mão para desfazer."), 422, "Não há mão para desfazer."),
    ],
)
def test_a_refusal_says_its_status_and_message(
    refusal: Refusal | RulesError, status: int, message: str | None
) -> None:
    """The status and the words each refusal is answered with; the rules' own in their words."""
    assert answer_of(refusal) == (status, message)


def test_the_hierarchy_keeps_the_rules_refusal_apart() -> None:
    """Every refusal of the tables' domain is a Refusal; links reaching no page are BadLinks;
    RulesError stays the rules' own (a ValueError, no Refusal)."""
    assert issubclass(StaleTurma, StaleRevision) and issubclass(StaleRevision, Refusal)
    assert issubclass(UnknownTable, BadLink) and issubclass(ViewOnly, BadLink)
    assert not issubclass(RulesError, Refusal) and issubclass(RulesError, ValueError)


def test_an_input_error_is_no_rule_and_is_answered_as_one() -> None:
    """Input the domain cannot take is an InputError, neither the rules' RulesError nor a
    Refusal, and is answered as a RulesError is: a 422 in its words."""
    assert not issubclass(InputError, RulesError) and not issubclass(InputError, Refusal)
    assert answer_of(InputError("Dê um nome ao torneio.")) == (422, "Dê um nome ao torneio.")


def test_a_revision_no_turma_can_have_is_stale_for_the_turma(client: FlaskClient) -> None:
    """A turma page's write with a revision past 32 bits is refused as the turma's stale
    page, not the board's."""
    token = open_table(client)
    saved = client.post(
        f"/m/{token}/turma", data={"rev": revision(client, token), "acao": "criar", "nome": "T"}
    )
    turma = re.search(r"/turma/([A-Za-z0-9_-]+)$", saved.headers["Location"])
    assert turma
    refused = client.post(f"/turma/{turma.group(1)}/trocar-links", data={"rev": str(2**40)})
    assert refused.status_code == 409
    assert by_testid(refused.text, "mensagem") == StaleTurma.message


def test_a_link_gone_meanwhile_is_its_error_page(client: FlaskClient) -> None:
    """A refused write on a token that names no table: the 404 page, not a board."""
    refused = client.post(f"/m/{'x' * 43}/desfazer", data={"rev": "0"})
    assert refused.status_code == 404
    assert 'data-testid="mensagem"' not in refused.text
