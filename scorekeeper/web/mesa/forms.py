"""The board's forms: a new table and a correction (WTForms, pt-BR messages). Refusals are
RulesError, as the rules' own."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm
from wtforms import Field, Form, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import AnyOf, DataRequired, ValidationError

from ...domain.mesa.inputs import MAX_PLAYER, MAX_REASON, MAX_TEAM, checked_text, number, visible
from ...domain.mesa.settings import NAME_FIXED, NAME_SWAPPED
from ...models import Mesa
from ...rules import (
    BEST_OF,
    DECK,
    FERRO_MODE,
    MANILHAS,
    PLAYERS,
    SPECIAL_AT,
    TIE_OPENER,
    VARIANTE,
    VARIANTS,
    MatchConfig,
    MatchState,
    Option,
    RulesError,
    RuleSet,
    Variant,
    either,
    variant,
)


def _squeezed(value: Any) -> Any:
    """A form's text made visible (see `visible`); anything else as it came."""
    return visible(value) if isinstance(value, str) else value


def _not_only_invisible(_form: Form, field: Field) -> None:
    """A name typed with nothing visible in it (only zero-width or control characters) is
    refused rather than turned into the default."""
    raw = field.raw_data[0] if field.raw_data else ""
    if isinstance(raw, str) and raw.strip() and not field.data:
        raise ValidationError("Nome inválido: só tem caracteres invisíveis.")


def _kept(what: str, limit: int) -> Any:
    """A validator: the field's text is one a table keeps (`checked_text`: its length and
    characters, refused in pt-BR), as the turma's import checks it."""

    def check(_form: Form, field: Field) -> None:
        try:
            checked_text(field.data or "", what, limit)
        except RulesError as error:
            raise ValidationError(str(error)) from None

    return check


def _name(what: str, limit: int) -> StringField:
    """An optional name of at most `limit` characters."""
    return StringField(
        default="", filters=[_squeezed], validators=[_kept(what, limit), _not_only_invisible]
    )


def _whole_number(what: str) -> Any:
    """A validator: the field holds a 32-bit integer."""

    def check(_form: Form, field: Field) -> None:
        try:
            number(field.data, what)
        except RulesError as error:
            raise ValidationError(str(error)) from None

    return check


def _choice(option: Option[Any], *, strict: bool = False, field: type[Field] = RadioField) -> Any:
    """An option's offered choices as radio buttons (or a select) under its title, the default
    first; `strict` refuses any other value in the option's words (else the rules' own check
    decides)."""
    offered = option.offered
    refusal = f"{option.unknown}: escolha {either(choice.short for choice in offered)}."
    return field(
        option.title,
        choices=[SelectChoice(choice.spelled, choice.form_label) for choice in offered],
        default=offered[0].spelled,
        validate_choice=False,
        validators=[AnyOf([choice.spelled for choice in offered], refusal)] if strict else [],
    )


class _Form(FlaskForm):  # type: ignore[misc]
    """A form whose CSRF token the app-wide protection checks (not once more per form)."""

    class Meta:
        csrf = False

    @property
    def error(self) -> str | None:
        """The first refusal, in the fields' order, for the page's one message."""
        for field in self:
            if field.errors:
                return str(field.errors[0])
        return str(self.form_errors[0]) if self.form_errors else None


