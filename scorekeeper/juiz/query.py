"""Reading the juiz query strings into plain values (with pt-BR refusals) and writing them back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ..rules import Card, RulesError, RuleSet, judge_hand
from ..rules.cards import check_vira

T = TypeVar("T")

MAX_VALUE = 80
MAX_PLAYS = 4
SIDES = ("nos", "eles")
RESULTS = ("nos", "eles", "empate")
PLAYERS = {"2": 2, "4": 4, "1x1": 2, "2x2": 4}
DECKS = {"sujo": "sujo", "limpo": "limpo"}
MANILHAS = {"variavel": "variavel", "variável": "variavel", "fixa": "fixa"}
TIE_OPENERS = {"mao": "mao", "mão": "mao", "primeira_empatada": "primeira_empatada"}
ROUNDS = {"1": 1, "2": 2, "3": 3}
CARRY_KEYS = ("vira", "baralho", "manilhas", "empate")


@dataclass(frozen=True)
class Defaults:
    """Settings used when the query string leaves them out (the table's, when opened from one)."""

    players: int = 4
    deck: str = "sujo"
    manilhas: str = "variavel"
    tie_opener: str = "mao"
    opener: int = 0
    mao_seat: int = 0


GLOBAL = Defaults()


@dataclass(frozen=True)
class RoundQuery:
    """What the round page was asked: settings, the vira and the plays as typed."""

    players: int = 4
    deck: str = "sujo"
    manilhas: str = "variavel"
    tie_opener: str = "mao"
    opener: int = 0
    round_number: int = 1
    mao: int = 0
    vira: str | None = None
    plays: tuple[str, ...] = ()
    previous: tuple[str, ...] = ()
    cover: bool = False
    mao_seat: int = 0

    @property
    def ruleset(self) -> RuleSet:
        """The card rules chosen."""
        return RuleSet(deck=self.deck, manilhas=self.manilhas, tie_opener=self.tie_opener)

    @property
    def fixed(self) -> bool:
        """True for manilha fixa (no vira)."""
        return self.manilhas == "fixa"

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat of each play in order. The hand's mão plays at position `mao`; it is the
        table's mão (seat `mao_seat`), or the player after it when the mão's side is the other."""
        side = (self.opener + self.mao) % 2
        mao = self.mao_seat % self.players
        if mao % 2 != side:
            mao = (mao + 1) % self.players
        return tuple((mao - self.mao + i) % self.players for i in range(self.players))

    def but(self, **changes: object) -> RoundQuery:
        """A copy with some fields changed (and the ones that no longer fit dropped)."""
        query = replace(self, **changes)  # type: ignore[arg-type]
        if query.round_number == 1 or query.mao >= query.players:
            query = replace(query, mao=0)
        if query.round_number == 1:
            query = replace(query, cover=False)
        if query.fixed:
            query = replace(query, vira=None)
        return query

    def params(self) -> dict[str, Any]:
        """Every setting spelled out, for the page's own links (they never name a table)."""
        params = {
            "vira": self.vira or None,
            "rodada": str(self.round_number),
            "jogadores": str(self.players),
            "baralho": self.deck,
            "manilhas": self.manilhas,
            "empate": self.tie_opener,
            "abre": SIDES[self.opener],
            "mao": str(self.mao + 1) if self.round_number > 1 else None,
            "jogadas": ",".join(self.plays) or None,
            "anteriores": ",".join(self.previous) or None,
            "cobrir": "1" if self.cover else None,
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
        if self.tie_opener == GLOBAL.tie_opener:
            params.pop("empate")
        if self.opener == GLOBAL.opener:
            params.pop("abre")
        if self.mao == 0:
            params.pop("mao", None)
        return params


@dataclass(frozen=True)
class HandQuery:
    """What the hand page was asked: the round results in order."""

    players: int = 4
    results: tuple[str, ...] = ()
    carry: tuple[tuple[str, str], ...] = ()

    def params(self, results: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The page's own links: this hand (or other results) and the kept settings."""
        return {**self.share_params(results), **dict(self.carry)}

    def share_params(self, results: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The shareable query string: the results and the number of players only."""
        chosen = self.results if results is None else results
        params = {"rodadas": ",".join(chosen) or None, "jogadores": str(self.players)}
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
        return options[value.casefold()]
    except KeyError:
        raise RulesError(refusal) from None


def _list(args: Mapping[str, str], name: str, limit: int, refusal: str) -> tuple[str, ...]:
    """A comma-separated parameter as stripped items; RulesError past `limit` items."""
    value = _text(args, name)
    if value is None:
        return ()
    items = value.split(",", limit)
    if len(items) > limit:
        raise RulesError(refusal)
    return tuple(item.strip() for item in items)


def _settings(args: Mapping[str, str], defaults: Defaults) -> dict[str, object]:
    """The settings shared by both pages, checked."""
    players = _choice(
        args,
        "jogadores",
        PLAYERS,
        defaults.players,
        "Número de jogadores inválido: use jogadores=2 (1x1) ou jogadores=4 (2x2).",
    )
    deck = _choice(
        args,
        "baralho",
        DECKS,
        defaults.deck,
        "Baralho desconhecido: use baralho=sujo (40 cartas) ou baralho=limpo (24 cartas).",
    )
    manilhas = _choice(
        args,
        "manilhas",
        MANILHAS,
        defaults.manilhas,
        "Tipo de manilha desconhecido: use manilhas=variavel ou manilhas=fixa.",
    )
    tie_opener = _choice(
        args,
        "empate",
        TIE_OPENERS,
        defaults.tie_opener,
        "Regra de empate desconhecida: use empate=mao ou empate=primeira_empatada.",
    )
    return {"players": players, "deck": deck, "manilhas": manilhas, "tie_opener": tie_opener}


def parse_round(
    args: Mapping[str, str], defaults: Defaults = GLOBAL
) -> tuple[RoundQuery, str | None]:
    """The round query (with safe fallbacks) and the first refusal, if any."""
    query = RoundQuery(
        players=defaults.players,
        deck=defaults.deck,
        manilhas=defaults.manilhas,
        tie_opener=defaults.tie_opener,
        opener=defaults.opener,
        mao_seat=defaults.mao_seat,
    )
    try:
        query = replace(query, **_settings(args, defaults))  # type: ignore[arg-type]
        opener = _choice(
            args,
            "abre",
            {"nos": 0, "nós": 0, "eles": 1},
            defaults.opener,
            "Quem abre a rodada: use abre=nos ou abre=eles.",
        )
        round_number = _choice(
            args, "rodada", ROUNDS, 1, "A rodada deve ser 1, 2 ou 3: uma mão tem três rodadas."
        )
        query = replace(query, opener=opener, round_number=round_number)
        query = replace(query, cover=args.get("cobrir") == "1" and round_number > 1)
        query = replace(
            query,
            plays=_list(
                args,
                "jogadas",
                MAX_PLAYS,
                f"Jogadas demais: uma rodada tem no máximo {MAX_PLAYS} jogadas (2x2).",
            ),
        )
        query = replace(query, previous=_previous(args, round_number))
        query = replace(query, mao=_mao(args, query))
        query = replace(query, vira=_vira(args, query.fixed))
        RuleSet(deck=query.deck, manilhas=query.manilhas, tie_opener=query.tie_opener)
    except RulesError as error:
        return _safe(query), str(error)
    return query, None


def _safe(query: RoundQuery) -> RoundQuery:
    """The query with any setting the rules refuse put back to its global default."""
    try:
        query.ruleset  # noqa: B018  (validates)
    except RulesError:
        query = replace(query, deck="sujo", manilhas="variavel", tie_opener="mao")
    return query


def _previous(args: Mapping[str, str], round_number: int) -> tuple[str, ...]:
    """Earlier round results carried from the hand page; ignored when they do not lead here."""
    try:
        items = _list(args, "anteriores", 2, "")
    except RulesError:
        return ()
    if len(items) != round_number - 1 or any(item not in RESULTS for item in items):
        return ()
    return items if still_open(items) else ()


def still_open(results: tuple[str, ...]) -> bool:
    """True when a hand with these round results goes on to another round."""
    return not judge_hand([None if r == "empate" else r for r in results]).decided


def _mao(args: Mapping[str, str], query: RoundQuery) -> int:
    """The 0-based position of the hand's mão in this round's play order."""
    value = _text(args, "mao")
    if value is None:
        return 0
    if query.round_number == 1:
        if value == "1":
            return 0
        raise RulesError(
            "Na primeira rodada quem joga primeiro é o mão (jogada 1): não informe outro mão."
        )
    positions = {str(i + 1): i for i in range(query.players)}
    if value not in positions:
        raise RulesError(
            f"O mão deve ser uma das posições de jogada de 1 a {query.players} (mao=1 a "
            f"mao={query.players})."
        )
    return positions[value]


def _vira(args: Mapping[str, str], fixed: bool) -> str | None:
    """The vira's canonical text; RulesError when it does not parse or comes with manilha fixa."""
    value = _text(args, "vira")
    if value is None:
        return None
    if fixed:
        raise RulesError(
            "Com manilha fixa não há vira: as manilhas são sempre as mesmas. "
            "Tire a vira do link ou escolha manilha variável."
        )
    return str(Card.parse(value))


def read_carry(args: Mapping[str, str], defaults: Defaults = GLOBAL) -> dict[str, Any]:
    """The vira and rules a page was given to keep, when valid together (else none of them)."""
    given = {key: args[key] for key in CARRY_KEYS if key in args}
    if not given:
        return {}
    query, refusal = parse_round(given, defaults)
    if refusal is not None:
        return {}
    try:
        if query.vira is not None:
            check_vira(query.ruleset, query.vira)
    except RulesError:
        return {}
    return {key: value for key, value in query.carry().items() if key in given}


def parse_hand(
    args: Mapping[str, str], defaults: Defaults = GLOBAL
) -> tuple[HandQuery, str | None]:
    """The hand query (with safe fallbacks) and the first refusal, if any."""
    query = HandQuery(players=defaults.players, carry=tuple(read_carry(args, defaults).items()))
    try:
        players = _choice(
            args,
            "jogadores",
            PLAYERS,
            defaults.players,
            "Número de jogadores inválido: use jogadores=2 (1x1) ou jogadores=4 (2x2).",
        )
        query = replace(query, players=players)
        results = _list(
            args,
            "rodadas",
            3,
            "Uma mão tem no máximo três rodadas: informe até três resultados.",
        )
        for i, item in enumerate(results):
            if item.casefold() not in RESULTS:
                query = replace(query, results=results[:i])
                raise RulesError(
                    f"Resultado desconhecido na {i + 1}ª rodada: {item!r}. Use nos, eles ou empate."
                )
        query = replace(query, results=tuple(item.casefold() for item in results))
    except RulesError as error:
        return query, str(error)
    return query, None
