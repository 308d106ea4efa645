"""The score as a fold over hand outcomes: /regras#pontos, #mao-de-onze and #mao-de-ferro.

A match is a list of outcomes (hands, corrections and the markers that start the next game or
series). Folding them from the start gives the score, which kind of hand comes next, the legal
outcomes, the series tally and who deals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache

from .errors import RulesError
from .options import BEST_OF, SPECIAL_AT, either
from .variants import PAULISTA, RULE_SETS, Variant, variant

# Truco Paulista's target and ladder, for readers that know no other rule set: a table's are
# its `MatchConfig.variant`'s.
TARGET = PAULISTA.target
HAND_VALUES = PAULISTA.ladder
SIDES = (0, 1)
UNKNOWN_TAP = "Toque desconhecido: essa saída não existe."
KNOWN_CODES = either(f"'{code}'" for code in RULE_SETS)  # 'paulista' ou 'mineiro'


class Kind(Enum):
    """What a record in the match log is."""

    NORMAL = "normal"
    ONZE_GANHOU = "onze_ganhou"
    ONZE_PERDEU = "onze_perdeu"
    ONZE_CORREU = "onze_correu"
    FERRO = "ferro"
    ANULADA = "anulada"
    CORRECAO = "correcao"
    PROXIMA_PARTIDA = "proxima_partida"
    NOVA_SERIE = "nova_serie"
    # The table's names or options changed (its record keeps them): no outcome of a hand, so
    # no tap records it and `MatchState.apply` refuses it; `MatchState.reconfigured` folds it.
    MESA_EDITADA = "mesa_editada"

    @property
    def is_hand(self) -> bool:
        """True for records that are a dealt hand (they move the deal on)."""
        return self not in (
            Kind.CORRECAO, Kind.PROXIMA_PARTIDA, Kind.NOVA_SERIE, Kind.MESA_EDITADA
        )


# The stored kinds of a dealt hand: a record's kind string tested without building a Kind.
HAND_KINDS = frozenset(kind.value for kind in Kind if kind.is_hand)


class Phase(Enum):
    """Which kind of hand comes next, or that the game or series is over."""

    NORMAL = "normal"
    MAO_DE_ONZE = "mao_de_onze"
    MAO_DE_FERRO = "mao_de_ferro"
    GAME_OVER = "fim_de_partida"
    SERIES_OVER = "fim_de_serie"


class Special(Enum):
    """The kind of hand being played: what it starts worth and whether anyone may call."""

    NORMAL = "normal"
    ONZE_NOS = "onze-nos"
    ONZE_ELES = "onze-eles"
    FERRO = "ferro"

    @classmethod
    def onze(cls, side: int) -> Special:
        """The mão de onze (or de dez) of `side`."""
        return cls.ONZE_NOS if side == 0 else cls.ONZE_ELES

    @property
    def onze_side(self) -> int | None:
        """The side playing the mão de onze, or None."""
        return {Special.ONZE_NOS: 0, Special.ONZE_ELES: 1}.get(self)

    @property
    def worth(self) -> int:
        """What the hand is worth before any call in Truco Paulista (`worth_in`)."""
        return self.worth_in(PAULISTA)

    def worth_in(self, rules: Variant) -> int:
        """What the hand is worth before any call under `rules`: the special hand's value
        (Paulista 3, Mineiro 4), the mão de ferro's, or the ladder's first step."""
        if self.onze_side is not None:
            return rules.special_worth
        return rules.ferro_worth if self is Special.FERRO else rules.ladder[0]

    @property
    def calls_allowed(self) -> bool:
        """Only a normal hand may be trucada: no call in the mão de onze or de ferro."""
        return self is Special.NORMAL


@dataclass(frozen=True)
class Outcome:
    """One record: `side` is the side that scores (or is corrected), `points` the hand's value.

    NORMAL carries its value (Paulista 1, 3, 6, 9, 12; Mineiro 2, 4, 6, 10, 12); CORRECAO
    carries the side's new points; the other kinds have fixed values: in Paulista the kind says
    them (mão de onze 3 or 1, mão de ferro 1, anulada 0), in Mineiro they are carried
    (mão de dez 4 or 2, mão de ferro 2: `special_outcome`).
    """

    kind: Kind
    side: int | None = None
    points: int | None = None

    @property
    def well_typed(self) -> bool:
        """True when side and points are ints or None (a bool or float is neither)."""
        return all(
            value is None or (isinstance(value, int) and not isinstance(value, bool))
            for value in (self.side, self.points)
        )

    @property
    def code(self) -> str:
        """The outcome as a tap's value: 'kind[:side[:points]]', e.g. 'normal:0:3', 'ferro:1'."""
        given = (str(value) for value in (self.side, self.points) if value is not None)
        return ":".join((self.kind.value, *given))

    @classmethod
    def parse(cls, code: str | None, rules: Variant = PAULISTA) -> Outcome:
        """A tap's value back into an outcome under `rules`, or a pt-BR refusal; a correction
        is no tap."""
        parts = (code or "").split(":")
        try:
            kind = Kind(parts[0])
        except ValueError:
            raise RulesError(UNKNOWN_TAP) from None
        if kind in (Kind.CORRECAO, Kind.MESA_EDITADA) or len(parts) > 3:
            raise RulesError(UNKNOWN_TAP)
        side = _number(parts[1], "o lado") if len(parts) > 1 else None
        points = _number(parts[2], "os pontos") if len(parts) > 2 else None
        if side is not None and side not in SIDES:
            raise RulesError("Lado inexistente: a mesa tem dois lados.")
        if points is not None and points not in rules.points_known:
            raise RulesError(f"Uma mão vale {rules.values_said} pontos.")
        return cls(kind, side, points)

    @property
    def gain(self) -> int:
        """Points added to `side` (0 for void hands, corrections and markers)."""
        if self.kind is Kind.NORMAL or (self.kind in _SPECIAL_KINDS and self.points is not None):
            return self.points or 0
        return _PAULISTA_FIXED.get(self.kind, 0)

    @property
    def gains(self) -> tuple[int, int]:
        """Points added to each side (a correction sets points rather than adding them: none)."""
        if self.kind is Kind.CORRECAO or self.side not in SIDES:
            return (0, 0)
        return (self.gain, 0) if self.side == 0 else (0, self.gain)


