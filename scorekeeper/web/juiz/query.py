"""Reading the juiz query strings into plain values (with pt-BR refusals) and writing them back.

The options, their values and the parameters that spell them (jogadores, baralho, manilhas,
empate, resposta) are the registry's; sides, round results and rounds are the rules' own. A link
may spell a choice by its value or its short words, accents and capitals forgiven.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ...domain.mesa import Board
from ...models import Mesa
from ...rules import (
    ANSWERER,
    DECK,
    DEFAULT_RULE_SET,
    MANILHAS,
    PLAY_COUNTS,
    PLAYERS,
    ROUND_LABELS,
    ROUNDS,
    SIDE_LABELS,
    TIE_OPENER,
    Answerer,
    Card,
    Code,
    Deck,
    ManilhaMode,
    Option,
    Reason,
    RuleBroken,
    RulesError,
    RuleSet,
    Special,
    TieOpener,
    Variant,
    check_mao,
    check_vira,
    either,
    mao_opens,
    may_cover,
    undecided,
    variant,
)
from ...rules.events import split_events
from .naming import NAME_KEYS, Naming, read_naming

T = TypeVar("T")

MAX_VALUE = 80
CARD_OPTIONS: tuple[Option[Any], ...] = (DECK, MANILHAS, TIE_OPENER)  # every juiz page keeps
VARIANT_PARAM = "variante"
CARRY_KEYS = ("vira", VARIANT_PARAM, *(option.param for option in CARD_OPTIONS), *NAME_KEYS)
# The parameters of the round and the hand pages (a refused query's link repeats them as given).
ROUND_KEYS = (
    "vira",
    VARIANT_PARAM,
    "rodada",
    PLAYERS.param,
    *(option.param for option in CARD_OPTIONS),
    "abre",
    "mao",
    "assento_mao",
    "jogadas",
    *NAME_KEYS,
)
HAND_KEYS = ("rodadas", VARIANT_PARAM, PLAYERS.param, *NAME_KEYS)
NO_VIRA_HINT = "Tire a vira do link ou escolha manilha variável."
FIXED_VIRA = (
    "No {} as manilhas são fixas (4 de paus, 7 de copas, ás de espadas e 7 de ouros): não há "
    "vira. Tire a vira do link."
)
def players_option(rules: Variant) -> Option[Any]:
    """The players option of a rule set: the registry's seat counts that the rule set seats
    (1x1 and 2x2, and 3x3 where it seats trios)."""
    return replace(PLAYERS, choices=tuple(c for c in PLAYERS.choices if c.value in rules.players))


def variant_param(rules: Variant) -> dict[str, Any]:
    """The rule set as links spell it: nothing for Paulista (the default), else 'variante'."""
    return {} if rules is DEFAULT_RULE_SET else {VARIANT_PARAM: rules.code}


def read_variant(args: Mapping[str, str], default: Variant = DEFAULT_RULE_SET) -> Variant:
    """The rule set a link asks for ('variante=<code>'), the default when absent."""
    value = _text(args, VARIANT_PARAM)
    return default if value is None else variant(_plain(value))


def _plain(text: str) -> str:
    """A value as the options spell it: no accents, no capitals ('Variável' -> 'variavel')."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _either(name: str, values: Iterable[str]) -> str:
    """'baralho=sujo ou baralho=limpo'."""
    return either(f"{name}={value}" for value in values)


def _cards(query: RoundQuery | WholeQuery | Mesa) -> dict[str, Any]:
    """The card rules of a query (or a table), by their code names, to start another query."""
    return {option.name: getattr(query, option.name) for option in CARD_OPTIONS}


