"""Judging one round (rodada): /regras#rodadas-e-empates.

A round's reasons name its plays by position (seat 1 is the first card down); `RoundVerdict`
words them with the players' names as given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import Card
from .decks import check_vira, manilhas, outside_deck, strength
from .errors import RulesError
from .hands import Result
from .reasons import Code, Names, Reason, RuleBroken, Shown, word
from .ruleset import RuleSet

COVERED = "X"
ROUNDS = (1, 2, 3)
PLAY_COUNTS = (2, 4)


@dataclass(frozen=True)
class Play:
    """One card put on the table: open, or covered (with its face known or not)."""

    player: str
    card: Card | None
    covered: bool

    @property
    def text(self) -> str:
        """The play in the shareable format: '4p', 'X' or 'X:4p'."""
        if not self.covered:
            return str(self.card)
        return COVERED if self.card is None else f"{COVERED}:{self.card}"


@dataclass(frozen=True)
class RoundVerdict:
    """The ruling of a round: the winning side's players (or None for a tie) and why."""

    plays: tuple[Play, ...]
    winner: frozenset[str] | None
    winning_play: int | None
    next_opener: int
    why: tuple[Reason, ...]

    @property
    def names(self) -> Names:
        """The players by play, as the reasons' seats name them."""
        return Names(seats=tuple(p.player for p in self.plays))

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why, in pt-BR, naming the players."""
        names = self.names
        return tuple(word(reason, names) for reason in self.why)

    @property
    def tie(self) -> bool:
        """True when the round is tied (empate)."""
        return self.winner is None

    @property
    def result(self) -> Result:
        """vitoria, or empate for a tied round."""
        return Result.EMPATE if self.tie else Result.VITORIA

    @property
    def winning_side(self) -> int | None:
        """0 for the side of the first play, 1 for the other, None for a tie."""
        return None if self.winning_play is None else self.winning_play % 2

    @property
    def winning_card(self) -> Card | None:
        """The card that won the round, or None for a tie."""
        return None if self.winning_play is None else self.plays[self.winning_play].card


@dataclass(frozen=True)
class PlaysRead:
    """The plays of a round read in order, up to the first one refused, and why it was."""

    plays: tuple[Play, ...]
    refusal: RulesError | None = None


def parse_play(player: str, value: Card | str) -> Play:
    """Read a card, a card text, 'X' or 'X:<card>' into a Play."""
    if isinstance(value, Card):
        return Play(player, value, covered=False)
    if not isinstance(value, str):
        raise RulesError(f"Jogada inválida de {player}: informe uma carta, 'X' ou 'X:<carta>'.")
    text = value.strip()
    if text.upper() == COVERED:
        return Play(player, None, covered=True)
    if text[:2].upper() == f"{COVERED}:":
        return Play(player, Card.parse(text[2:]), covered=True)
    return Play(player, Card.parse(text), covered=False)


def may_cover(round_number: int) -> bool:
    """True when a card may be put down covered in this round: from the second on
    (/regras#carta-coberta)."""
    return round_number > 1


def mao_opens(round_number: int) -> bool:
    """True when the mão plays first whoever won before: in the first round
    (/regras#rodadas-e-empates)."""
    return round_number == 1


def card_refusal(
    seat: int,
    card: Card | None,
    covered: bool,
    *,
    ruleset: RuleSet,
    vira: Card | None,
    round_number: int,
    played: Mapping[Card, tuple[int, int | None]],
) -> Reason | None:
    """Why `seat` may not put this card down: covered in the first round, outside the deck, the
    vira, or a card already played (`played` says by whom, and in which earlier round or None
    for this one). None when it may."""
    if covered and not may_cover(round_number):
        return Reason(Code.COVERED_IN_FIRST_ROUND, seat=seat)
    if card is None:
        return None
    outside = outside_deck(card, ruleset)
    if outside is not None:
        return outside
    if card == vira:
        return Reason(Code.VIRA_PLAYED, seat=seat, card=card)
    if card in played:
        other, earlier = played[card]
        return Reason(Code.CARD_PLAYED_TWICE, seat=seat, card=card, other=other, round=earlier)
    return None


def read_plays(
    plays: Sequence[tuple[str, Card | str]],
    *,
    ruleset: RuleSet,
    vira: Card | None,
    round_number: int,
) -> PlaysRead:
    """Read the plays of a round (all or the first few) in turn, each checked against the rules
    and the plays before it; stop at the first refused. Refusals name the players as given."""
    names = Names(seats=tuple(player for player, _ in plays))
    read: list[Play] = []
    played: dict[Card, tuple[int, int | None]] = {}
    for seat, (player, value) in enumerate(plays, start=1):
        try:
            if isinstance(value, str) and not value.strip():
                raise RuleBroken(Reason(Code.EMPTY_PLAY, seat=seat), names)
            play = parse_play(player, value)
        except RulesError as error:
            return PlaysRead(tuple(read), error)
        refusal = card_refusal(
            seat,
            play.card,
            play.covered,
            ruleset=ruleset,
            vira=vira,
            round_number=round_number,
            played=played,
        )
        if refusal is not None:
            return PlaysRead(tuple(read), RuleBroken(refusal, names))
        if play.card is not None:
            played[play.card] = (seat, None)
        read.append(play)
    return PlaysRead(tuple(read))


def check_plays_count(count: int, players: int) -> None:
    """Refuse more plays than players (a round being entered may have fewer)."""
    if count > players:
        raise RuleBroken(Reason(Code.PLAYS_FOR_PLAYERS, players=players, count=count))


def check_mao(mao: int, *, players: int, round_number: int | None = None) -> None:
    """Refuse a mão (its 0-based position in the round's play order) that is no player's; given
    the round, also a mão that does not open the first round (/regras#rodadas-e-empates)."""
    if isinstance(mao, bool) or not isinstance(mao, int) or not 0 <= mao < players:
        raise RuleBroken(Reason(Code.NO_SUCH_MAO, players=players))
    if round_number is not None and mao_opens(round_number) and mao != 0:
        raise RuleBroken(Reason(Code.MAO_OPENS_FIRST_ROUND))


def _check_shape(
    plays: Sequence[tuple[str, Card | str]],
    round_number: int,
    players: int | None,
    mao: int,
    counts: tuple[int, ...] = PLAY_COUNTS,
) -> list[tuple[str, Card | str]]:
    """Check the round number, the number of plays and players, the mão and that each player
    plays once; the plays with their players as text."""
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise RuleBroken(Reason(Code.NO_SUCH_ROUND, text=repr(round_number)))
    if round_number not in ROUNDS:
        raise RuleBroken(Reason(Code.NO_SUCH_ROUND, text=str(round_number)))
    if len(plays) not in counts:
        raise RuleBroken(Reason(Code.PLAYS_PER_ROUND, count=len(plays)))
    if players is not None and players != len(plays):
        raise RuleBroken(Reason(Code.PLAYS_FOR_PLAYERS, players=players, count=len(plays)))
    check_mao(mao, players=len(plays))
    entries: list[tuple[str, Card | str]] = []
    for entry in plays:
        if not isinstance(entry, tuple | list) or len(entry) != 2:
            raise RulesError("Cada jogada deve ser um par (jogador, carta).")
        player, value = str(entry[0]), entry[1]
        if any(player == seen for seen, _ in entries):
            raise RulesError(f"O jogador {player} jogou duas vezes: cada um joga uma carta.")
        entries.append((player, value))
    return entries


def judge_round(
    plays: Sequence[tuple[str, Card | str]],
    *,
    ruleset: RuleSet,
    vira: Card | str | None = None,
    round_number: int,
    players: int | None = None,
    mao: int = 0,
    counts: tuple[int, ...] = PLAY_COUNTS,
) -> RoundVerdict:
    """Rule on one round: the side of the strongest open card wins; equal on both sides ties.
    `counts` are the numbers of plays a round may have (1x1 and 2x2; Mineiro adds 3x3)."""
    entries = _check_shape(plays, round_number, players, mao, counts)
    vira_card = check_vira(ruleset, vira)
    read = read_plays(entries, ruleset=ruleset, vira=vira_card, round_number=round_number)
    if read.refusal is not None:
        raise read.refusal
    return _rule(read.plays, ruleset, vira_card, round_number, mao)


def _rule(
    plays: tuple[Play, ...], ruleset: RuleSet, vira: Card | None, round_number: int, mao: int
) -> RoundVerdict:
    """The ruling on legal plays, with each rule it applies."""
    mans = manilhas(ruleset, vira)
    why = [
        Reason(Code.MANILHAS_FIXED, cards=mans)
        if vira is None
        else Reason(Code.MANILHAS_BY_VIRA, card=vira, cards=mans)
    ]
    covered = [(seat, p) for seat, p in enumerate(plays, start=1) if p.covered]
    if covered:
        why.append(Reason(Code.COVERED_LOSE, seats=tuple(seat for seat, _ in covered)))
        why.extend(
            Reason(
                Code.COVERED_WAS_MANILHA if p.card in mans else Code.COVERED_WAS,
                seat=seat,
                card=p.card,
            )
            for seat, p in covered
            if p.card is not None
        )
    opened = [(i, p.card) for i, p in enumerate(plays) if not p.covered and p.card is not None]
    if not opened:
        why.append(Reason(Code.NO_OPEN_CARD))
        return _tie(plays, 0, mao, ruleset, round_number, why)
    ranked = sorted(opened, key=lambda item: (-strength(item[1], ruleset, vira), item[0]))

    def shown(index: int, card: Card) -> Shown:
        return Shown(index + 1, card, card in mans)

    why.append(Reason(Code.OPEN_CARDS, plays=tuple(shown(i, c) for i, c in ranked)))
    best = strength(ranked[0][1], ruleset, vira)
    top = [(i, c) for i, c in ranked if strength(c, ruleset, vira) == best]
    if len({i % 2 for i, _ in top}) == 2:
        why.append(Reason(Code.TIED_ACROSS, plays=tuple(shown(i, c) for i, c in top)))
        return _tie(plays, top[0][0], mao, ruleset, round_number, why)
    winner, card = top[0]
    if len(top) > 1:
        why.append(Reason(Code.PARTNERS_ON_TOP, plays=tuple(shown(i, c) for i, c in top)))
    else:
        between_manilhas = card in mans and sum(c in mans for _, c in ranked) > 1
        code = Code.MANILHA_SUIT if between_manilhas else Code.STRONGEST
        why.append(Reason(code, plays=(shown(winner, card),)))
        why.append(Reason(Code.NOT_A_TIE, players=len(plays)))
    side = tuple(i + 1 for i in range(len(plays)) if i % 2 == winner % 2)
    why.append(Reason(Code.ROUND_TO, round=round_number, seat=winner + 1, seats=side))
    if round_number == ROUNDS[-1]:
        why.append(Reason(Code.THIRD_ROUND_ENDS))
    players = frozenset(plays[seat - 1].player for seat in side)
    return RoundVerdict(plays, players, winner, winner, tuple(why))


def _tie(
    plays: tuple[Play, ...],
    first_tying: int,
    mao: int,
    ruleset: RuleSet,
    round_number: int,
    why: list[Reason],
) -> RoundVerdict:
    """A tied verdict, with who opens next under the ruleset's tie-opener rule (no next round
    after the third)."""
    opener, code = (mao, Code.NEXT_BY_MAO)
    if ruleset.first_tie_opens:
        opener, code = (first_tying, Code.NEXT_BY_FIRST_TIE)
    if round_number == ROUNDS[-1]:
        why.append(Reason(Code.THIRD_ROUND_ENDS))
    else:
        why.append(Reason(code, round=round_number + 1, seat=opener + 1))
    return RoundVerdict(plays, None, None, opener, tuple(why))