# One dealt hand's record: one outcome (every Paulista or Mineiro hand), or several scored by
# the same hand, for either side (a family whose hands score an envido and a truco apart): the
# first is the hand's own record, which moves the deal on; the others score in order.
Hand = Outcome | tuple[Outcome, ...]


_SPECIAL_KINDS = frozenset({Kind.ONZE_GANHOU, Kind.ONZE_PERDEU, Kind.ONZE_CORREU, Kind.FERRO})
_PAULISTA_FIXED = {Kind.ONZE_GANHOU: 3, Kind.ONZE_PERDEU: 3, Kind.ONZE_CORREU: 1, Kind.FERRO: 1}


def special_outcome(rules: Variant, kind: Kind, side: int) -> Outcome:
    """The outcome of a special hand of `kind` for `side` under `rules`: in Paulista the kind
    says its points, in Mineiro it carries them (mão de dez 4, run 2; mão de ferro 2)."""
    points = {
        Kind.ONZE_GANHOU: rules.special_worth,
        Kind.ONZE_PERDEU: rules.special_worth,
        Kind.ONZE_CORREU: rules.special_run,
        Kind.FERRO: rules.ferro_worth,
    }[kind]
    return Outcome(kind, side, points if rules.marks_specials else None)


def _number(text: str, what: str) -> int:
    """A whole number from a tap's value, or a pt-BR refusal naming what it was for."""
    try:
        return int(text.strip())
    except ValueError:
        raise RulesError(f"Valor inválido para {what}.") from None


_VOID = Outcome(Kind.ANULADA)


@dataclass(frozen=True)
class _Outcomes:
    """The legal outcomes of each phase under one rule set, in order and as sets."""

    phases: dict[Phase, tuple[Outcome, ...]]
    onze: dict[int, tuple[Outcome, ...]]
    phase_sets: dict[Phase, frozenset[Outcome]]
    onze_sets: dict[int, frozenset[Outcome]]


