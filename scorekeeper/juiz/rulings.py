"""Judging what the juiz pages were asked, and wording the ruling for people at the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..rules import Card, HandVerdict, RoundVerdict, RulesError, judge_hand, judge_round, manilhas
from ..rules.cards import check_in_deck, check_vira, strength
from ..rules.rounds import Play, parse_play
from .query import SIDES, HandQuery, RoundQuery

ORDINALS = ("primeira", "segunda", "terceira")
TEAMS = ("Nós", "Eles")


def seat_names(
    query: RoundQuery, teams: Sequence[str] = TEAMS, given: Sequence[str] = ()
) -> list[str]:
    """Names in play order: the table's player names, else 'Nós 1', 'Eles 1', 'Nós 2', 'Eles 2'."""
    return [_seat_name(seat, teams, given) for seat in query.seats]


def _seat_name(seat: int, teams: Sequence[str], given: Sequence[str]) -> str:
    """A seat's player name, else its side's name and number ('Eles 2')."""
    default = f"{teams[seat % 2]} {seat // 2 + 1}"
    name = given[seat].strip() if seat < len(given) and given[seat] else ""
    others = [n.strip() for i, n in enumerate(given) if i != seat and n]
    return name if name and name not in others else default


@dataclass(frozen=True)
class Slot:
    """One position of the round on the table: who plays, and what (if anything yet)."""

    position: int
    name: str
    side: int
    text: str | None = None
    card: Card | None = None
    covered: bool = False
    bad: bool = False
    current: bool = False


@dataclass(frozen=True)
class RoundRuling:
    """The round page's answer: a result (or None while input is missing) and its words."""

    result: str | None
    headline: str = ""
    reasons: tuple[str, ...] = ()
    error: str | None = None
    vira: Card | None = None
    slots: tuple[Slot, ...] = ()
    used: frozenset[Card] = frozenset()
    verdict: RoundVerdict | None = None
    winner_side: int | None = None
    prompt: str = ""
    next_result: str | None = None
    picking_vira: bool = False

    @property
    def complete(self) -> bool:
        """True once there is a ruling (a result or a refusal)."""
        return self.result is not None

    @property
    def winning_position(self) -> int | None:
        """The 1-based position of the winning play, on a vitória."""
        if self.verdict is None or self.verdict.winning_play is None:
            return None
        return self.verdict.winning_play + 1


def _parse_slots(
    query: RoundQuery, names: list[str], vira: Card | None
) -> tuple[list[Slot], str | None]:
    """Read each play in turn, stopping at the first impossible one (with its explanation)."""
    slots: list[Slot] = []
    seen: dict[Card, str] = {}
    for i, name in enumerate(names):
        side = (query.opener + i) % 2
        if i >= len(query.plays):
            slots.append(Slot(i + 1, name, side, current=i == len(query.plays)))
            continue
        text = query.plays[i]
        try:
            play = _check_play(i, name, text, query, vira, seen)
        except RulesError as error:
            slots.append(Slot(i + 1, name, side, text=text, bad=True))
            slots.extend(
                Slot(j + 1, names[j], (query.opener + j) % 2) for j in range(i + 1, len(names))
            )
            return slots, str(error)
        if play.card is not None:
            seen[play.card] = name
        slots.append(Slot(i + 1, name, side, play.text, play.card, play.covered))
    return slots, None


def _check_play(
    i: int, name: str, text: str, query: RoundQuery, vira: Card | None, seen: dict[Card, str]
) -> Play:
    """One play, refused when covered in round 1, the vira, repeated or outside the deck."""
    if not text:
        raise RulesError(f"A jogada {i + 1} ({name}) está vazia: falta a carta.")
    play = parse_play(name, text)
    if play.covered and query.round_number == 1:
        raise RulesError(
            f"{name} jogou coberta na primeira rodada: carta coberta só a partir da segunda rodada."
        )
    card = play.card
    if card is None:
        return play
    check_in_deck(card, query.ruleset)
    if card == vira:
        raise RulesError(
            f"{name} jogou a vira ({card.label}): a vira fica na mesa, não é de ninguém "
            "e não se joga."
        )
    if card in seen:
        raise RulesError(
            f"A carta {card.label} aparece duas vezes ({seen[card]} e {name}): "
            "não há carta repetida no baralho."
        )
    return play


