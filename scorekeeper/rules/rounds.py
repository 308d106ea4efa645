"""Judging one round (rodada): seed 000, Rodadas e empates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, check_in_deck, check_vira, manilha_rank, manilhas, strength
from .errors import RulesError
from .ruleset import RuleSet

COVERED = "X"


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
    reasons: tuple[str, ...]

    @property
    def tie(self) -> bool:
        """True when the round is tied (empate)."""
        return self.winner is None

    @property
    def winning_side(self) -> int | None:
        """0 for the side of the first play, 1 for the other, None for a tie."""
        return None if self.winning_play is None else self.winning_play % 2

    @property
    def winning_card(self) -> Card | None:
        """The card that won the round, or None for a tie."""
        return None if self.winning_play is None else self.plays[self.winning_play].card


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


def _check_shape(
    plays: Sequence[tuple[str, Card | str]], round_number: int, players: int | None, mao: int
) -> tuple[Play, ...]:
    """Check counts, round number and players; parse the plays."""
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise RulesError("A rodada deve ser 1, 2 ou 3.")
    if round_number not in (1, 2, 3):
        raise RulesError(f"Rodada {round_number} não existe: uma mão tem no máximo três rodadas.")
    if len(plays) not in (2, 4):
        raise RulesError(
            f"Numa rodada cada jogador joga uma carta: são 2 jogadas (1x1) ou 4 (2x2), "
            f"não {len(plays)}."
        )
    if players is not None and players != len(plays):
        raise RulesError(
            f"Com {players} jogadores a rodada tem {players} jogadas, mas foram informadas "
            f"{len(plays)}."
        )
    if isinstance(mao, bool) or not isinstance(mao, int) or not 0 <= mao < len(plays):
        raise RulesError("O mão deve ser um dos jogadores da rodada.")
    parsed: list[Play] = []
    for entry in plays:
        if not isinstance(entry, tuple | list) or len(entry) != 2:
            raise RulesError("Cada jogada deve ser um par (jogador, carta).")
        player, value = entry
        if any(p.player == str(player) for p in parsed):
            raise RulesError(f"O jogador {player} jogou duas vezes: cada um joga uma carta.")
        parsed.append(parse_play(str(player), value))
    return tuple(parsed)


def _check_cards(
    plays: tuple[Play, ...], ruleset: RuleSet, vira: Card | None, round_number: int
) -> None:
    """Refuse covered cards in round 1, cards outside the deck, the vira and repeated cards."""
    seen: dict[Card, str] = {}
    for play in plays:
        if play.covered and round_number == 1:
            raise RulesError(
                f"{play.player} jogou coberta na primeira rodada: carta coberta só "
                "a partir da segunda rodada."
            )
        if play.card is None:
            continue
        check_in_deck(play.card, ruleset)
        if play.card == vira:
            raise RulesError(
                f"{play.player} jogou a vira ({play.card.label}): a vira não é de ninguém "
                "e não se joga."
            )
        if play.card in seen:
            raise RulesError(
                f"A carta {play.card.label} aparece duas vezes ({seen[play.card]} e "
                f"{play.player}): não há carta repetida no baralho."
            )
        seen[play.card] = play.player


def _manilha_reason(ruleset: RuleSet, vira: Card | None) -> str:
    """Explain which cards are manilhas."""
    mans = manilhas(ruleset, vira)
    names = ", ".join(f"{c.face} ({c.suit.manilha_name})" for c in mans)
    if vira is None:
        return f"Manilha fixa: as manilhas são, da mais forte para a mais fraca, {names}."
    rank = manilha_rank(ruleset, vira)
    return (
        f"A vira é {vira.label}, então as manilhas são {rank.plural}: {names}, "
        "da mais forte para a mais fraca."
    )


def _describe(play: Play, ruleset: RuleSet, vira: Card | None) -> str:
    """One play in words, e.g. '3♥ (Eles 1)'."""
    assert play.card is not None
    kind = " (manilha)" if play.card in manilhas(ruleset, vira) else ""
    return f"{play.card.face}{kind} de {play.player}"


def judge_round(
    plays: Sequence[tuple[str, Card | str]],
    *,
    ruleset: RuleSet,
    vira: Card | str | None = None,
    round_number: int,
    players: int | None = None,
    mao: int = 0,
) -> RoundVerdict:
    """Rule on one round: the side of the strongest open card wins; equal on both sides ties."""
    parsed = _check_shape(plays, round_number, players, mao)
    vira_card = check_vira(ruleset, vira)
    _check_cards(parsed, ruleset, vira_card, round_number)
    reasons = [_manilha_reason(ruleset, vira_card)]
    covered = [p for p in parsed if p.covered]
    if covered:
        who = ", ".join(p.player for p in covered)
        reasons.append(
            f"Carta coberta não vale nada e perde para qualquer carta aberta ({who})."
        )
    scored = [
        (strength(p.card, ruleset, vira_card), i)
        for i, p in enumerate(parsed)
        if not p.covered and p.card is not None
    ]
    if not scored:
        reasons.append("Nenhuma carta aberta na mesa: a rodada empata.")
        return _tie(parsed, 0, mao, ruleset, reasons)
    ranked = sorted(scored, key=lambda item: (-item[0], item[1]))
    reasons.append(
        "Cartas abertas, da mais forte para a mais fraca: "
        + ", ".join(_describe(parsed[i], ruleset, vira_card) for _, i in ranked)
        + "."
    )
    best = ranked[0][0]
    top = [i for s, i in ranked if s == best]
    sides = {i % 2 for i in top}
    if len(sides) == 2:
        names = " e ".join(_describe(parsed[i], ruleset, vira_card) for i in top)
        reasons.append(
            f"As cartas mais fortes têm o mesmo valor e são dos dois lados ({names}): "
            "empate. Fora as manilhas, o naipe não desempata."
        )
        return _tie(parsed, top[0], mao, ruleset, reasons)
    winner_index = top[0]
    side_players = frozenset(p.player for i, p in enumerate(parsed) if i % 2 == winner_index % 2)
    win_play = parsed[winner_index]
    assert win_play.card is not None
    if len(top) > 1:
        faces = ", ".join(_describe(parsed[i], ruleset, vira_card) for i in top)
        reasons.append(
            f"As cartas mais fortes ({faces}) são de parceiros: a rodada é da dupla deles, "
            "sem empate."
        )
    elif best >= 100 and sum(1 for s, _ in ranked if s >= 100) > 1:
        reasons.append(
            f"Entre manilhas decide o naipe (paus > copas > espadas > ouros): "
            f"{win_play.card.face} é a mais forte."
        )
    else:
        reasons.append(f"{win_play.card.face} é a carta mais forte da rodada.")
    team = " e ".join(sorted(side_players)) if len(side_players) > 1 else win_play.player
    reasons.append(f"A rodada é de {team}; {win_play.player} abre a próxima rodada.")
    return RoundVerdict(parsed, side_players, winner_index, winner_index, tuple(reasons))


def _tie(
    plays: tuple[Play, ...], first_tying: int, mao: int, ruleset: RuleSet, reasons: list[str]
) -> RoundVerdict:
    """Build a tied verdict, with who opens next under the ruleset's tie-opener rule."""
    if ruleset.tie_opener == "mao":
        opener = mao
        reasons.append(
            f"Depois de rodada empatada, a próxima é aberta pelo mão ({plays[opener].player})."
        )
    else:
        opener = first_tying
        reasons.append(
            "Depois de rodada empatada, a próxima é aberta por quem jogou a primeira carta "
            f"do empate ({plays[opener].player})."
        )
    return RoundVerdict(plays, None, None, opener, tuple(reasons))