@cache
def _outcomes(rules: Variant) -> _Outcomes:
    """Every phase's legal outcomes under `rules` (built once per rule set)."""
    phases: dict[Phase, tuple[Outcome, ...]] = {
        Phase.SERIES_OVER: (Outcome(Kind.NOVA_SERIE),),
        Phase.GAME_OVER: (Outcome(Kind.PROXIMA_PARTIDA),),
        Phase.MAO_DE_FERRO: (
            special_outcome(rules, Kind.FERRO, 0),
            special_outcome(rules, Kind.FERRO, 1),
            _VOID,
        ),
        Phase.NORMAL: (
            *(Outcome(Kind.NORMAL, side, value) for side in SIDES for value in rules.ladder),
            _VOID,
        ),
    }
    onze: dict[int, tuple[Outcome, ...]] = {
        side: (
            special_outcome(rules, Kind.ONZE_GANHOU, side),
            special_outcome(rules, Kind.ONZE_PERDEU, 1 - side),
            special_outcome(rules, Kind.ONZE_CORREU, 1 - side),
            _VOID,
        )
        for side in SIDES
    }
    return _Outcomes(
        phases,
        onze,
        {phase: frozenset(outcomes) for phase, outcomes in phases.items()},
        {side: frozenset(outcomes) for side, outcomes in onze.items()},
    )


def recordable(outcome: Outcome, rules: Variant) -> bool:
    """True when a table of `rules` takes `outcome` in some state: a legal outcome of some
    phase, or a correction of a side to points a game may stand at (/regras#pontos)."""
    if not outcome.well_typed:
        return False
    if outcome.kind is Kind.CORRECAO:
        points = outcome.points
        return (
            outcome.side in SIDES
            and points is not None
            and 0 <= points < rules.target
            and points % rules.unit == 0
        )
    table = _outcomes(rules)
    sets = (*table.phase_sets.values(), *table.onze_sets.values())
    return any(outcome in legal for legal in sets)


@dataclass(frozen=True, kw_only=True)
class MatchConfig:
    """How a table plays: seats, series length, first dealer, the special-hand threshold and
    the rule set (Truco Paulista unless `variant` says otherwise; `MatchConfig.of` fills a rule
    set's defaults)."""

    players: int = 4
    best_of: int = 0
    first_dealer: int = 0
    special_at: int = 11
    variant: Variant = PAULISTA

    def __post_init__(self) -> None:
        """Refuse impossible settings."""
        if not isinstance(self.variant, Variant):
            raise RulesError(f"Variante desconhecida. Use {KNOWN_CODES}.")
        self.variant.check_players(self.players)
        if self.best_of not in BEST_OF.values:
            raise RulesError("A série é de partidas avulsas, melhor de 3 ou melhor de 5.")
        if not 0 <= self.first_dealer < self.players:
            raise RulesError("Quem dá as cartas primeiro deve ser um dos jogadores da mesa.")
        if self.special_at not in SPECIAL_AT.values:
            raise RulesError("A mão especial é a mão de onze (11) ou a mão de dez (10).")
        if self.special_at not in self.variant.special_at:
            raise RulesError(
                f"No {self.variant.name.lower()} a mão especial é a {self.variant.special_name} "
                f"({self.variant.special_at[0]})."
            )

    @classmethod
    def of(
        cls,
        code: str,
        *,
        players: int = 4,
        best_of: int | None = None,
        first_dealer: int = 0,
        special_at: int | None = None,
    ) -> MatchConfig:
        """The config of a table of the rule set named `code` ('paulista', 'mineiro'), its
        special hand and series (Mineiro: mão de dez, melhor de 3) unless given; RulesError in
        pt-BR for an unknown rule set or settings it does not allow."""
        rules = variant(code)
        return cls(
            players=players,
            best_of=rules.best_of if best_of is None else best_of,
            first_dealer=first_dealer,
            special_at=rules.special_at[0] if special_at is None else special_at,
            variant=rules,
        )

    @property
    def wins_needed(self) -> int | None:
        """Games a side must win to take the series, or None for games in a row."""
        return None if self.best_of == 0 else self.best_of // 2 + 1


