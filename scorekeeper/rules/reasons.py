"""Reasons as values (a code and its arguments), the rule-book section each one applies, and
their pt-BR wording, in this one place for every caller: one table, `Code`, each member its
section and its words, so a new reason is one line of it (and a function for long words).

Sentences name a side only where any name reads right ("para Nós", "de Ana", "(Os Zapeiros)"),
never as the subject of a verb that would have to agree with it; a player, one person, is at
most the subject of a verb in the singular ("Ana jogou a vira").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from .calls import Word
from .cards import Card
from .errors import RulesError
from .scoring import Special
from .sections import BookSection, Section
from .variants import PAULISTA, SIMPLE_HAND, Variant

ORDINALS = ("primeira", "segunda", "terceira")
DEFAULT_SIDES = ("Nós", "Eles")


@dataclass(frozen=True)
class Words:
    """What a reason's words are made of: the reason, the names, and the parts most of them say."""

    reason: Reason
    names: Names

    @property
    def seat(self) -> str:
        """The name of the seat the reason means."""
        return self.names.seat(self.reason.seat)

    @property
    def other(self) -> str:
        """The name of the other seat the reason names."""
        return self.names.seat(self.reason.other)

    @property
    def side(self) -> str:
        """The name of the side the reason names."""
        return self.names.side(self.reason.side)

    @property
    def call(self) -> str:
        """The call the reason is about ('truco'), or 'pedido' when it names none."""
        return _call(self.reason)

    @property
    def points(self) -> str:
        """The reason's points, said: '1 ponto', '3 pontos'."""
        return points_text(self.reason.points)

    @property
    def nth(self) -> str:
        """The reason's round, said: 'primeira'."""
        return ordinal(self.reason.round)

    @property
    def card(self) -> Card | None:
        """The card the reason names."""
        return self.reason.card

    @property
    def rules(self) -> Variant:
        """The rule set the reason words its special hand in (Paulista unless it says)."""
        return self.reason.rules or PAULISTA

    @property
    def special(self) -> str:
        """The rule set's special hand, capitalized: 'Mão de onze'."""
        name = self.rules.special_name
        return name[:1].upper() + name[1:]


@dataclass(frozen=True)
class Wording:
    """A reason's entry in the table: the rule-book section it applies (None for input that is
    no event), its pt-BR words, and whether a special hand it names moves it to that hand's
    section (the mão de onze's, the mão de ferro's)."""

    section: Section | None
    words: Callable[[Words], str]
    by_special: bool = False


def _plays_for_players(w: Words) -> str:
    """The words of PLAYS_FOR_PLAYERS."""
    count = w.reason.players or 0
    return (
        f"Com {count} jogadores a rodada tem {count} jogadas, mas foram informadas "
        f"{w.reason.count or 0}."
    )


def _hand_already_decided(w: Words) -> str:
    """The words of HAND_ALREADY_DECIDED."""
    before = ordinal((w.reason.round or 2) - 1)
    rule = ""
    if w.reason.rule is not None:
        said = word(w.reason.rule, w.names)
        rule = f" ({said[0].lower()}{said[1:-1]})"
    return (
        f"A mão já estava decidida depois da {before} rodada{rule} e não se joga a "
        f"{w.nth} rodada."
    )


def _no_such_seat(w: Words) -> str:
    """The words of NO_SUCH_SEAT."""
    count = w.reason.players or 0
    return (
        f"Não há assento {w.reason.seat}: com {count} jogadores os assentos vão de 1 a "
        f"{count}."
    )


def _not_in_deck(w: Words) -> str:
    """The words of NOT_IN_DECK."""
    assert w.card is not None
    return f"A carta {w.card.label} ({w.card}) não existe no {w.reason.text}."


def _vira_played(w: Words) -> str:
    """The words of VIRA_PLAYED."""
    assert w.card is not None
    return (
        f"{w.seat} jogou a vira ({w.card.label}): a vira fica na mesa, não é de ninguém e "
        "não se joga."
    )