def judge_round_query(
    query: RoundQuery, refusal: str | None, teams: Sequence[str] = TEAMS, given: Sequence[str] = ()
) -> RoundRuling:
    """Rule on the round page's input: a vitória, an empate, a refusal, or what is missing."""
    names = seat_names(query, teams, given)
    empty = tuple(Slot(i + 1, n, (query.opener + i) % 2) for i, n in enumerate(names))
    if refusal:
        return RoundRuling("invalido", "Não dá para julgar assim", error=refusal, slots=empty)
    if len(query.plays) > query.players:
        message = (
            f"Com {query.players} jogadores a rodada tem {query.players} jogadas, mas foram "
            f"informadas {len(query.plays)}. {_fix_count(len(query.plays))}"
        )
        return RoundRuling("invalido", "Jogadas demais", error=message, slots=empty)
    try:
        vira = check_vira(query.ruleset, query.vira) if query.vira or query.fixed else None
    except RulesError as error:
        return RoundRuling("invalido", "Vira impossível", error=str(error), slots=empty)
    slots, problem = _parse_slots(query, names, vira)
    used = frozenset(c for c in [vira, *(s.card for s in slots)] if c is not None)
    if problem:
        return RoundRuling(
            "invalido", "Jogada impossível", error=problem, vira=vira, slots=tuple(slots), used=used
        )
    if vira is None and not query.fixed:
        prompt = "Toque a vira: a carta virada na mesa, que decide as manilhas."
        return RoundRuling(None, slots=tuple(slots), used=used, prompt=prompt, picking_vira=True)
    if len(query.plays) < query.players:
        turn = names[len(query.plays)]
        prompt = f"Toque a carta de {turn} (jogada {len(query.plays) + 1} de {query.players})."
        if query.cover:
            prompt = f"Toque a carta que {turn} jogou coberta."
        return RoundRuling(None, vira=vira, slots=tuple(slots), used=used, prompt=prompt)
    return _ruled(query, names, teams, vira, tuple(slots), used)


def _fix_count(plays: int) -> str:
    """How to fix a round with more plays than players."""
    if plays == 4:
        return "Se era 2x2, escolha 2x2 (jogadores=4); senão, desfaça as jogadas a mais."
    return "Desfaça as jogadas a mais."


def _ruled(
    query: RoundQuery,
    names: list[str],
    teams: Sequence[str],
    vira: Card | None,
    slots: tuple[Slot, ...],
    used: frozenset[Card],
) -> RoundRuling:
    """Run the rules on a complete round and word the result."""
    try:
        verdict = judge_round(
            list(zip(names, query.plays, strict=True)),
            ruleset=query.ruleset,
            vira=vira,
            round_number=query.round_number,
            players=query.players,
            mao=query.mao,
        )
    except RulesError as error:
        return RoundRuling(
            "invalido", "Jogada impossível", error=str(error), vira=vira, slots=slots, used=used
        )
    reasons = _reasons(query, verdict, vira)
    if verdict.winning_side is None:
        headline = "Empate: a rodada não é de ninguém"
        next_result = "empate"
        winner_side = None
    else:
        winner_side = (query.opener + verdict.winning_side) % 2
        next_result = ("nos", "eles")[winner_side]
        win = verdict.plays[verdict.winning_play or 0]
        headline = f"Rodada para {teams[winner_side] if query.players == 4 else win.player}"
    return RoundRuling(
        "empate" if winner_side is None else "vitoria",
        headline,
        reasons,
        vira=vira,
        slots=slots,
        used=used,
        verdict=verdict,
        winner_side=winner_side,
        next_result=next_result,
    )


def _reasons(query: RoundQuery, verdict: RoundVerdict, vira: Card | None) -> tuple[str, ...]:
    """The engine's reasons, with what it leaves implicit: covered faces, the tie rule, round 3."""
    mans = manilhas(query.ruleset, vira)
    reasons: list[str] = []
    for reason in verdict.reasons:
        if query.round_number == 3 and reason.startswith("Depois de rodada empatada"):
            continue
        if query.round_number == 3 and reason.startswith("A rodada é de"):
            reason = reason.split(";")[0] + "."
        reasons.append(reason)
        if reason.startswith("Carta coberta"):
            reasons.extend(_covered_faces(verdict, mans))
    if not verdict.tie and _single_top(verdict, query, vira):
        rule = (
            "Não é empate: em 2x2 só empata quando as cartas mais fortes têm o mesmo valor "
            "e são de duplas diferentes; aqui a mais forte é uma só."
            if query.players == 4
            else "Não é empate: só empata quando as duas cartas abertas têm o mesmo valor."
        )
        reasons.insert(len(reasons) - 1, rule)
    if query.round_number == 3:
        reasons.append(
            "Era a terceira rodada: não há próxima, a mão termina aqui (veja quem leva a mão)."
        )
    return tuple(reasons)


def _covered_faces(verdict: RoundVerdict, mans: Sequence[Card]) -> list[str]:
    """A note for each covered card whose face is known."""
    notes = []
    for play in verdict.plays:
        if play.covered and play.card is not None:
            kind = " (uma manilha!)" if play.card in mans else ""
            notes.append(
                f"A carta coberta de {play.player} era {play.card.face}{kind}, mas coberta "
                "não conta: o valor dela não entra na disputa."
            )
    return notes