class NewTableForm(_Form):
    """A new table: everything optional, 2x2 'Nós' x 'Eles' when nothing is chosen."""

    DEALS = "primeiro"  # which deal the form's dealer (`pe`) is: the table's first
    # Each rule set's own series, as the form spells it, and whether it seats 3x3 (for the
    # form's script: choosing a rule set picks them).
    SERIES = {code: BEST_OF.choice_or_default(r.best_of).spelled for code, r in VARIANTS.items()}
    TRIOS = {code: "1" if 6 in r.players else "0" for code, r in VARIANTS.items()}

    variante = _choice(VARIANTE, strict=True)
    jogadores = _choice(PLAYERS)
    time_a = _name("Nome do time", MAX_TEAM)
    time_b = _name("Nome do time", MAX_TEAM)
    jogador_0 = _name("Nome de jogador", MAX_PLAYER)
    jogador_1 = _name("Nome de jogador", MAX_PLAYER)
    jogador_2 = _name("Nome de jogador", MAX_PLAYER)
    jogador_3 = _name("Nome de jogador", MAX_PLAYER)
    jogador_4 = _name("Nome de jogador", MAX_PLAYER)
    jogador_5 = _name("Nome de jogador", MAX_PLAYER)
    pe = StringField(default="0", validators=[_whole_number("quem dá as cartas")])
    serie = _choice(BEST_OF, strict=True)
    ferro = _choice(FERRO_MODE, strict=True)
    mao_especial = _choice(SPECIAL_AT)
    # The card rules are checked by RuleSet itself (validate), with its own pt-BR refusals.
    baralho = _choice(DECK, field=SelectField)
    manilhas = _choice(MANILHAS, field=SelectField)
    empate = _choice(TIE_OPENER, field=SelectField)

    @property
    def players(self) -> int:
        """2 for 1x1, 6 for 3x3, else 4."""
        return PLAYERS.spelled(self.jogadores.data)

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields, then the rules: the settings must make a table the rules accept."""
        if not super().validate(extra_validators):
            return False
        try:
            self._settings = self._checked()
        except RulesError as error:
            self.form_errors.append(str(error))
            return False
        return True

    def _checked(self) -> dict[str, Any]:
        """The table's settings, checked by the rules (a pt-BR refusal otherwise)."""
        ruleset = RuleSet(
            deck=self.baralho.data or DECK.default,
            manilhas=self.manilhas.data or MANILHAS.default,
            tie_opener=self.empate.data or TIE_OPENER.default,
        )
        team_a, team_b = self.time_a.data or "Nós", self.time_b.data or "Eles"
        if unicodedata.normalize("NFKC", team_a).casefold() == unicodedata.normalize(
            "NFKC", team_b
        ).casefold():
            raise RulesError("Os dois times precisam de nomes diferentes.")
        players = self.players
        seats = (
            self.jogador_0,
            self.jogador_1,
            self.jogador_2,
            self.jogador_3,
            self.jogador_4,
            self.jogador_5,
        )
        names = [seat.data or "" for seat in seats[:players]]
        first_dealer = number(self.pe.data or "0", "quem dá as cartas")
        if players == 2 and first_dealer in (2, 3, 4, 5):
            raise RulesError(
                f"No 1x1 quem dá as cartas {self.DEALS} é o jogador 1 ou o jogador 2."
            )
        rules = variant(VARIANTE.spelled(self.variante.data))
        config = MatchConfig(
            players=players,
            best_of=BEST_OF.spelled(self.serie.data) if self.serie.raw_data else rules.best_of,
            first_dealer=first_dealer,
            special_at=self._special_at(rules),
            variant=rules,
        )
        ruleset = rules.ruleset(ruleset)
        return {
            "variante": rules.code,
            "players": config.players,
            "best_of": config.best_of,
            "first_dealer": config.first_dealer,
            "special_at": config.special_at,
            "ferro_mode": rules.check_ferro(self.ferro.data or FERRO_MODE.default),
            "deck": ruleset.deck,
            "manilhas": ruleset.manilhas,
            "tie_opener": ruleset.tie_opener,
            "team_a": team_a,
            "team_b": team_b,
            "player_names": names if any(names) else [],
        }

    def _special_at(self, rules: Variant) -> int:
        """The special hand chosen; a rule set with one special hand has it."""
        if len(rules.special_at) == 1:
            return rules.special_at[0]
        return SPECIAL_AT.spelled(self.mao_especial.data)

    def settings(self) -> dict[str, Any]:
        """The checked settings of a validated form."""
        return self._settings


NAME_FIELDS = ("time_a", "time_b", *(f"jogador_{seat}" for seat in range(6)))