def _card_played_twice(w: Words) -> str:
    """The words of CARD_PLAYED_TWICE."""
    assert w.card is not None
    if w.reason.round is None:
        return (
            f"A carta {w.card.label} aparece duas vezes ({w.other} e {w.seat}): não há carta "
            "repetida no baralho."
        )
    return (
        f"A carta {w.card.label} já foi jogada na {w.nth} rodada (por {w.other}): não há "
        "carta repetida no baralho."
    )


def _no_call_in_special(w: Words) -> str:
    """The words of NO_CALL_IN_SPECIAL."""
    if w.reason.special is Special.FERRO:
        if w.rules is not PAULISTA:
            return "Mão de ferro: ninguém pode pedir truco; quem vencer leva a partida."
        return "Mão de ferro: ninguém pode pedir truco; ela vale 1 ponto."
    return (
        f"{w.special}: ninguém pode pedir truco; ela vale "
        f"{points_text(w.rules.special_worth)} se for jogada."
    )


def _wrong_step(w: Words) -> str:
    """The words of WRONG_STEP."""
    expected = w.reason.text or Word.call_for(w.reason.points or 3).value
    if expected == Word.TRUCO.value:
        return f"Não se pede {w.call} agora: o primeiro pedido é sempre truco."
    return f"Não se pede {w.call} agora: o próximo pedido é {expected} ({w.points})."


def _hand_starts(w: Words) -> str:
    """The words of HAND_STARTS."""
    if w.reason.special is Special.FERRO:
        if w.rules is not PAULISTA:
            return "Mão de ferro: sem truco, e quem vencer leva a partida."
        return "Mão de ferro: vale 1 ponto, sem truco."
    if w.reason.special is not None and w.reason.special.onze_side is not None:
        return (
            f"{w.special} ({w.side} com {w.rules.special_at[0]}): vale "
            f"{points_text(w.rules.special_worth)} se for jogada, {w.rules.special_run} para "
            "o outro lado se correrem, e ninguém pede truco."
        )
    return f"A mão começa valendo {w.points}."


def _manilhas_by_vira(w: Words) -> str:
    """The words of MANILHAS_BY_VIRA."""
    assert w.card is not None
    rank = w.reason.cards[0].rank.plural if w.reason.cards else "as do valor seguinte"
    return (
        f"A vira é {w.card.label}, então as manilhas são {rank}: "
        f"{_manilhas(w.reason.cards)}, da mais forte para a mais fraca."
    )


def _covered_lose(w: Words) -> str:
    """The words of COVERED_LOSE."""
    who = ", ".join(w.names.seat(s) for s in w.reason.seats)
    return f"Carta coberta não vale nada e perde para qualquer carta aberta ({who})."


def _covered_was(w: Words) -> str:
    """The words of COVERED_WAS and COVERED_WAS_MANILHA."""
    assert w.card is not None
    kind = " (uma manilha!)" if w.reason.code is Code.COVERED_WAS_MANILHA else ""
    return (
        f"A carta coberta de {w.seat} era {w.card.face}{kind}, mas coberta não conta: o "
        "valor dela não entra na disputa."
    )


def _open_cards(w: Words) -> str:
    """The words of OPEN_CARDS."""
    shown = ", ".join(_shown(p, w.names) for p in w.reason.plays)
    return f"Cartas abertas, da mais forte para a mais fraca: {shown}."


def _tied_across(w: Words) -> str:
    """The words of TIED_ACROSS."""
    shown = " e ".join(_shown(p, w.names) for p in w.reason.plays)
    return (
        f"As cartas mais fortes têm o mesmo valor e são dos dois lados ({shown}): "
        "empate. Fora as manilhas, o naipe não desempata."
    )