# Where a snapshot (MatchState.snapshot) keeps the series, the game and the hand in the game,
# and each side's games won.
SNAPSHOT_PLACE = (5, 4, 7)
SNAPSHOT_WINS = (2, 3)


@dataclass(frozen=True)
class MatchState:
    """Everything derived from the log: score, phase, tally and deal."""

    config: MatchConfig
    points: tuple[int, int] = (0, 0)
    wins: tuple[int, int] = (0, 0)
    game_number: int = 1
    series_number: int = 1
    hands_dealt: int = 0
    hand_in_game: int = 1
    game_winner: int | None = None
    series_winner: int | None = None
    totals: tuple[int, int] = field(default=(0, 0))

    def snapshot(self) -> list[int | None]:
        """This state without its config, as plain numbers (a checkpoint to store)."""
        return [
            *self.points,
            *self.wins,
            self.game_number,
            self.series_number,
            self.hands_dealt,
            self.hand_in_game,
            self.game_winner,
            self.series_winner,
            *self.totals,
        ]

    @property
    def place(self) -> tuple[int, int, int]:
        """Where this state stands: (series, game, hand in the game)."""
        return (self.series_number, self.game_number, self.hand_in_game)

    @staticmethod
    def place_of(snapshot: Sequence[int | None]) -> tuple[int, int, int]:
        """The place of the state a snapshot was taken of, without restoring it."""
        series, game, hand = SNAPSHOT_PLACE
        return (snapshot[series] or 0, snapshot[game] or 0, snapshot[hand] or 0)

    @staticmethod
    def wins_of(snapshot: Sequence[int | None]) -> tuple[int, int]:
        """The games each side won in the state a snapshot was taken of, without restoring it."""
        a, b = SNAPSHOT_WINS
        return (snapshot[a] or 0, snapshot[b] or 0)

    @classmethod
    def restore(cls, config: MatchConfig, snapshot: list[int | None]) -> MatchState:
        """The state a snapshot was taken of, under the same config."""
        a, b, wins_a, wins_b, game, series, dealt, hand, game_winner, series_winner, *totals = (
            snapshot
        )
        numbers = (a, b, wins_a, wins_b, game, series, dealt, hand, *totals)
        if len(totals) != 2 or not all(isinstance(n, int) for n in numbers):
            raise RulesError("Estado guardado inválido.")
        return cls(
            config,
            (int(a or 0), int(b or 0)),
            (int(wins_a or 0), int(wins_b or 0)),
            int(game or 0),
            int(series or 0),
            int(dealt or 0),
            int(hand or 0),
            game_winner,
            series_winner,
            (int(totals[0] or 0), int(totals[1] or 0)),
        )

    @property
    def phase(self) -> Phase:
        """The kind of hand to play next, or the end of the game or series."""
        if self.series_winner is not None:
            return Phase.SERIES_OVER
        if self.game_winner is not None:
            return Phase.GAME_OVER
        at = [p >= self.config.special_at for p in self.points]
        if all(at):
            return Phase.MAO_DE_FERRO
        if any(at):
            return Phase.MAO_DE_ONZE
        return Phase.NORMAL

    @property
    def onze_side(self) -> int | None:
        """The side playing the mão de onze, or None."""
        if self.phase is not Phase.MAO_DE_ONZE:
            return None
        return 0 if self.points[0] >= self.config.special_at else 1

    @property
    def special(self) -> Special:
        """The kind of the hand to play next (a normal hand once the game is over)."""
        onze = self.onze_side
        if onze is not None:
            return Special.onze(onze)
        return Special.FERRO if self.phase is Phase.MAO_DE_FERRO else Special.NORMAL

    @property
    def mao(self) -> int:
        """The seat that plays first this hand (the player after the dealer)."""
        return (self.pe + 1) % self.config.players

    @property
    def pe(self) -> int:
        """The seat that deals this hand and plays last."""
        return (self.config.first_dealer + self.hands_dealt) % self.config.players

    @property
    def dealing_side(self) -> int:
        """The side of the dealer (seats alternate sides: 0, 1, 0, 1)."""
        return self.pe % 2

    def legal_outcomes(self) -> tuple[Outcome, ...]:
        """Every outcome that may be recorded now under the table's rule set, corrections
        excepted (see `_correct`)."""
        phase, table = self.phase, _outcomes(self.config.variant)
        if phase is Phase.MAO_DE_ONZE:
            return table.onze[self.onze_side or 0]
        return table.phases[phase]

    def _legal_set(self) -> frozenset[Outcome]:
        """`legal_outcomes()` as a set, for quick membership tests."""
        phase, table = self.phase, _outcomes(self.config.variant)
        if phase is Phase.MAO_DE_ONZE:
            return table.onze_sets[self.onze_side or 0]
        return table.phase_sets[phase]

    def apply(self, outcome: Outcome) -> MatchState:
        """The state after recording `outcome`; RulesError when it is not legal now."""
        if not outcome.well_typed:
            raise RulesError("Valor inválido: o lado e os pontos são números inteiros.")
        if outcome.kind is Kind.CORRECAO:
            return self._correct(outcome)
        if outcome not in self._legal_set():
            raise RulesError(self._refusal(outcome))
        if outcome.kind is Kind.NOVA_SERIE:
            return MatchState(
                self.config,
                series_number=self.series_number + 1,
                hands_dealt=self.hands_dealt,
                totals=self.totals,
            )
        if outcome.kind is Kind.PROXIMA_PARTIDA:
            return replace(
                self, points=(0, 0), game_number=self.game_number + 1, hand_in_game=1,
                game_winner=None,
            )
        state = MatchState(
            self.config,
            self.points,
            self.wins,
            self.game_number,
            self.series_number,
            self.hands_dealt + 1,
            self.hand_in_game + 1,
            self.game_winner,
            self.series_winner,
            self.totals,
        )
        if outcome.side is None or outcome.gain == 0:
            return state
        # whoever wins the mão de ferro wins the game (/regras#mao-de-ferro)
        if outcome.kind is Kind.FERRO:
            return state._score(outcome.side, self.config.variant.target)
        return state._score(outcome.side, outcome.gain)

    def apply_hand(self, hand: Hand) -> MatchState:
        """The state after one dealt hand's outcomes (see `Hand`); RulesError when one is not
        legal. Once a game is won, what the same hand scored after does not count."""
        if isinstance(hand, Outcome):
            return self.apply(hand)
        if not hand:
            raise RulesError(UNKNOWN_TAP)
        first, *more = hand
        state = self.apply(first)
        if more and not first.kind.is_hand:
            raise RulesError(UNKNOWN_TAP)
        for outcome in more:
            state = state._also_scored(outcome)
        return state

    def _also_scored(self, outcome: Outcome) -> MatchState:
        """The state after a further score of the hand just recorded (no new deal)."""
        rules = self.config.variant
        if not outcome.well_typed or outcome.kind is not Kind.NORMAL or outcome.side not in SIDES:
            raise RulesError(UNKNOWN_TAP)
        if outcome.points not in rules.points_known:
            raise RulesError(f"Uma mão vale {rules.values_said} pontos.")
        if self.game_winner is not None:
            return self
        side = 0 if outcome.side == 0 else 1
        return self._score(side, outcome.gains[side])

    def reconfigured(self, config: MatchConfig, sides: tuple[str, str]) -> MatchState:
        """This state under other settings (another series, special hand, seating), the games
        played kept; RulesError in pt-BR (naming `sides`) when the games already played could
        not have happened under them (/regras#pontos)."""
        unit = config.variant.unit
        if any(points % unit for points in self.points):
            raise RulesError(
                f"Placar {self.points[0]} a {self.points[1]}: no {config.variant.name.lower()} "
                "os pontos são sempre pares. Corrija o placar antes."
            )
        needed = config.wins_needed
        won = [side for side in SIDES if needed is not None and self.wins[side] >= needed]
        series_winner = None
        if won:
            side = won[0]
            just_won = self.game_winner == side and self.wins[side] == needed and len(won) == 1
            if not just_won:
                raise RulesError(
                    f"Vitórias de {sides[side]}: {self.wins[side]}. Com elas, a série não pode "
                    f"ser melhor de {config.best_of} agora."
                )
            series_winner = side
        if self.series_winner is not None and series_winner != self.series_winner:
            raise RulesError(
                "A série acabou: toque em Nova série antes de mudar quantas partidas ela tem."
            )
        return replace(self, config=config, series_winner=series_winner)

    def won_by(self, side: int) -> MatchState:
        """The state once `side` takes this game: its tally, and the series if that ends it."""
        return self._score(side, self.config.variant.target)

    def _score(self, side: int, gain: int) -> MatchState:
        """Add points to a side, capped at the target (12), ending the game (and series) there."""
        target = self.config.variant.target
        points = list(self.points)
        points[side] = min(target, points[side] + gain)
        if points[side] < target:
            return MatchState(
                self.config,
                (points[0], points[1]),
                self.wins,
                self.game_number,
                self.series_number,
                self.hands_dealt,
                self.hand_in_game,
                self.game_winner,
                self.series_winner,
                self.totals,
            )
        wins = list(self.wins)
        wins[side] += 1
        totals = list(self.totals)
        totals[side] += 1
        needed = self.config.wins_needed
        return replace(
            self,
            points=(points[0], points[1]),
            wins=(wins[0], wins[1]),
            totals=(totals[0], totals[1]),
            game_winner=side,
            series_winner=side if needed is not None and wins[side] >= needed else None,
        )

    def _correct(self, outcome: Outcome) -> MatchState:
        """Set a side's points by hand (correção); only during a game, 0 to 11 (even numbers
        only in Mineiro)."""
        if self.phase in (Phase.GAME_OVER, Phase.SERIES_OVER):
            raise RulesError("A partida acabou: não há placar para corrigir. Desfaça a última mão.")
        if outcome.side not in SIDES:
            raise RulesError("Correção inválida: escolha um dos dois lados.")
        value = outcome.points
        target = self.config.variant.target
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < target:
            raise RulesError(
                f"Correção inválida: os pontos vão de 0 a {target - 1}. Para terminar a partida, "
                "marque a mão que a decidiu."
            )
        if value % self.config.variant.unit:
            raise RulesError(
                f"Correção inválida: no {self.config.variant.name.lower()} os pontos são "
                "sempre pares."
            )
        points = list(self.points)
        points[outcome.side] = value
        return replace(self, points=(points[0], points[1]))

    def _refusal(self, outcome: Outcome) -> str:
        """A pt-BR message saying why an outcome is not legal now."""
        phase = self.phase
        if phase is Phase.SERIES_OVER:
            return "A série acabou: comece uma nova série."
        if phase is Phase.GAME_OVER:
            return "A partida acabou: comece a próxima partida."
        if outcome.kind in (Kind.PROXIMA_PARTIDA, Kind.NOVA_SERIE):
            return "A partida ainda não acabou."
        if outcome.side is not None and outcome.side not in SIDES:
            return "Lado inexistente: a mesa tem dois lados."
        rules = self.config.variant
        if phase is Phase.MAO_DE_FERRO:
            return (
                "Mão de ferro: sem truco, e quem vencer leva a partida. Marque quem venceu ou"
                " mão anulada."
            )
        name = "mão de dez" if self.config.special_at == 10 else "mão de onze"
        if phase is Phase.MAO_DE_ONZE:
            return (
                f"{name.capitalize()}: não tem truco. Ela vale {rules.special_worth} se for "
                f"jogada, ou {rules.special_run} para os adversários se correrem. Marque uma "
                "dessas saídas."
            )
        if outcome.kind is Kind.NORMAL:
            return f"Uma mão vale {rules.values_said} pontos."
        return f"Essa saída só existe na {name} ou na mão de ferro."


def replay(config: MatchConfig, outcomes: Iterable[Hand]) -> list[MatchState]:
    """Every state from the start: the initial one, then one after each record (an outcome,
    or a hand's several: `Hand`)."""
    states = [MatchState(config)]
    for hand in outcomes:
        states.append(states[-1].apply_hand(hand))
    return states


def fold(config: MatchConfig, outcomes: Iterable[Hand]) -> MatchState:
    """The state after recording every outcome (or hand of several: `Hand`) in order."""
    state = MatchState(config)
    for hand in outcomes:
        state = state.apply_hand(hand)
    return state