def _single_top(verdict: RoundVerdict, query: RoundQuery, vira: Card | None) -> bool:
    """True when the winning card is strictly stronger than every other open card."""
    order = [p for p in verdict.plays if not p.covered and p.card is not None]
    if len(order) < 2:
        return True
    values = sorted((strength(p.card, query.ruleset, vira) for p in order if p.card), reverse=True)
    return values[0] != values[1]


@dataclass(frozen=True)
class HandRuling:
    """The hand page's answer: nos, eles, anulada, indecisa or invalido, and why."""

    result: str
    headline: str
    reasons: tuple[str, ...] = ()
    error: str | None = None
    verdict: HandVerdict | None = None
    winner_side: int | None = None

    @property
    def next_round(self) -> int | None:
        """The round to play next while the hand is undecided."""
        return self.verdict.next_round if self.verdict and self.result == "indecisa" else None


def judge_hand_query(
    query: HandQuery, refusal: str | None, teams: Sequence[str] = TEAMS
) -> HandRuling:
    """Rule on the hand page's input, in words that fit any team name."""
    if refusal:
        return HandRuling("invalido", "Resultado impossível", error=refusal)
    results = query.results
    names = {"nos": teams[0], "eles": teams[1]}
    for i in range(1, len(results)):
        if judge_hand(_labels(results[:i])).decided:
            rule = _hand_rule(results[:i], names)
            rule = rule[0].lower() + rule[1:]
            return HandRuling(
                "invalido",
                "Rodada impossível",
                error=(
                    f"A mão já estava decidida depois da {ORDINALS[i - 1]} rodada ({rule}) "
                    f"e não se joga a {ORDINALS[i]} rodada."
                ),
            )
    verdict = judge_hand(_labels(results))
    reasons = [
        f"{ORDINALS[i].capitalize()} rodada " + (f"para {names[r]}." if r in names else "empatada.")
        for i, r in enumerate(results)
    ]
    reasons.append(_hand_rule(results, names) + ".")
    if not verdict.decided:
        following = ORDINALS[len(results)]
        reasons.append(f"A mão segue: falta a {following} rodada.")
        return HandRuling(
            "indecisa",
            f"Ainda não decidida: falta a {following} rodada",
            tuple(reasons),
            verdict=verdict,
        )
    if verdict.winner is None:
        reasons.append("Mão anulada não vale ponto para ninguém, mas conta como mão dada.")
        return HandRuling("anulada", "Mão anulada: ninguém marca", tuple(reasons), verdict=verdict)
    side = SIDES.index(verdict.winner)
    reasons.append(f"A mão acabou na {ORDINALS[(verdict.decided_after or 1) - 1]} rodada.")
    return HandRuling(
        verdict.winner,
        f"Mão para {teams[side]}",
        tuple(reasons),
        verdict=verdict,
        winner_side=side,
    )


def _labels(results: Sequence[str]) -> list[str | None]:
    """Round results as the rules engine takes them: 'nos', 'eles', or None for a tie."""
    return [None if r == "empate" else r for r in results]


def _hand_rule(results: Sequence[str], names: Mapping[str, str]) -> str:
    """The rule that applies to these round results (no final stop), naming sides only after
    'para' or in parentheses, so that it reads right for any team name."""
    first, second, third = (*results, None, None, None)[:3]
    tied = "empate"
    if len(results) == 0:
        return "Nenhuma rodada jogada ainda"
    if len(results) == 1:
        if first == tied:
            return "A primeira rodada empatou: quem ganhar a segunda leva a mão"
        return "Ninguém fez duas rodadas ainda"
    if len(results) == 2:
        if first == second == tied:
            return "Empataram a primeira e a segunda: a terceira rodada decide"
        if first == second:
            return "Quem faz duas rodadas leva a mão"
        if first == tied:
            return f"Empatou a primeira: quem ganhou a segunda ({names[str(second)]}) leva a mão"
        if second == tied:
            return (
                "Ganhou a primeira e empatou a segunda: leva quem ganhou a primeira "
                f"({names[str(first)]})"
            )
        return "Uma rodada para cada lado: a terceira rodada decide"
    if first == tied:
        if third == tied:
            return "Empataram as três rodadas: a mão é anulada e ninguém marca pontos"
        return (
            "Empataram a primeira e a segunda: quem ganhou a terceira "
            f"({names[str(third)]}) leva a mão"
        )
    if third == tied:
        return (
            "Uma rodada para cada e empatou a terceira: leva quem ganhou a primeira "
            f"({names[str(first)]})"
        )
    return f"Uma rodada para cada: quem ganhou a terceira ({names[str(third)]}) leva a mão"