@dataclass(frozen=True)
class RoundQuery:
    """What the round page was asked: settings, the vira and the plays as typed. Without vira
    and plays, the settings a page starts from (the table's when opened from one)."""

    players: int = PLAYERS.default
    deck: Deck = DECK.default
    manilhas: ManilhaMode = MANILHAS.default
    tie_opener: TieOpener = TIE_OPENER.default
    opener: int = 0
    round_number: int = 1
    mao: int = 0
    vira: str | None = None
    plays: tuple[str, ...] = ()
    previous: tuple[str, ...] = ()
    cover: bool = False
    mao_seat: int = 0
    naming: Naming | None = None
    variant: Variant = DEFAULT_RULE_SET

    @property
    def ruleset(self) -> RuleSet:
        """The card rules chosen (those the rule set imposes over them)."""
        base = RuleSet(deck=self.deck, manilhas=self.manilhas, tie_opener=self.tie_opener)
        return self.variant.ruleset(base)

    @property
    def fixed(self) -> bool:
        """True for manilha fixa (no vira)."""
        return self.ruleset.fixed

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat of each play in order. The hand's mão plays at position `mao`; it is seat
        `mao_seat` (the table's mão, or the one chosen), or the player after it when the mão's
        side is the other."""
        side = (self.opener + self.mao) % 2
        mao = self.mao_seat % self.players
        if mao % 2 != side:
            mao = (mao + 1) % self.players
        return tuple((mao - self.mao + i) % self.players for i in range(self.players))

    def but(self, **changes: object) -> RoundQuery:
        """A copy with some fields changed (and the ones that no longer fit dropped)."""
        query = replace(self, **changes)  # type: ignore[arg-type]
        query = replace(query, mao_seat=query.mao_seat % query.players)
        try:
            check_mao(query.mao, players=query.players, round_number=query.round_number)
        except RuleBroken:
            query = replace(query, mao=0)
        if not may_cover(query.round_number):
            query = replace(query, cover=False)
        if query.fixed:
            query = replace(query, vira=None)
        return query

    def params(self) -> dict[str, Any]:
        """Every setting spelled out, for the page's own links (they never name a table)."""
        params = {
            "vira": self.vira or None,
            **variant_param(self.variant),
            "rodada": str(self.round_number),
            PLAYERS.param: str(self.players),
            **{option.param: getattr(self, option.name) for option in CARD_OPTIONS},
            "abre": SIDE_LABELS[self.opener],
            "mao": None if mao_opens(self.round_number) else str(self.mao + 1),
            "assento_mao": str(self.mao_seat + 1),
            "jogadas": ",".join(self.plays) or None,
            "anteriores": ",".join(self.previous) or None,
            "cobrir": "1" if self.cover else None,
            **(self.naming.params() if self.naming else {}),
        }
        return {key: value for key, value in params.items() if value is not None}

    def carry(self) -> dict[str, Any]:
        """What every juiz link keeps until the user changes it: the vira and the rules."""
        params = self.params()
        return {key: params[key] for key in CARRY_KEYS if key in params}

    def share_params(self) -> dict[str, Any]:
        """The shareable form: no table token, settings at their global defaults left out."""
        params = self.params()
        params.pop("anteriores", None)
        if self.tie_opener == TIE_OPENER.default:
            params.pop(TIE_OPENER.param)
        if self.opener == GLOBAL.opener:
            params.pop("abre")
        if self.mao == 0:
            params.pop("mao", None)
        if self.mao_seat == GLOBAL.mao_seat:
            params.pop("assento_mao")
        return params


GLOBAL = RoundQuery()


def round_start(board: Board | None) -> RoundQuery:
    """The settings a round (or hand) query starts from: the table's, with its current hand's
    mão, when the juiz was opened from one; else the global defaults."""
    if board is None:
        return GLOBAL
    mesa, state = board.mesa, board.state
    return RoundQuery(
        players=mesa.players,
        opener=state.mao % 2,
        mao_seat=state.mao,
        variant=mesa.match_config.variant,
        **_cards(mesa),
    )


@dataclass(frozen=True)
class HandQuery:
    """What the hand page was asked: the round results in order."""

    players: int = 4
    results: tuple[str, ...] = ()
    carry: tuple[tuple[str, str], ...] = ()
    naming: Naming | None = None
    variant: Variant = DEFAULT_RULE_SET

    def params(self, results: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The page's own links: this hand (or other results) and the kept settings."""
        kept = {key: value for key, value in self.carry if key != VARIANT_PARAM}
        return {**self.share_params(results), **kept}

    def share_params(self, results: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The shareable query string: the results and the number of players only."""
        chosen = self.results if results is None else results
        params = {
            "rodadas": ",".join(chosen) or None,
            **variant_param(self.variant),
            "jogadores": str(self.players),
        }
        return {key: value for key, value in params.items() if value is not None}


def _text(args: Mapping[str, str], name: str) -> str | None:
    """A parameter stripped, None when absent or empty; RulesError when absurdly long."""
    value = args.get(name)
    if value is None:
        return None
    if len(value) > MAX_VALUE:
        raise RulesError(f"O valor de '{name}' é longo demais.")
    return value.strip() or None


def _choice(
    args: Mapping[str, str], name: str, options: Mapping[str, T], default: T, refusal: str
) -> T:
    """One of a parameter's known values, the default when absent, else RulesError."""
    value = _text(args, name)
    if value is None:
        return default
    try:
        return options[_plain(value)]
    except KeyError:
        raise RulesError(refusal) from None


def _option(args: Mapping[str, str], option: Option[Any], default: T) -> T:
    """The value of one of the option's choices, spelled by its value or its short words; the
    default when absent, else RulesError in the option's words."""
    offered = option.offered
    spellings: dict[str, T] = {_plain(choice.short): choice.value for choice in offered}
    spellings.update({_plain(choice.spelled): choice.value for choice in offered})
    spelled = _either(option.param, (choice.spelled for choice in offered))
    return _choice(args, option.param, spellings, default, f"{option.unknown}: use {spelled}.")


def _list(args: Mapping[str, str], name: str) -> tuple[str, ...]:
    """A comma-separated parameter as stripped items (a value is at most MAX_VALUE long)."""
    value = _text(args, name)
    if value is None:
        return ()
    return tuple(item.strip() for item in value.split(","))


def _settings(args: Mapping[str, str], start: RoundQuery) -> RoundQuery:
    """The settings shared by every page (the rule set, the players and the card rules),
    checked; the cards a rule set imposes replace the ones asked for."""
    rules = read_variant(args, start.variant)
    cards = {o.name: _option(args, o, getattr(start, o.name)) for o in CARD_OPTIONS}
    cards["deck"] = rules.deck or cards["deck"]
    cards["manilhas"] = rules.manilhas or cards["manilhas"]
    players = _players(args, rules, start.players)
    return replace(start, variant=rules, players=players, **cards)


def _players(args: Mapping[str, str], rules: Variant, default: int) -> int:
    """The number of players, among the rule set's seat counts; the default when absent (or
    the first count when the default does not fit the rule set)."""
    fallback = default if default in rules.players else PLAYERS.default
    players: int = _option(args, players_option(rules), fallback)
    return players


def parse_round(
    args: Mapping[str, str], start: RoundQuery = GLOBAL
) -> tuple[RoundQuery, str | None]:
    """The round query (with safe fallbacks) and the first refusal, if any; `start` holds the
    settings the query string leaves out."""
    query = replace(start, naming=read_naming(args))
    try:
        query = _settings(args, query)
        sides: dict[str, int] = {side: i for i, side in enumerate(SIDE_LABELS)}
        opener = _choice(
            args, "abre", sides, start.opener, f"Quem abre a rodada: use {_either('abre', sides)}."
        )
        query = replace(query, opener=opener, round_number=_round(args))
        query = replace(query, cover=args.get("cobrir") == "1" and may_cover(query.round_number))
        query = replace(query, plays=_plays(args, query.variant))
        query = replace(query, previous=_previous(args, query.round_number))
        query = replace(query, mao=_mao(args, query))
        query = replace(query, mao_seat=_mao_seat(args, query))
        query = replace(query, vira=_vira(args, query.ruleset, query.variant))
    except RulesError as error:
        return query, str(error)
    return query, None


def _round(args: Mapping[str, str]) -> int:
    """The round number, 1 when absent."""
    value = _text(args, "rodada")
    if value is None:
        return 1
    rounds = {str(number): number for number in ROUNDS}
    if value not in rounds:
        raise RuleBroken(Reason(Code.NO_SUCH_ROUND, text=value))
    return rounds[value]


def _plays(args: Mapping[str, str], rules: Variant) -> tuple[str, ...]:
    """The plays as typed, refused past the most a round has."""
    plays = _list(args, "jogadas")
    if len(plays) > max(*PLAY_COUNTS, *rules.players):
        raise RuleBroken(Reason(Code.PLAYS_PER_ROUND, count=len(plays)))
    return plays


def _previous(args: Mapping[str, str], round_number: int) -> tuple[str, ...]:
    """Earlier round results carried from the hand page; ignored when they do not lead here."""
    items = _list(args, "anteriores")
    if len(items) != round_number - 1 or any(item not in ROUND_LABELS for item in items):
        return ()
    return items if undecided(items) else ()


def _mao(args: Mapping[str, str], query: RoundQuery) -> int:
    """The 0-based position of the hand's mão in this round's play order."""
    value = _text(args, "mao")
    if value is None:
        return 0
    positions = {str(i + 1): i for i in range(query.players)}
    if value not in positions:
        raise RuleBroken(Reason(Code.NO_SUCH_MAO, players=query.players))
    check_mao(positions[value], players=query.players, round_number=query.round_number)
    return positions[value]


def _mao_seat(args: Mapping[str, str], query: RoundQuery) -> int:
    """The 0-based seat of the hand's mão around the table (the link's 1..N), the start's when
    absent."""
    value = _text(args, "assento_mao")
    if value is None:
        return query.mao_seat % query.players
    seats = {str(i + 1): i for i in range(query.players)}
    if value not in seats:
        raise RulesError(
            f"Quem é o mão: use assento_mao=1 a assento_mao={query.players} (os assentos em "
            "volta da mesa)."
        )
    return seats[value]


def _vira(
    args: Mapping[str, str], ruleset: RuleSet, rules: Variant = DEFAULT_RULE_SET
) -> str | None:
    """The vira's canonical text; RulesError when it does not parse or the rules refuse any vira
    (manilha fixa, and a rule set whose manilhas are fixed)."""
    value = _text(args, "vira")
    if value is None:
        return None
    if rules.manilhas == "fixa":
        raise RulesError(FIXED_VIRA.format(rules.name))
    if ruleset.fixed:
        try:
            check_vira(ruleset, value)
        except RuleBroken as refused:
            raise RulesError(f"{refused} {NO_VIRA_HINT}") from None
    return str(Card.parse(value))


def read_carry(args: Mapping[str, str], start: RoundQuery = GLOBAL) -> dict[str, Any]:
    """The vira and rules a page was given to keep, when valid together (else none of them)."""
    given = {key: args[key] for key in CARRY_KEYS if key in args}
    if not given:
        return {}
    query, refusal = parse_round(given, start)
    if refusal is not None:
        return {}
    try:
        if query.vira is not None:
            check_vira(query.ruleset, query.vira)
    except RulesError:
        return {}
    return {key: value for key, value in query.carry().items() if key in given}


def parse_hand(args: Mapping[str, str], start: RoundQuery = GLOBAL) -> tuple[HandQuery, str | None]:
    """The hand query (with safe fallbacks) and the first refusal, if any."""
    query = HandQuery(
        players=start.players,
        carry=tuple(read_carry(args, start).items()),
        naming=read_naming(args),
        variant=start.variant,
    )
    try:
        rules = read_variant(args, start.variant)
        query = replace(query, variant=rules, players=_players(args, rules, start.players))
        results = _list(args, "rodadas")
        if len(results) > len(ROUNDS):
            raise RuleBroken(Reason(Code.HAND_ROUNDS, count=len(results)))
        for i, item in enumerate(results):
            if item.casefold() not in ROUND_LABELS:
                query = replace(query, results=results[:i])
                raise RulesError(
                    f"Resultado desconhecido na {i + 1}ª rodada: {item!r}. "
                    f"Use {', '.join(ROUND_LABELS[:-1])} ou {ROUND_LABELS[-1]}."
                )
        query = replace(query, results=tuple(item.casefold() for item in results))
    except RulesError as error:
        return query, str(error)
    return query, None


MAX_EVENTS_TEXT = 600
MAX_EVENTS = 40
WHOLE_OPTIONS: tuple[Option[Any], ...] = (*CARD_OPTIONS, ANSWERER)  # the whole hand's rules
EVENT_KEYS = (
    "vira",
    VARIANT_PARAM,
    PLAYERS.param,
    "mao",
    "eventos",
    *(option.param for option in WHOLE_OPTIONS),
    "especial",
    *NAME_KEYS,
)
SPECIALS: tuple[Special, ...] = tuple(Special)


def special_spelled(special: Special, rules: Variant) -> str:
    """How a link spells the kind of hand: the special hand by its word ('onze-nos', 'dez-nos')."""
    if special.onze_side is not None:
        return special.value.replace("onze", rules.special_word)
    return special.value


def _special(args: Mapping[str, str], rules: Variant, default: Special) -> Special:
    """The kind of hand a link asks for, spelled the rule set's way; the default when absent."""
    spellings = {special_spelled(s, rules): s for s in SPECIALS}
    word = rules.special_word
    return _choice(
        args,
        "especial",
        spellings,
        default,
        f"Tipo de mão desconhecido: use especial={word}-nos, especial={word}-eles ou "
        "especial=ferro (ou nada, para uma mão normal).",
    )


@dataclass(frozen=True)
class WholeQuery:
    """What the whole-hand page was asked: the rules, the players, the mão's seat (1..N), the
    kind of hand, the vira and the events as typed ('1:truco', '2:4p', ...)."""

    players: int = PLAYERS.default
    deck: Deck = DECK.default
    manilhas: ManilhaMode = MANILHAS.default
    tie_opener: TieOpener = TIE_OPENER.default
    answerer: Answerer = ANSWERER.default
    special: Special = Special.NORMAL
    mao: int = 1
    vira: str | None = None
    events: tuple[str, ...] = ()
    cover: bool = False
    naming: Naming | None = None
    variant: Variant = DEFAULT_RULE_SET

    @property
    def ruleset(self) -> RuleSet:
        """The rules chosen (the cards the rule set imposes over them)."""
        return self.variant.ruleset(
            RuleSet(
                deck=self.deck,
                manilhas=self.manilhas,
                tie_opener=self.tie_opener,
                answerer=self.answerer,
            )
        )

    @property
    def fixed(self) -> bool:
        """True for manilha fixa (no vira)."""
        return self.ruleset.fixed

    def but(self, **changes: object) -> WholeQuery:
        """A copy with some fields changed (no vira with manilha fixa)."""
        query = replace(self, **changes)  # type: ignore[arg-type]
        return replace(query, vira=None) if query.fixed else query

    def share_params(self) -> dict[str, Any]:
        """The shareable query string: the hand, and the options away from their defaults."""
        params: dict[str, Any] = {
            "vira": self.vira,
            **variant_param(self.variant),
            PLAYERS.param: str(self.players),
            "mao": str(self.mao),
            "eventos": ",".join(self.events),
            **self._rules(),
            "especial": special_spelled(self.special, self.variant),
        }
        changed = {key: value for key, value in params.items() if value is not None}
        for option in WHOLE_OPTIONS:
            if getattr(self, option.name) == option.default:
                changed.pop(option.param)
        if self.special is Special.NORMAL:
            changed.pop("especial")
        return {**changed, **(self.naming.params() if self.naming else {})}

    def _rules(self) -> dict[str, Any]:
        """The hand's rules, by the parameters that spell them."""
        return {option.param: getattr(self, option.name) for option in WHOLE_OPTIONS}

    def params(self) -> dict[str, Any]:
        """Every setting spelled out, for the page's own links (they never name a table)."""
        return {
            **self.share_params(),
            **self._rules(),
            "especial": special_spelled(self.special, self.variant),
            **({"cobrir": "1"} if self.cover else {}),
        }

    def carry(self) -> dict[str, Any]:
        """What the other juiz pages keep: the vira and the card rules."""
        return RoundQuery(
            players=self.players,
            vira=self.vira,
            naming=self.naming,
            variant=self.variant,
            **_cards(self),
        ).carry()


WHOLE = WholeQuery()


def whole_start(board: Board | None) -> WholeQuery:
    """The settings a whole-hand query starts from: the table's (and the kind and mão of its
    current hand) when the juiz was opened from one; else the defaults."""
    if board is None:
        return WHOLE
    mesa, state = board.mesa, board.state
    return WholeQuery(
        players=mesa.players,
        special=state.special,
        mao=state.mao + 1,
        variant=mesa.match_config.variant,
        **_cards(mesa),
    )


def _events(args: Mapping[str, str]) -> tuple[str, ...]:
    """The events as typed (the engine reads and judges them), refused when absurdly many."""
    value = args.get("eventos") or ""
    if len(value) > MAX_EVENTS_TEXT:
        raise RulesError("A lista de eventos é longa demais: uma mão não tem tantas jogadas.")
    events = split_events(value)
    if len(events) > MAX_EVENTS:
        raise RulesError(
            f"Eventos demais ({len(events)}): uma mão tem no máximo 12 cartas e alguns pedidos."
        )
    return events


def _seat(args: Mapping[str, str], name: str, default: int, players: int) -> int:
    """A seat number as given (the rules check it is at the table), the default when absent."""
    value = _text(args, name)
    if value is None:
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > 2:
        raise RulesError(
            f"Quem é o mão: use {name}=1 a {name}={players} (os assentos, na ordem de jogo)."
        )
    return int(value)


def parse_whole(
    args: Mapping[str, str], start: WholeQuery = WHOLE
) -> tuple[WholeQuery, str | None]:
    """The whole-hand query (with safe fallbacks) and the first refusal, if any; `start` holds
    the settings the query string leaves out (the table's when opened from one)."""
    query = replace(start, naming=read_naming(args))
    try:
        begun = RoundQuery(players=start.players, variant=start.variant, **_cards(start))
        settings = _settings(args, begun)
        query = replace(
            query, variant=settings.variant, players=settings.players, **_cards(settings)
        )
        query = replace(
            query,
            answerer=_option(args, ANSWERER, start.answerer),
            special=_special(args, query.variant, start.special),
        )
        mao = start.mao if start.mao <= query.players else 1
        query = replace(query, mao=_seat(args, "mao", mao, query.players))
        query = replace(query, events=_events(args), cover=args.get("cobrir") == "1")
        query = replace(query, vira=_vira(args, query.ruleset, query.variant))
    except RulesError as error:
        return query, str(error)
    return query, None
