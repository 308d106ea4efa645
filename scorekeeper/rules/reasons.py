"""Reasons as values (a code and its arguments), the rule-book section each one applies, and
their pt-BR wording, in this one place for every caller.

Sentences name a side only where any name reads right ("para Nós", "de Ana", "(Os Zapeiros)"),
never as the subject of a verb that would have to agree with it; a player, one person, is at
most the subject of a verb in the singular ("Ana jogou a vira").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto

from .calls import Word
from .cards import Card
from .errors import RulesError
from .scoring import Special
from .sections import BookSection, Section
from .variants import PAULISTA, SIMPLE_HAND, Variant

ORDINALS = ("primeira", "segunda", "terceira")
DEFAULT_SIDES = ("Nós", "Eles")


class Code(Enum):
    """What a reason says; its arguments are the other fields of `Reason`."""

    # Input that is not an event at all (no rule applies).
    EVENT_FORMAT = auto()  # text
    UNKNOWN_WORD = auto()  # text
    BAD_CARD = auto()  # text
    NO_SUCH_SIDE = auto()
    # Refusals: the shape of a round or a hand.
    NO_SUCH_ROUND = auto()  # text (the round asked for)
    HAND_ROUNDS = auto()  # count (rounds given)
    PLAYS_PER_ROUND = auto()  # count (plays given)
    PLAYS_FOR_PLAYERS = auto()  # players, count (plays given)
    NO_SUCH_MAO = auto()  # players
    MAO_OPENS_FIRST_ROUND = auto()
    HAND_ALREADY_DECIDED = auto()  # round (the one refused), rule (what decided the hand)
    # Refusals: turns and the end of the hand.
    NO_SUCH_SEAT = auto()  # seat, players
    HAND_OVER = auto()  # seat
    CARD_OUT_OF_TURN = auto()  # seat, other (whose turn it is)
    # Refusals: cards.
    EMPTY_PLAY = auto()  # seat
    VIRA_MISSING = auto()
    VIRA_WITH_FIXA = auto()
    COVERED_IN_FIRST_ROUND = auto()  # seat
    NOT_IN_DECK = auto()  # card, text (the deck)
    VIRA_PLAYED = auto()  # seat, card
    CARD_PLAYED_TWICE = auto()  # seat, card, other (who played it), round (an earlier one)
    # Refusals: calls and answers.
    CALL_OUT_OF_TURN = auto()  # seat, word, other (whose turn it is)
    CARD_WHILE_CALL_WAITS = auto()  # seat, word
    CALL_WAITS = auto()  # word
    NOT_THE_ANSWERER = auto()  # seat, word, other (who answers)
    ASKER_DOES_NOT_ANSWER = auto()  # word
    NOTHING_TO_ANSWER = auto()
    NO_CALL_IN_SPECIAL = auto()  # special
    NOTHING_ABOVE_DOZE = auto()
    ONLY_ACCEPTER_ASKS = auto()  # side (the side that may ask)
    WRONG_STEP = auto()  # word (asked), points (the value the next call asks), text (that call)
    # Refusals: running.
    RUN_OUT_OF_TURN = auto()  # seat, other (whose turn it is)
    ASKER_DOES_NOT_RUN = auto()  # word
    # Refusals: the mão de onze.
    ONZE_NOT_DECIDER = auto()  # seat, other (who decides)
    ONZE_FIRST = auto()  # seat, side (at eleven), seats (who decide), other (who says it)
    NOT_ONZE = auto()
    # What happened: the hand, the calls, running.
    HAND_STARTS = auto()  # special, side (mão de onze), points
    CALLED = auto()  # seat, word, points, other (who answers, None when any of the side)
    RAISED = auto()  # seat, word, points, other (who answers, None when any of the side)
    ACCEPTED = auto()  # seat, word, points
    RAN_FROM_CALL = auto()  # seat, word, side (who scores), points
    RAN_ON_TURN = auto()  # seat, side (who scores), points
    ONZE_PLAYED = auto()  # seat, side
    ONZE_DECLINED = auto()  # seat, side (who scores), points
    # One round's ruling, its seats being the plays in order (/regras#rodadas-e-empates).
    MANILHAS_BY_VIRA = auto()  # card (the vira), cards (the manilhas, strongest first)
    MANILHAS_FIXED = auto()  # cards (the manilhas, strongest first)
    COVERED_LOSE = auto()  # seats (who played covered)
    COVERED_WAS = auto()  # seat, card (its face)
    COVERED_WAS_MANILHA = auto()  # seat, card (its face)
    NO_OPEN_CARD = auto()
    OPEN_CARDS = auto()  # plays (strongest first)
    TIED_ACROSS = auto()  # plays (the equal strongest, of both sides)
    PARTNERS_ON_TOP = auto()  # plays (the equal strongest, of one side)
    MANILHA_SUIT = auto()  # plays (the winning one)
    STRONGEST = auto()  # plays (the winning one)
    NOT_A_TIE = auto()  # players
    ROUND_TO = auto()  # round, seats (the winning side's), seat (who won and opens the next)
    THIRD_ROUND_ENDS = auto()
    # What happened: rounds.
    ROUND_WON = auto()  # round, side, seat, card
    ROUND_FOR = auto()  # round, side
    ROUND_TIED = auto()  # round
    NEXT_BY_WINNER = auto()  # round (the next one), seat
    NEXT_BY_MAO = auto()  # round (the next one), seat
    NEXT_BY_FIRST_TIE = auto()  # round (the next one), seat
    # The hand from its round results (/regras#rodadas-e-empates).
    NO_ROUND_YET = auto()
    FIRST_TIED = auto()
    NOBODY_TWO_YET = auto()
    TWO_ROUNDS = auto()  # side
    TIED_FIRST_WON_SECOND = auto()  # side
    WON_FIRST_TIED_SECOND = auto()  # side
    FIRST_TWO_TIED = auto()
    ONE_EACH = auto()
    ALL_TIED = auto()
    FIRST_TWO_TIED_THIRD_WON = auto()  # side
    ONE_EACH_THIRD_TIED = auto()  # side
    ONE_EACH_THIRD_WON = auto()  # side
    HAND_GOES_ON = auto()  # round (the next one)
    HAND_ENDED = auto()  # round (the last one)
    # Where the hand stands.
    TURN = auto()  # seat
    ONZE_DECIDES = auto()  # side (at eleven), seats (who decide), other (who says it, or None)
    WAITING = auto()  # word, other (who answers, None when any of the side), side
    SCORED = auto()  # side, points
    VOIDED = auto()


_SECTIONS: dict[Code, Section | None] = {
    Code.EVENT_FORMAT: None,
    Code.UNKNOWN_WORD: None,
    Code.BAD_CARD: Section.CARTAS,
    Code.NO_SUCH_SIDE: None,
    Code.NO_SUCH_ROUND: Section.RODADAS,
    Code.HAND_ROUNDS: Section.RODADAS,
    Code.PLAYS_PER_ROUND: Section.RODADAS,
    Code.PLAYS_FOR_PLAYERS: Section.RODADAS,
    Code.NO_SUCH_MAO: Section.RODADAS,
    Code.MAO_OPENS_FIRST_ROUND: Section.RODADAS,
    Code.HAND_ALREADY_DECIDED: Section.RODADAS,
    Code.EMPTY_PLAY: Section.CARTAS,
    Code.VIRA_MISSING: Section.CARTAS,
    Code.VIRA_WITH_FIXA: Section.CARTAS,
    Code.NO_SUCH_SEAT: Section.RODADAS,
    Code.HAND_OVER: Section.RODADAS,
    Code.CARD_OUT_OF_TURN: Section.RODADAS,
    Code.COVERED_IN_FIRST_ROUND: Section.COBERTA,
    Code.NOT_IN_DECK: Section.CARTAS,
    Code.VIRA_PLAYED: Section.CARTAS,
    Code.CARD_PLAYED_TWICE: Section.CARTAS,
    Code.CALL_OUT_OF_TURN: Section.TRUCO,
    Code.CARD_WHILE_CALL_WAITS: Section.TRUCO,
    Code.CALL_WAITS: Section.TRUCO,
    Code.NOT_THE_ANSWERER: Section.TRUCO,
    Code.ASKER_DOES_NOT_ANSWER: Section.TRUCO,
    Code.NOTHING_TO_ANSWER: Section.TRUCO,
    Code.NO_CALL_IN_SPECIAL: Section.ONZE,
    Code.NOTHING_ABOVE_DOZE: Section.TRUCO,
    Code.ONLY_ACCEPTER_ASKS: Section.TRUCO,
    Code.WRONG_STEP: Section.TRUCO,
    Code.RUN_OUT_OF_TURN: Section.CORRER,
    Code.ASKER_DOES_NOT_RUN: Section.CORRER,
    Code.ONZE_NOT_DECIDER: Section.ONZE,
    Code.ONZE_FIRST: Section.ONZE,
    Code.NOT_ONZE: Section.ONZE,
    Code.HAND_STARTS: Section.PONTOS,
    Code.CALLED: Section.TRUCO,
    Code.RAISED: Section.TRUCO,
    Code.ACCEPTED: Section.TRUCO,
    Code.RAN_FROM_CALL: Section.CORRER,
    Code.RAN_ON_TURN: Section.CORRER,
    Code.ONZE_PLAYED: Section.ONZE,
    Code.ONZE_DECLINED: Section.ONZE,
    Code.MANILHAS_BY_VIRA: Section.CARTAS,
    Code.MANILHAS_FIXED: Section.CARTAS,
    Code.COVERED_LOSE: Section.COBERTA,
    Code.COVERED_WAS: Section.COBERTA,
    Code.COVERED_WAS_MANILHA: Section.COBERTA,
    Code.NO_OPEN_CARD: Section.RODADAS,
    Code.OPEN_CARDS: Section.CARTAS,
    Code.TIED_ACROSS: Section.RODADAS,
    Code.PARTNERS_ON_TOP: Section.RODADAS,
    Code.MANILHA_SUIT: Section.CARTAS,
    Code.STRONGEST: Section.CARTAS,
    Code.NOT_A_TIE: Section.RODADAS,
    Code.ROUND_TO: Section.RODADAS,
    Code.THIRD_ROUND_ENDS: Section.RODADAS,
    Code.ROUND_WON: Section.RODADAS,
    Code.ROUND_FOR: Section.RODADAS,
    Code.ROUND_TIED: Section.RODADAS,
    Code.NEXT_BY_WINNER: Section.RODADAS,
    Code.NEXT_BY_MAO: Section.RODADAS,
    Code.NEXT_BY_FIRST_TIE: Section.RODADAS,
    Code.NO_ROUND_YET: Section.RODADAS,
    Code.FIRST_TIED: Section.RODADAS,
    Code.NOBODY_TWO_YET: Section.RODADAS,
    Code.TWO_ROUNDS: Section.RODADAS,
    Code.TIED_FIRST_WON_SECOND: Section.RODADAS,
    Code.WON_FIRST_TIED_SECOND: Section.RODADAS,
    Code.FIRST_TWO_TIED: Section.RODADAS,
    Code.ONE_EACH: Section.RODADAS,
    Code.ALL_TIED: Section.RODADAS,
    Code.FIRST_TWO_TIED_THIRD_WON: Section.RODADAS,
    Code.ONE_EACH_THIRD_TIED: Section.RODADAS,
    Code.ONE_EACH_THIRD_WON: Section.RODADAS,
    Code.HAND_GOES_ON: Section.RODADAS,
    Code.HAND_ENDED: Section.RODADAS,
    Code.TURN: Section.RODADAS,
    Code.ONZE_DECIDES: Section.ONZE,
    Code.WAITING: Section.TRUCO,
    Code.SCORED: Section.PONTOS,
    Code.VOIDED: Section.RODADAS,
}


def in_book(section: BookSection | None, rules: Variant) -> BookSection | None:
    """Where the rule book of `rules` states the rule of a Truco Paulista section (another rule
    set's section stays itself)."""
    return None if section is None else rules.book.place(section)


@dataclass(frozen=True)
class Shown:
    """A card as a reason shows it: who put it down, and whether it is a manilha."""

    seat: int
    card: Card
    manilha: bool = False


@dataclass(frozen=True)
class Reason:
    """A code and its arguments; `word(reason)` says it in pt-BR.

    Seats are numbered 1..N in play order (odd seats side 0, "nós"; even seats side 1, "eles");
    in one round's ruling, they are its plays in order. `seat` is who acted or is meant; `other`
    another seat the reason names (whose turn it is, who answers, who played a card before, who
    decides); `seats` several (the players of a side, who played covered). `cards` lists cards
    (the manilhas), `plays` cards as put down by seats, `count` how many were given, and `rule`
    the reason a refusal quotes.
    """

    code: Code
    seat: int | None = None
    other: int | None = None
    side: int | None = None
    word: Word | None = None
    card: Card | None = None
    round: int | None = None
    points: int | None = None
    special: Special | None = None
    players: int | None = None
    text: str | None = None
    cards: tuple[Card, ...] = ()
    plays: tuple[Shown, ...] = ()
    seats: tuple[int, ...] = ()
    count: int | None = None
    rule: Reason | None = None
    rules: Variant | None = None  # the rule set a special hand's reason words; None: Paulista

    @property
    def section(self) -> BookSection | None:
        """The rule-book section this reason applies (None for input that is no event): a Truco
        Mineiro section when the reason carries that rule set."""
        return self.section_in(self.rules or PAULISTA)

    def section_in(self, rules: Variant) -> BookSection | None:
        """The section this reason applies in the rule book of `rules`."""
        return in_book(self._paulista_section(), rules)

    def _paulista_section(self) -> Section | None:
        """The Truco Paulista section this reason applies."""
        if self.code in (Code.NO_CALL_IN_SPECIAL, Code.HAND_STARTS):
            if self.special is Special.FERRO:
                return Section.FERRO
            if self.special is not None and self.special.onze_side is not None:
                return Section.ONZE
            if self.code is Code.HAND_STARTS:
                return Section.PONTOS
        return _SECTIONS[self.code]


@dataclass(frozen=True)
class Names:
    """How sentences name the sides and the seats: the table's names, else 'Nós 1', 'Eles 1'."""

    sides: tuple[str, ...] = DEFAULT_SIDES
    seats: tuple[str, ...] = ()

    def side(self, side: int | None) -> str:
        """A side's name."""
        return self.sides[side or 0]

    def seat(self, seat: int | None) -> str:
        """A seat's player name, else (no name, or one that another seat has too) its side's
        name and number ('Eles 2' for seat 4)."""
        number = seat or 1
        given = [name.strip() for name in self.seats]
        name = given[number - 1] if number - 1 < len(given) else ""
        if name and given.count(name) == 1:
            return name
        return f"{self.sides[(number - 1) % 2]} {(number - 1) // 2 + 1}"


DEFAULT_NAMES = Names()


class RuleBroken(RulesError):
    """A refusal that carries its structured reason; the message is the reason in pt-BR."""

    def __init__(self, reason: Reason, names: Names = DEFAULT_NAMES) -> None:
        """Keep the reason and word it."""
        super().__init__(word(reason, names))
        self.reason = reason


def explain(error: RulesError, names: Names = DEFAULT_NAMES) -> str:
    """A refusal in pt-BR: its reason worded with `names` when it carries one, else its text."""
    return word(error.reason, names) if isinstance(error, RuleBroken) else str(error)


def points_text(points: int | None) -> str:
    """'1 ponto', '3 pontos'."""
    value = points or 0
    return f"{value} ponto" if value == 1 else f"{value} pontos"


def ordinal(round_number: int | None) -> str:
    """'primeira', 'segunda', 'terceira'."""
    return ORDINALS[(round_number or 1) - 1]


def _call(reason: Reason) -> str:
    """The call a reason is about ('truco'), or 'pedido' when it names none."""
    return reason.word.value if reason.word is not None else "pedido"


def _answerer(reason: Reason, names: Names) -> str:
    """Who answers a call (/regras#truco): a player (the default) or any player of the other
    side (the variant resposta=qualquer)."""
    if reason.other is not None:
        return names.seat(reason.other)
    return "qualquer jogador do outro lado, e vale a primeira resposta"


def _shown(play: Shown, names: Names) -> str:
    """A card as put down, e.g. '4♣ (manilha) de Ana'."""
    kind = " (manilha)" if play.manilha else ""
    return f"{play.card.face}{kind} de {names.seat(play.seat)}"


def _manilhas(cards: tuple[Card, ...]) -> str:
    """The manilhas by face and nickname, e.g. '5♣ (zap), 5♥ (copas), ...'."""
    return ", ".join(f"{c.face} ({c.suit.manilha_name})" for c in cards)


def _side_of(reason: Reason, names: Names) -> str:
    """The players of a side in a round, e.g. 'Ana e Bia' (one player: the one who won)."""
    players = sorted(names.seat(s) for s in reason.seats)
    return " e ".join(players) if len(players) > 1 else names.seat(reason.seat)


def _pair(reason: Reason, names: Names) -> str:
    """Who decides a mão de onze, in play order: 'Zé' (1x1) or 'Zé e Bia' (2x2)."""
    return " e ".join(names.seat(s) for s in reason.seats)


def _says(reason: Reason, names: Names) -> str:
    """Who says a pair's mão de onze decision: its first player (the default), or either of
    them, the first answer counting (the variant resposta=qualquer)."""
    if reason.other is not None:
        return f"quem diz é {names.seat(reason.other)}"
    return "vale a primeira resposta"


def _deciders(reason: Reason, names: Names) -> str:
    """'Zé decide se joga ou corre', or for a pair 'Zé e Bia decidem se jogam ou correm (quem
    diz é Zé)'."""
    if len(reason.seats) < 2:
        return f"{_pair(reason, names)} decide se joga ou corre"
    return f"{_pair(reason, names)} decidem se jogam ou correm ({_says(reason, names)})"


def word(reason: Reason, names: Names = DEFAULT_NAMES) -> str:
    """The reason in pt-BR, as one sentence (or two)."""
    seat, other, side = names.seat(reason.seat), names.seat(reason.other), names.side(reason.side)
    call, points = _call(reason), points_text(reason.points)
    nth = ordinal(reason.round)
    card = reason.card
    rules = reason.rules or PAULISTA
    special = rules.special_name[:1].upper() + rules.special_name[1:]
    match reason.code:
        case Code.EVENT_FORMAT:
            return (
                f"Jogada ilegível: {reason.text!r}. Escreva o assento, dois-pontos e a jogada, "
                "como '1:truco', '2:4p', '3:X' ou '4:X:Ko'."
            )
        case Code.UNKNOWN_WORD:
            return (
                f"Jogada desconhecida: {reason.text!r}. Use uma carta (como '4p'), X (coberta), "
                "X:<carta>, truco, seis, nove, doze, aceita ou corre."
            )
        case Code.BAD_CARD:
            return (
                f"Carta inválida: {reason.text!r}. Use o valor (A 2 3 4 5 6 7 Q J K) e o naipe "
                "(p, c, e, o), como '4p'. Não há 8, 9 nem 10 no truco."
            )
        case Code.NO_SUCH_SIDE:
            return "Lado inexistente: a mesa tem dois lados."
        case Code.NO_SUCH_ROUND:
            return f"Não há rodada {reason.text}: uma mão tem até três rodadas (1, 2 ou 3)."
        case Code.HAND_ROUNDS:
            return f"Uma mão tem no máximo três rodadas, não {reason.count or 0}."
        case Code.PLAYS_PER_ROUND:
            return (
                "Numa rodada cada jogador joga uma carta: são 2 jogadas (1x1) ou 4 (2x2), "
                f"não {reason.count or 0}."
            )
        case Code.PLAYS_FOR_PLAYERS:
            count = reason.players or 0
            return (
                f"Com {count} jogadores a rodada tem {count} jogadas, mas foram informadas "
                f"{reason.count or 0}."
            )
        case Code.NO_SUCH_MAO:
            return (
                "O mão deve ser um dos jogadores da rodada: uma das jogadas de 1 a "
                f"{reason.players or 0}."
            )
        case Code.MAO_OPENS_FIRST_ROUND:
            return "Na primeira rodada quem joga primeiro é o mão (jogada 1)."
        case Code.HAND_ALREADY_DECIDED:
            before = ordinal((reason.round or 2) - 1)
            rule = ""
            if reason.rule is not None:
                said = word(reason.rule, names)
                rule = f" ({said[0].lower()}{said[1:-1]})"
            return (
                f"A mão já estava decidida depois da {before} rodada{rule} e não se joga a "
                f"{nth} rodada."
            )
        case Code.NO_SUCH_SEAT:
            count = reason.players or 0
            return (
                f"Não há assento {reason.seat}: com {count} jogadores os assentos vão de 1 a "
                f"{count}."
            )
        case Code.HAND_OVER:
            return "A mão já acabou: depois do fim da mão não se joga nem se pede mais nada."
        case Code.CARD_OUT_OF_TURN:
            return f"Não é a vez de {seat}: quem joga agora é {other}."
        case Code.EMPTY_PLAY:
            return f"A jogada {reason.seat or 1} ({seat}) está vazia: falta a carta."
        case Code.VIRA_MISSING:
            return "Com manilha variável é preciso informar a vira."
        case Code.VIRA_WITH_FIXA:
            return "Com manilha fixa não há vira: as manilhas são sempre as mesmas."
        case Code.COVERED_IN_FIRST_ROUND:
            return (
                f"{seat} jogou coberta na primeira rodada: carta coberta só a partir da "
                "segunda rodada."
            )
        case Code.NOT_IN_DECK:
            assert card is not None
            return f"A carta {card.label} ({card}) não existe no {reason.text}."
        case Code.VIRA_PLAYED:
            assert card is not None
            return (
                f"{seat} jogou a vira ({card.label}): a vira fica na mesa, não é de ninguém e "
                "não se joga."
            )
        case Code.CARD_PLAYED_TWICE:
            assert card is not None
            if reason.round is None:
                return (
                    f"A carta {card.label} aparece duas vezes ({other} e {seat}): não há carta "
                    "repetida no baralho."
                )
            return (
                f"A carta {card.label} já foi jogada na {nth} rodada (por {other}): não há "
                "carta repetida no baralho."
            )
        case Code.CALL_OUT_OF_TURN:
            return (
                f"Pedido de {call} fora da vez ({seat}): pede-se só na sua vez, antes de jogar a "
                f"carta, e a vez é de {other}."
            )
        case Code.CARD_WHILE_CALL_WAITS:
            return (
                f"O pedido de {call} está esperando resposta: ninguém joga carta antes da resposta."
            )
        case Code.CALL_WAITS:
            return f"Já há um pedido de {call} esperando resposta."
        case Code.NOT_THE_ANSWERER:
            return (
                f"Quem responde a esse pedido de {call} é {other}: o pedido vai para o próximo "
                "adversário na ordem de jogo, e o aumento volta para quem pediu."
            )
        case Code.ASKER_DOES_NOT_ANSWER:
            return f"Quem responde ao pedido de {call} é o outro lado, não quem pediu."
        case Code.NOTHING_TO_ANSWER:
            return "Não há pedido esperando resposta: não há o que aceitar."
        case Code.NO_CALL_IN_SPECIAL:
            if reason.special is Special.FERRO:
                if rules is not PAULISTA:
                    return "Mão de ferro: ninguém pode pedir truco; quem vencer leva a partida."
                return "Mão de ferro: ninguém pode pedir truco; ela vale 1 ponto."
            return (
                f"{special}: ninguém pode pedir truco; ela vale "
                f"{points_text(rules.special_worth)} se for jogada."
            )
        case Code.NOTHING_ABOVE_DOZE:
            return (
                "Doze (12 pontos) é o máximo: não há o que pedir acima dele; ao doze só se "
                "aceita ou corre."
            )
        case Code.ONLY_ACCEPTER_ASKS:
            return (
                f"Depois de um pedido aceito, só o lado que aceitou pode pedir o próximo ({side})."
            )
        case Code.WRONG_STEP:
            expected = reason.text or Word.call_for(reason.points or 3).value
            if expected == Word.TRUCO.value:
                return f"Não se pede {call} agora: o primeiro pedido é sempre truco."
            return f"Não se pede {call} agora: o próximo pedido é {expected} ({points})."
        case Code.RUN_OUT_OF_TURN:
            return (
                f"Ninguém corre fora da vez ({seat}): sem pedido esperando resposta, corre-se só "
                f"na sua vez, e a vez é de {other}."
            )
        case Code.ASKER_DOES_NOT_RUN:
            return f"Quem pediu {call} não corre do próprio pedido: espere a resposta."
        case Code.ONZE_NOT_DECIDER:
            return (
                f"Na {rules.special_name} quem diz se o lado joga ou corre é {other}, o "
                "primeiro do lado na ordem de jogo."
            )
        case Code.ONZE_FIRST:
            return (
                f"{special}: primeiro {_deciders(reason, names)}; antes da decisão ninguém "
                "joga carta nem corre."
            )
        case Code.NOT_ONZE:
            return (
                f"Só na {rules.special_name} um lado corre antes de jogar, e o outro marca "
                f"{points_text(rules.special_run)}."
            )
        case Code.HAND_STARTS:
            if reason.special is Special.FERRO:
                if rules is not PAULISTA:
                    return "Mão de ferro: sem truco, e quem vencer leva a partida."
                return "Mão de ferro: vale 1 ponto, sem truco."
            if reason.special is not None and reason.special.onze_side is not None:
                return (
                    f"{special} ({side} com {rules.special_at[0]}): vale "
                    f"{points_text(rules.special_worth)} se for jogada, {rules.special_run} para "
                    "o outro lado se correrem, e ninguém pede truco."
                )
            return f"A mão começa valendo {points}."
        case Code.CALLED:
            return (
                f"Pedido de {call} ({seat}): se aceitarem, a mão vale {points}. "
                f"Responde {_answerer(reason, names)}."
            )
        case Code.RAISED:
            return (
                f"Aumento para {call} ({seat}): aceita o pedido anterior e, se aceitarem, a mão "
                f"vale {points}. Responde {_answerer(reason, names)}."
            )
        case Code.ACCEPTED:
            return f"Pedido de {call} aceito ({seat}): a mão vale {points}."
        case Code.RAN_FROM_CALL:
            return (
                f"Correram do {call} ({seat}): {points} para {side}, o que a mão valia antes "
                "do pedido."
            )
        case Code.RAN_ON_TURN:
            return (
                f"Correram na vez de {seat}, sem pedido esperando resposta: {points} para "
                f"{side}, o que a mão vale agora. Quando um corre, corre o lado inteiro."
            )
        case Code.ONZE_PLAYED:
            return (
                f"{special} aceita ({seat}): ela é jogada e vale "
                f"{points_text(rules.special_worth)}."
            )
        case Code.ONZE_DECLINED:
            return (
                f"Correram da {rules.special_name} ({seat}): {points} para {side}, sem jogar a mão."
            )
        case Code.MANILHAS_BY_VIRA:
            assert card is not None
            rank = reason.cards[0].rank.plural if reason.cards else "as do valor seguinte"
            return (
                f"A vira é {card.label}, então as manilhas são {rank}: "
                f"{_manilhas(reason.cards)}, da mais forte para a mais fraca."
            )
        case Code.MANILHAS_FIXED:
            return (
                "Manilha fixa: as manilhas são, da mais forte para a mais fraca, "
                f"{_manilhas(reason.cards)}."
            )
        case Code.COVERED_LOSE:
            who = ", ".join(names.seat(s) for s in reason.seats)
            return f"Carta coberta não vale nada e perde para qualquer carta aberta ({who})."
        case Code.COVERED_WAS | Code.COVERED_WAS_MANILHA:
            assert card is not None
            kind = " (uma manilha!)" if reason.code is Code.COVERED_WAS_MANILHA else ""
            return (
                f"A carta coberta de {seat} era {card.face}{kind}, mas coberta não conta: o "
                "valor dela não entra na disputa."
            )
        case Code.NO_OPEN_CARD:
            return "Nenhuma carta aberta na mesa: a rodada empata."
        case Code.OPEN_CARDS:
            shown = ", ".join(_shown(p, names) for p in reason.plays)
            return f"Cartas abertas, da mais forte para a mais fraca: {shown}."
        case Code.TIED_ACROSS:
            shown = " e ".join(_shown(p, names) for p in reason.plays)
            return (
                f"As cartas mais fortes têm o mesmo valor e são dos dois lados ({shown}): "
                "empate. Fora as manilhas, o naipe não desempata."
            )
        case Code.PARTNERS_ON_TOP:
            shown = ", ".join(_shown(p, names) for p in reason.plays)
            return (
                f"As cartas mais fortes ({shown}) são de parceiros: a rodada é da dupla deles, "
                "sem empate."
            )
        case Code.MANILHA_SUIT:
            rule = "Entre manilhas decide o naipe (paus > copas > espadas > ouros)"
            if not reason.plays:
                return f"{rule}."
            return f"{rule}: {reason.plays[0].card.face} é a mais forte."
        case Code.STRONGEST:
            if not reason.plays:
                return "A carta aberta mais forte ganha a rodada."
            return f"{reason.plays[0].card.face} é a carta mais forte da rodada."
        case Code.NOT_A_TIE:
            if reason.players == 6:
                return (
                    "Não é empate: em 3x3 só empata quando as cartas mais fortes têm o mesmo "
                    "valor e são de trios diferentes; aqui a mais forte é uma só."
                )
            if reason.players == 4:
                return (
                    "Não é empate: em 2x2 só empata quando as cartas mais fortes têm o mesmo "
                    "valor e são de duplas diferentes; aqui a mais forte é uma só."
                )
            return "Não é empate: só empata quando as duas cartas abertas têm o mesmo valor."
        case Code.ROUND_TO:
            if reason.round == len(ORDINALS):
                return f"A rodada é de {_side_of(reason, names)}."
            return f"A rodada é de {_side_of(reason, names)}; {seat} abre a próxima rodada."
        case Code.THIRD_ROUND_ENDS:
            return (
                "Era a terceira rodada: não há próxima, a mão termina aqui (veja quem leva a mão)."
            )
        case Code.ROUND_WON:
            assert card is not None
            return f"{nth.capitalize()} rodada para {side}, com {card.face} de {seat}."
        case Code.ROUND_FOR:
            return f"{nth.capitalize()} rodada para {side}."
        case Code.ROUND_TIED:
            return f"{nth.capitalize()} rodada empatada."
        case Code.NEXT_BY_WINNER:
            return f"Quem ganhou a rodada abre a {nth}: {seat}."
        case Code.NEXT_BY_MAO:
            return f"Depois de rodada empatada, a próxima é aberta pelo mão ({seat})."
        case Code.NEXT_BY_FIRST_TIE:
            return (
                "Depois de rodada empatada, a próxima é aberta por quem jogou a primeira carta "
                f"do empate ({seat})."
            )
        case Code.NO_ROUND_YET:
            return "Nenhuma rodada jogada ainda."
        case Code.FIRST_TIED:
            return "A primeira rodada empatou: quem ganhar a segunda leva a mão."
        case Code.NOBODY_TWO_YET:
            return "Ninguém fez duas rodadas ainda."
        case Code.TWO_ROUNDS:
            return "Quem faz duas rodadas leva a mão."
        case Code.TIED_FIRST_WON_SECOND:
            return f"Empatou a primeira: quem ganhou a segunda ({side}) leva a mão."
        case Code.WON_FIRST_TIED_SECOND:
            return f"Ganhou a primeira e empatou a segunda: leva quem ganhou a primeira ({side})."
        case Code.FIRST_TWO_TIED:
            return "Empataram a primeira e a segunda: a terceira rodada decide."
        case Code.ONE_EACH:
            return "Uma rodada para cada lado: a terceira rodada decide."
        case Code.ALL_TIED:
            return "Empataram as três rodadas: a mão é anulada e ninguém marca pontos."
        case Code.FIRST_TWO_TIED_THIRD_WON:
            return f"Empataram a primeira e a segunda: quem ganhou a terceira ({side}) leva a mão."
        case Code.ONE_EACH_THIRD_TIED:
            return (
                f"Uma rodada para cada e empatou a terceira: leva quem ganhou a primeira ({side})."
            )
        case Code.ONE_EACH_THIRD_WON:
            return f"Uma rodada para cada: quem ganhou a terceira ({side}) leva a mão."
        case Code.HAND_GOES_ON:
            return f"A mão segue: falta a {nth} rodada."
        case Code.HAND_ENDED:
            return f"A mão acabou na {nth} rodada."
        case Code.TURN:
            return f"Vez de {seat}."
        case Code.ONZE_DECIDES:
            if len(reason.seats) < 2:
                return (
                    f"Decide: {_pair(reason, names)}. Joga a {rules.special_name} ou corre, "
                    "antes de qualquer carta."
                )
            return (
                f"Decidem: {_pair(reason, names)}. Jogam a {rules.special_name} ou correm, "
                f"antes de qualquer carta; {_says(reason, names)}."
            )
        case Code.WAITING:
            return f"O pedido de {call} espera a resposta: responde {_answerer(reason, names)}."
        case Code.SCORED:
            return f"Mão para {side}: {points}."
        case Code.VOIDED:
            return "Mão anulada: ninguém marca pontos, mas ela conta como mão dada."


def hand_note(
    special: Special,
    *,
    accepted: Word | None = None,
    ran_from: Word | None = None,
    ran_on_turn: bool = False,
    declined: bool = False,
    special_name: str = "mão de onze",
) -> str:
    """How a finished hand went, in a few words: 'truco aceito', 'correram do seis', 'mão de
    onze jogada', 'correram da mão de onze', 'mão de ferro', 'mão simples'; `special_name`
    names the special hand ('mão de dez' in Mineiro)."""
    if declined:
        return f"correram da {special_name}"
    if special is Special.FERRO:
        return "mão de ferro"
    if special.onze_side is not None:
        return f"{special_name} jogada" + (", correram na vez" if ran_on_turn else "")
    if ran_from is not None:
        return f"correram do {ran_from.value}"
    played = f"{accepted.value} aceito" if accepted is not None else SIMPLE_HAND
    return f"{played}, correram na vez" if ran_on_turn else played