def _partners_on_top(w: Words) -> str:
    """The words of PARTNERS_ON_TOP."""
    shown = ", ".join(_shown(p, w.names) for p in w.reason.plays)
    return (
        f"As cartas mais fortes ({shown}) são de parceiros: a rodada é da dupla deles, "
        "sem empate."
    )


def _manilha_suit(w: Words) -> str:
    """The words of MANILHA_SUIT."""
    rule = "Entre manilhas decide o naipe (paus > copas > espadas > ouros)"
    if not w.reason.plays:
        return f"{rule}."
    return f"{rule}: {w.reason.plays[0].card.face} é a mais forte."


def _strongest(w: Words) -> str:
    """The words of STRONGEST."""
    if not w.reason.plays:
        return "A carta aberta mais forte ganha a rodada."
    return f"{w.reason.plays[0].card.face} é a carta mais forte da rodada."


def _not_a_tie(w: Words) -> str:
    """The words of NOT_A_TIE."""
    if w.reason.players == 6:
        return (
            "Não é empate: em 3x3 só empata quando as cartas mais fortes têm o mesmo "
            "valor e são de trios diferentes; aqui a mais forte é uma só."
        )
    if w.reason.players == 4:
        return (
            "Não é empate: em 2x2 só empata quando as cartas mais fortes têm o mesmo "
            "valor e são de duplas diferentes; aqui a mais forte é uma só."
        )
    return "Não é empate: só empata quando as duas cartas abertas têm o mesmo valor."


def _round_to(w: Words) -> str:
    """The words of ROUND_TO."""
    if w.reason.round == len(ORDINALS):
        return f"A rodada é de {_side_of(w.reason, w.names)}."
    return f"A rodada é de {_side_of(w.reason, w.names)}; {w.seat} abre a próxima rodada."


def _round_won(w: Words) -> str:
    """The words of ROUND_WON."""
    assert w.card is not None
    return f"{w.nth.capitalize()} rodada para {w.side}, com {w.card.face} de {w.seat}."


def _onze_decides(w: Words) -> str:
    """The words of ONZE_DECIDES."""
    if len(w.reason.seats) < 2:
        return (
            f"Decide: {_pair(w.reason, w.names)}. Joga a {w.rules.special_name} ou corre, "
            "antes de qualquer carta."
        )
    return (
        f"Decidem: {_pair(w.reason, w.names)}. Jogam a {w.rules.special_name} ou correm, "
        f"antes de qualquer carta; {_says(w.reason, w.names)}."
    )


