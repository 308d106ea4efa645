"""Every page reads a table option from the registry: the new-table form has a field for each
(named as links and forms spell it), the table keeps each in the column its code name names,
and the juiz's links carry the rules it judges by."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scorekeeper.models import Mesa
from scorekeeper.rules import ANSWERER, TABLE_OPTIONS, Option
from scorekeeper.web.juiz.query import CARD_OPTIONS, EVENT_KEYS, ROUND_KEYS, WHOLE_OPTIONS
from scorekeeper.web.mesa.forms import NewTableForm


@pytest.mark.parametrize("option", TABLE_OPTIONS, ids=lambda o: o.name)
def test_the_new_table_form_offers_each_option(app: Flask, option: Option[Any]) -> None:
    """A field per option, named by its parameter, titled by it, offering its choices in the
    registry's order with the default chosen."""
    with app.test_request_context():
        form = NewTableForm(formdata=None)
    field = form[option.param]
    assert field.label.text == option.title
    assert [value for value, *_ in field.choices] == [c.spelled for c in option.offered]
    assert field.data == option.offered[0].spelled


@pytest.mark.parametrize("option", TABLE_OPTIONS, ids=lambda o: o.name)
def test_a_table_keeps_each_option_in_its_column(option: Option[Any]) -> None:
    """The Mesa column of each option is its code name, and defaults to the option's default."""
    column = Mesa.__table__.columns[option.name]
    assert column.default is not None and column.default.arg == option.default


def test_the_juiz_links_carry_the_rules_it_judges_by() -> None:
    """The round page's links carry the card rules, the whole hand's also who answers."""
    assert {o.param for o in CARD_OPTIONS} <= set(ROUND_KEYS)
    assert ANSWERER in WHOLE_OPTIONS and {o.param for o in WHOLE_OPTIONS} <= set(EVENT_KEYS)