class EditTableForm(NewTableForm):
    """An open table's settings, changed: the new-table form's fields, its dealer (`pe`) the
    one of the next hand, and, when a name changed on a table that has played, whether it was
    a typo fixed or another person sitting down (`nomes`)."""

    DEALS = "agora"

    nomes = RadioField(
        "Mudou um nome? Diga o que foi",
        choices=[
            SelectChoice(NAME_FIXED, "Corrigir o nome (erro de digitação)"),
            SelectChoice(NAME_SWAPPED, "Entrou outra pessoa no lugar"),
        ],
        default=None,
        validate_choice=False,
    )

    @classmethod
    def of(cls, mesa: Mesa, state: MatchState) -> EditTableForm:
        """The form filled with a table's settings as they are, the next hand's dealer."""
        data = {
            "variante": _spelled(VARIANTE, mesa.variante),
            "jogadores": _spelled(PLAYERS, mesa.players),
            **cls.names_of(mesa),
            "pe": str(state.pe),
            "serie": _spelled(BEST_OF, mesa.best_of),
            "ferro": _spelled(FERRO_MODE, mesa.ferro_mode),
            "mao_especial": _spelled(SPECIAL_AT, mesa.special_at),
            "baralho": _spelled(DECK, mesa.deck),
            "manilhas": _spelled(MANILHAS, mesa.manilhas),
            "empate": _spelled(TIE_OPENER, mesa.tie_opener),
        }
        return cls(formdata=None, data=data)

    @staticmethod
    def names_of(mesa: Mesa) -> dict[str, str]:
        """A table's names as the form's name fields hold them ('' for a seat with none)."""
        names = list(mesa.player_names or [])[:6]
        seats = {f"jogador_{seat}": names[seat] if seat < len(names) else "" for seat in range(6)}
        return {"time_a": mesa.team_a, "time_b": mesa.team_b, **seats}

    def renames(self, mesa: Mesa) -> bool:
        """True when a name field holds another name than the table's."""
        now = self.names_of(mesa)
        return any((self[name].data or "") != now[name] for name in NAME_FIELDS)

    def edit(self) -> tuple[dict[str, Any], int]:
        """The checked settings of a validated form but the first dealer, and the seat that
        deals the next hand."""
        settings = dict(self.settings())
        return settings, int(settings.pop("first_dealer"))

    @property
    def names_change(self) -> str | None:
        """How the changed names count, as posted (None when not said)."""
        return self.nomes.data or None


def _spelled(option: Option[Any], value: object) -> str:
    """How the form spells a table's value of an option."""
    return option.choice_or_default(value).spelled


@dataclass(frozen=True)
class Correction:
    """A side's points corrected by hand, with its reason: set to `points`, or (`adding`)
    `points` added to them."""

    side: int
    points: int
    reason: str
    adding: bool = False


CORRECTION_MODES = {"definir": False, "somar": True}  # the form's modo: whether it adds


class CorrectionForm(_Form):
    """'Corrigir placar': which side, its points (new ones, or how many to add), and why."""

    lado = StringField(validators=[_whole_number("o lado")])
    pontos = StringField(validators=[_whole_number("os pontos")])
    motivo = StringField(
        filters=[_squeezed],
        validators=[
            _kept("Motivo", MAX_REASON),
            DataRequired("Diga o motivo da correção."),
        ],
    )

    @classmethod
    def read(cls, form: Mapping[str, str]) -> Correction:
        """The correction posted, or a pt-BR refusal."""
        fix = cls(formdata=form)
        if not fix.validate():
            raise RulesError(fix.error or "Correção inválida.")
        side = number(fix.lado.data, "o lado")
        if side not in (0, 1):
            raise RulesError("Lado inexistente: a mesa tem dois lados.")
        mode = form.get("modo") or "definir"
        if mode not in CORRECTION_MODES:
            raise RulesError("Escolha somar pontos ou definir o placar.")
        points = number(fix.pontos.data, "os pontos")
        if CORRECTION_MODES[mode] and points == 0:
            raise RulesError("Diga quantos pontos somar (com menos na frente, para tirar).")
        return Correction(side, points, fix.motivo.data, CORRECTION_MODES[mode])