class Code(Enum):
    """What a reason says: its section and its words. The comment above a member names the
    other fields of `Reason` its words read."""

    # Input that is not an event at all (no rule applies).
    # text
    EVENT_FORMAT = Wording(
        None,
        lambda w: (
            f"Jogada ilegível: {w.reason.text!r}. Escreva o assento, dois-pontos e a jogada, "
            "como '1:truco', '2:4p', '3:X' ou '4:X:Ko'."
        ),
    )
    # text
    UNKNOWN_WORD = Wording(
        None,
        lambda w: (
            f"Jogada desconhecida: {w.reason.text!r}. Use uma carta (como '4p'), X (coberta), "
            "X:<carta>, truco, seis, nove, doze, aceita ou corre."
        ),
    )
    # text
    BAD_CARD = Wording(
        Section.CARTAS,
        lambda w: (
            f"Carta inválida: {w.reason.text!r}. Use o valor (A 2 3 4 5 6 7 Q J K) e o naipe "
            "(p, c, e, o), como '4p'. Não há 8, 9 nem 10 no truco."
        ),
    )
    NO_SUCH_SIDE = Wording(None, lambda w: "Lado inexistente: a mesa tem dois lados.")
    # Refusals: the shape of a round or a hand.
    # text (the round asked for)
    NO_SUCH_ROUND = Wording(
        Section.RODADAS,
        lambda w: f"Não há rodada {w.reason.text}: uma mão tem até três rodadas (1, 2 ou 3).",
    )
    # count (rounds given)
    HAND_ROUNDS = Wording(
        Section.RODADAS,
        lambda w: f"Uma mão tem no máximo três rodadas, não {w.reason.count or 0}.",
    )
    # count (plays given)
    PLAYS_PER_ROUND = Wording(
        Section.RODADAS,
        lambda w: (
            "Numa rodada cada jogador joga uma carta: são 2 jogadas (1x1) ou 4 (2x2), "
            f"não {w.reason.count or 0}."
        ),
    )
    # players, count (plays given)
    PLAYS_FOR_PLAYERS = Wording(Section.RODADAS, _plays_for_players)
    # players
    NO_SUCH_MAO = Wording(
        Section.RODADAS,
        lambda w: (
            "O mão deve ser um dos jogadores da rodada: uma das jogadas de 1 a "
            f"{w.reason.players or 0}."
        ),
    )
    MAO_OPENS_FIRST_ROUND = Wording(
        Section.RODADAS,
        lambda w: "Na primeira rodada quem joga primeiro é o mão (jogada 1).",
    )
    # round (the one refused), rule (what decided the hand)
    HAND_ALREADY_DECIDED = Wording(Section.RODADAS, _hand_already_decided)
    # Refusals: turns and the end of the hand.
    # seat, players
    NO_SUCH_SEAT = Wording(Section.RODADAS, _no_such_seat)
    # seat
    HAND_OVER = Wording(
        Section.RODADAS,
        lambda w: "A mão já acabou: depois do fim da mão não se joga nem se pede mais nada.",
    )
    # seat, other (whose turn it is)
    CARD_OUT_OF_TURN = Wording(
        Section.RODADAS,
        lambda w: f"Não é a vez de {w.seat}: quem joga agora é {w.other}.",
    )
    # Refusals: cards.
    # seat
    EMPTY_PLAY = Wording(
        Section.CARTAS,
        lambda w: f"A jogada {w.reason.seat or 1} ({w.seat}) está vazia: falta a carta.",
    )
    VIRA_MISSING = Wording(
        Section.CARTAS,
        lambda w: "Com manilha variável é preciso informar a vira.",
    )
    VIRA_WITH_FIXA = Wording(
        Section.CARTAS,
        lambda w: "Com manilha fixa não há vira: as manilhas são sempre as mesmas.",
    )
    # seat
    COVERED_IN_FIRST_ROUND = Wording(
        Section.COBERTA,
        lambda w: (
            f"{w.seat} jogou coberta na primeira rodada: carta coberta só a partir da "
            "segunda rodada."
        ),
    )
    # card, text (the deck)
    NOT_IN_DECK = Wording(Section.CARTAS, _not_in_deck)
    # seat, card
    VIRA_PLAYED = Wording(Section.CARTAS, _vira_played)
    # seat, card, other (who played it), round (an earlier one)
    CARD_PLAYED_TWICE = Wording(Section.CARTAS, _card_played_twice)
    # Refusals: calls and answers.
    # seat, word, other (whose turn it is)
    CALL_OUT_OF_TURN = Wording(
        Section.TRUCO,
        lambda w: (
            f"Pedido de {w.call} fora da vez ({w.seat}): pede-se só na sua vez, antes de jogar a "
            f"carta, e a vez é de {w.other}."
        ),
    )
    # seat, word
    CARD_WHILE_CALL_WAITS = Wording(
        Section.TRUCO,
        lambda w: (
            f"O pedido de {w.call} está esperando resposta: ninguém joga carta antes da resposta."
        ),
    )
    # word
    CALL_WAITS = Wording(
        Section.TRUCO,
        lambda w: f"Já há um pedido de {w.call} esperando resposta.",
    )
    # seat, word, other (who answers)
    NOT_THE_ANSWERER = Wording(
        Section.TRUCO,
        lambda w: (
            f"Quem responde a esse pedido de {w.call} é {w.other}: o pedido vai para o próximo "
            "adversário na ordem de jogo, e o aumento volta para quem pediu."
        ),
    )
    # word
    ASKER_DOES_NOT_ANSWER = Wording(
        Section.TRUCO,
        lambda w: f"Quem responde ao pedido de {w.call} é o outro lado, não quem pediu.",
    )
    NOTHING_TO_ANSWER = Wording(
        Section.TRUCO,
        lambda w: "Não há pedido esperando resposta: não há o que aceitar.",
    )
    # special
    NO_CALL_IN_SPECIAL = Wording(Section.ONZE, _no_call_in_special, by_special=True)
    NOTHING_ABOVE_DOZE = Wording(
        Section.TRUCO,
        lambda w: (
            "Doze (12 pontos) é o máximo: não há o que pedir acima dele; ao doze só se "
            "aceita ou corre."
        ),
    )
    # side (the side that may ask)
    ONLY_ACCEPTER_ASKS = Wording(
        Section.TRUCO,
        lambda w: (
            f"Depois de um pedido aceito, só o lado que aceitou pode pedir o próximo ({w.side})."
        ),
    )
    # word (asked), points (the value the next call asks), text (that call)
    WRONG_STEP = Wording(Section.TRUCO, _wrong_step)
    # Refusals: running.
    # seat, other (whose turn it is)
    RUN_OUT_OF_TURN = Wording(
        Section.CORRER,
        lambda w: (
            f"Ninguém corre fora da vez ({w.seat}): sem pedido esperando resposta, corre-se só "
            f"na sua vez, e a vez é de {w.other}."
        ),
    )
    # word
    ASKER_DOES_NOT_RUN = Wording(
        Section.CORRER,
        lambda w: f"Quem pediu {w.call} não corre do próprio pedido: espere a resposta.",
    )
    # Refusals: the mão de onze.
    # seat, other (who decides)
    ONZE_NOT_DECIDER = Wording(
        Section.ONZE,
        lambda w: (
            f"Na {w.rules.special_name} quem diz se o lado joga ou corre é {w.other}, o "
            "primeiro do lado na ordem de jogo."
        ),
    )
    # seat, side (at eleven), seats (who decide), other (who says it)
    ONZE_FIRST = Wording(
        Section.ONZE,
        lambda w: (
            f"{w.special}: primeiro {_deciders(w.reason, w.names)}; antes da decisão ninguém "
            "joga carta nem corre."
        ),
    )
    NOT_ONZE = Wording(
        Section.ONZE,
        lambda w: (
            f"Só na {w.rules.special_name} um lado corre antes de jogar, e o outro marca "
            f"{points_text(w.rules.special_run)}."
        ),
    )
    # What happened: the hand, the calls, running.
    # special, side (mão de onze), points
    HAND_STARTS = Wording(Section.PONTOS, _hand_starts, by_special=True)
    # seat, word, points, other (who answers, None when any of the side)
    CALLED = Wording(
        Section.TRUCO,
        lambda w: (
            f"Pedido de {w.call} ({w.seat}): se aceitarem, a mão vale {w.points}. "
            f"Responde {_answerer(w.reason, w.names)}."
        ),
    )
    # seat, word, points, other (who answers, None when any of the side)
    RAISED = Wording(
        Section.TRUCO,
        lambda w: (
            f"Aumento para {w.call} ({w.seat}): aceita o pedido anterior e, se aceitarem, a mão "
            f"vale {w.points}. Responde {_answerer(w.reason, w.names)}."
        ),
    )
    # seat, word, points
    ACCEPTED = Wording(
        Section.TRUCO,
        lambda w: f"Pedido de {w.call} aceito ({w.seat}): a mão vale {w.points}.",
    )
    # seat, word, side (who scores), points
    RAN_FROM_CALL = Wording(
        Section.CORRER,
        lambda w: (
            f"Correram do {w.call} ({w.seat}): {w.points} para {w.side}, o que a mão valia antes "
            "do pedido."
        ),
    )
    # seat, side (who scores), points
    RAN_ON_TURN = Wording(
        Section.CORRER,
        lambda w: (
            f"Correram na vez de {w.seat}, sem pedido esperando resposta: {w.points} para "
            f"{w.side}, o que a mão vale agora. Quando um corre, corre o lado inteiro."
        ),
    )
    # seat, side
    ONZE_PLAYED = Wording(
        Section.ONZE,
        lambda w: (
            f"{w.special} aceita ({w.seat}): ela é jogada e vale "
            f"{points_text(w.rules.special_worth)}."
        ),
    )
    # seat, side (who scores), points
    ONZE_DECLINED = Wording(
        Section.ONZE,
        lambda w: (
            f"Correram da {w.rules.special_name} ({w.seat}): {w.points} para {w.side}, sem jogar "
            "a mão."
        ),
    )
    # One round's ruling, its seats being the plays in order (/regras#rodadas-e-empates).
    # card (the vira), cards (the manilhas, strongest first)
    MANILHAS_BY_VIRA = Wording(Section.CARTAS, _manilhas_by_vira)
    # cards (the manilhas, strongest first)
    MANILHAS_FIXED = Wording(
        Section.CARTAS,
        lambda w: (
            "Manilha fixa: as manilhas são, da mais forte para a mais fraca, "
            f"{_manilhas(w.reason.cards)}."
        ),
    )
    # seats (who played covered)
    COVERED_LOSE = Wording(Section.COBERTA, _covered_lose)
    # seat, card (its face)
    COVERED_WAS = Wording(Section.COBERTA, _covered_was)
    # seat, card (its face)
    COVERED_WAS_MANILHA = Wording(Section.COBERTA, _covered_was)
    NO_OPEN_CARD = Wording(
        Section.RODADAS,
        lambda w: "Nenhuma carta aberta na mesa: a rodada empata.",
    )
    # plays (strongest first)
    OPEN_CARDS = Wording(Section.CARTAS, _open_cards)
    # plays (the equal strongest, of both sides)
    TIED_ACROSS = Wording(Section.RODADAS, _tied_across)
    # plays (the equal strongest, of one side)
    PARTNERS_ON_TOP = Wording(Section.RODADAS, _partners_on_top)
    # plays (the winning one)
    MANILHA_SUIT = Wording(Section.CARTAS, _manilha_suit)
    # plays (the winning one)
    STRONGEST = Wording(Section.CARTAS, _strongest)
    # players
    NOT_A_TIE = Wording(Section.RODADAS, _not_a_tie)
    # round, seats (the winning side's), seat (who won and opens the next)
    ROUND_TO = Wording(Section.RODADAS, _round_to)
    THIRD_ROUND_ENDS = Wording(
        Section.RODADAS,
        lambda w: (
            "Era a terceira rodada: não há próxima, a mão termina aqui (veja quem leva a mão)."
        ),
    )
    # What happened: rounds.
    # round, side, seat, card
    ROUND_WON = Wording(Section.RODADAS, _round_won)
    # round, side
    ROUND_FOR = Wording(Section.RODADAS, lambda w: f"{w.nth.capitalize()} rodada para {w.side}.")
    # round
    ROUND_TIED = Wording(Section.RODADAS, lambda w: f"{w.nth.capitalize()} rodada empatada.")
    # round (the next one), seat
    NEXT_BY_WINNER = Wording(
        Section.RODADAS,
        lambda w: f"Quem ganhou a rodada abre a {w.nth}: {w.seat}.",
    )
    # round (the next one), seat
    NEXT_BY_MAO = Wording(
        Section.RODADAS,
        lambda w: f"Depois de rodada empatada, a próxima é aberta pelo mão ({w.seat}).",
    )
    # round (the next one), seat
    NEXT_BY_FIRST_TIE = Wording(
        Section.RODADAS,
        lambda w: (
            "Depois de rodada empatada, a próxima é aberta por quem jogou a primeira carta "
            f"do empate ({w.seat})."
        ),
    )
    # The hand from its round results (/regras#rodadas-e-empates).
    NO_ROUND_YET = Wording(Section.RODADAS, lambda w: "Nenhuma rodada jogada ainda.")
    FIRST_TIED = Wording(
        Section.RODADAS,
        lambda w: "A primeira rodada empatou: quem ganhar a segunda leva a mão.",
    )
    NOBODY_TWO_YET = Wording(Section.RODADAS, lambda w: "Ninguém fez duas rodadas ainda.")
    # side
    TWO_ROUNDS = Wording(Section.RODADAS, lambda w: "Quem faz duas rodadas leva a mão.")
    # side
    TIED_FIRST_WON_SECOND = Wording(
        Section.RODADAS,
        lambda w: f"Empatou a primeira: quem ganhou a segunda ({w.side}) leva a mão.",
    )
    # side
    WON_FIRST_TIED_SECOND = Wording(
        Section.RODADAS,
        lambda w: f"Ganhou a primeira e empatou a segunda: leva quem ganhou a primeira ({w.side}).",
    )
    FIRST_TWO_TIED = Wording(
        Section.RODADAS,
        lambda w: "Empataram a primeira e a segunda: a terceira rodada decide.",
    )
    ONE_EACH = Wording(
        Section.RODADAS,
        lambda w: "Uma rodada para cada lado: a terceira rodada decide.",
    )
    ALL_TIED = Wording(
        Section.RODADAS,
        lambda w: "Empataram as três rodadas: a mão é anulada e ninguém marca pontos.",
    )
    # side
    FIRST_TWO_TIED_THIRD_WON = Wording(
        Section.RODADAS,
        lambda w: (
            f"Empataram a primeira e a segunda: quem ganhou a terceira ({w.side}) leva a mão."
        ),
    )
    # side
    ONE_EACH_THIRD_TIED = Wording(
        Section.RODADAS,
        lambda w: (
            f"Uma rodada para cada e empatou a terceira: leva quem ganhou a primeira ({w.side})."
        ),
    )
    # side
    ONE_EACH_THIRD_WON = Wording(
        Section.RODADAS,
        lambda w: f"Uma rodada para cada: quem ganhou a terceira ({w.side}) leva a mão.",
    )
    # round (the next one)
    HAND_GOES_ON = Wording(Section.RODADAS, lambda w: f"A mão segue: falta a {w.nth} rodada.")
    # round (the last one)
    HAND_ENDED = Wording(Section.RODADAS, lambda w: f"A mão acabou na {w.nth} rodada.")
    # Where the hand stands.
    # seat
    TURN = Wording(Section.RODADAS, lambda w: f"Vez de {w.seat}.")
    # side (at eleven), seats (who decide), other (who says it, or None)
    ONZE_DECIDES = Wording(Section.ONZE, _onze_decides)
    # word, other (who answers, None when any of the side), side
    WAITING = Wording(
        Section.TRUCO,
        lambda w: (
            f"O pedido de {w.call} espera a resposta: responde {_answerer(w.reason, w.names)}."
        ),
    )
    # side, points
    SCORED = Wording(Section.PONTOS, lambda w: f"Mão para {w.side}: {w.points}.")
    VOIDED = Wording(
        Section.RODADAS,
        lambda w: "Mão anulada: ninguém marca pontos, mas ela conta como mão dada.",
    )


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
        entry = self.code.value
        if entry.by_special and self.special is Special.FERRO:
            return Section.FERRO
        if entry.by_special and self.special is not None and self.special.onze_side is not None:
            return Section.ONZE
        return entry.section


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
    entry: Wording = reason.code.value
    return entry.words(Words(reason, names))


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
