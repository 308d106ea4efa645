"""Judging a whole hand from its events: cards, calls and answers in the order they happened.

The rule book's /regras#rodadas-e-empates, #carta-coberta, #truco, #correr, #mao-de-onze,
#mao-de-ferro and #pontos, with the variants the RuleSet names (who opens after a tie, who
answers for a side: docs/rules-sources.md).

Each round is decided by `judge_round`, the hand by `hands.decide` (what `judge_hand` uses), the
value and the recorded outcome by `Bet`. The mão de onze: the side at eleven decides before
anything else (in 2x2 the pair decides together, partners seeing each other's cards); its
decider (the first of the side in play order, or any of its players under answerer="qualquer")
says `aceita` to play (worth 3) or `corre` to run (the other side scores 1). No card is put down
and nobody runs before that decision. After it a `corre` is a run on one's turn like in any
hand: the other side scores the 3 the hand is worth.

The rule set (`Variant`) gives the ladder and its words (Truco Mineiro: 2, 4, 6, 10, 12 with
truco, seis, dez, doze), the special hand (Mineiro: the mão de dez, worth 4, run 2) and the
seats (Mineiro also 3x3: seats 1, 3, 5 against 2, 4, 6).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum

from .calls import Word
from .cards import Card
from .decks import check_vira
from .errors import RulesError
from .events import CardEvent, Event, IllegalEvent, WordEvent, parse_event, split_events
from .hands import SIDE_LABELS, HandVerdict, Result, decide, judge_hand
from .reasons import DEFAULT_NAMES, Code, Reason, RuleBroken, hand_note
from .rounds import RoundVerdict, card_refusal, judge_round
from .ruleset import RuleSet
from .scoring import Outcome, Special
from .truco import Bet
from .variants import PAULISTA, Variant


class Ending(Enum):
    """How a finished hand ended."""

    ROUNDS = "rodadas"
    RAN = "correram"
    DECLINED = "onze_recusada"


@dataclass(frozen=True)
class HandSetup:
    """What the table knows before the first event: rules, players, vira, mão, kind of hand
    and the rule set."""

    ruleset: RuleSet
    players: int
    vira: Card | None
    mao: int
    special: Special
    variant: Variant = PAULISTA

    @property
    def worded(self) -> Variant | None:
        """The rule set its reasons word a special hand by (None: Paulista, the default)."""
        return None if self.variant is PAULISTA else self.variant

    def side(self, seat: int) -> int:
        """The side of a seat: 0 for odd seats ("nós"), 1 for even seats ("eles"), in 1x1, 2x2
        and 3x3 alike."""
        return (seat - 1) % 2

    def after(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places after `seat` in play order."""
        return (seat - 1 + steps) % self.players + 1

    def order(self, opener: int) -> tuple[int, ...]:
        """Every seat in play order, starting with `opener`."""
        return tuple(self.after(opener, i) for i in range(self.players))

    @property
    def onze_decider(self) -> int | None:
        """Who decides the mão de onze: the first seat of the side at eleven in play order from
        the mão (/regras#mao-de-onze); None when any player of the side may (the variant) or no
        mão de onze."""
        side = self.special.onze_side
        if side is None or (self.ruleset.anyone_answers and self.players > 2):
            return None
        return next(seat for seat in self.order(self.mao) if self.side(seat) == side)

    @property
    def onze_seats(self) -> tuple[int, ...]:
        """The players of the side at eleven, who decide the mão de onze together, in play order
        from the mão (/regras#mao-de-onze); empty when no mão de onze."""
        side = self.special.onze_side
        if side is None:
            return ()
        return tuple(seat for seat in self.order(self.mao) if self.side(seat) == side)

    def answerer(self, caller: int, raised_from: int | None) -> int | None:
        """Who answers a call by `caller`: the next opponent in play order, or for a raise the
        player who asked (/regras#truco); None when any player of the other side may (the
        variant)."""
        if self.players > 2 and self.ruleset.anyone_answers:
            return None
        return self.after(caller) if raised_from is None else raised_from


@dataclass(frozen=True)
class RoundResult:
    """A finished round: who opened it, its cards, the ruling and who opens the next one."""

    number: int
    opener: int
    plays: tuple[CardEvent, ...]
    verdict: RoundVerdict
    winner: int | None
    winning_seat: int | None
    next_opener: int

    @property
    def label(self) -> str:
        """'nos', 'eles' or 'empate'."""
        return "empate" if self.winner is None else SIDE_LABELS[self.winner]


@dataclass(frozen=True)
class HandState:
    """Where a hand stands after some legal events; `apply` takes the next one or refuses it."""

    setup: HandSetup
    bet: Bet
    opener: int
    rounds: tuple[RoundResult, ...] = ()
    plays: tuple[CardEvent, ...] = ()
    caller: int | None = None
    answerer: int | None = None
    onze_open: bool = False
    outcome: Outcome | None = None
    ending: Ending | None = None
    ran_from: Word | None = None
    log: tuple[Reason, ...] = ()

    @classmethod
    def start(cls, setup: HandSetup) -> HandState:
        """The hand before its first event."""
        special = setup.special
        worth = special.worth_in(setup.variant)
        opening = Reason(
            Code.HAND_STARTS,
            special=special,
            side=special.onze_side,
            points=worth,
            rules=setup.worded,
        )
        return cls(
            setup,
            Bet.start(special, setup.variant),
            setup.mao,
            onze_open=special.onze_side is not None,
            log=(opening,),
        )

    @property
    def over(self) -> bool:
        """True once the hand has ended (decided by its rounds, or someone ran)."""
        return self.outcome is not None

    @property
    def turn(self) -> int | None:
        """The seat to put down the next card (it may have to wait for an answer first)."""
        if self.over:
            return None
        return self.setup.after(self.opener, len(self.plays))

    @property
    def results(self) -> tuple[int | None, ...]:
        """The finished rounds' winning sides (None for a tie)."""
        return tuple(r.winner for r in self.rounds)

    @property
    def round_number(self) -> int:
        """The round being played (the last one once the hand is over)."""
        return max(len(self.rounds), 1) if self.over else len(self.rounds) + 1

    @property
    def card_turn(self) -> int | None:
        """The seat that may put down a card now: the turn's, unless a call waits, the mão de
        onze is not decided yet or the hand is over (/regras#truco: no card is played while a
        call waits; /regras#mao-de-onze: nothing is played before the decision)."""
        return None if self.caller is not None or self.onze_open else self.turn

    @property
    def seen(self) -> frozenset[Card]:
        """The cards nobody may put down any more: the vira and every face already shown."""
        faces = [p.card for r in self.rounds for p in r.plays] + [p.card for p in self.plays]
        vira = [] if self.setup.vira is None else [self.setup.vira]
        return frozenset(c for c in faces + vira if c is not None)

    def speakers(self) -> tuple[tuple[int, tuple[Word, ...]], ...]:
        """Every seat that may say something now, with the words it may say, in seat order."""
        said = ((seat, self.legal_words(seat)) for seat in range(1, self.setup.players + 1))
        return tuple((seat, words) for seat, words in said if words)

    def answerers(self) -> tuple[int, ...]:
        """The seats that may answer the waiting call (none when nothing waits)."""
        if self.over or self.caller is None:
            return ()
        if self.answerer is not None:
            return (self.answerer,)
        side = self.setup.side(self.caller)
        return tuple(s for s in self.setup.order(self.caller) if self.setup.side(s) != side)

    def refusal(self, event: Event) -> Reason | None:
        """Why `event` is illegal now, or None when it is legal."""
        try:
            self.apply(event)
        except RuleBroken as broken:
            return broken.reason
        return None

    def legal_words(self, seat: int) -> tuple[Word, ...]:
        """The words `seat` may say now."""
        return tuple(w for w in Word if self.refusal(WordEvent(seat, w)) is None)

    def if_run(self, seat: int) -> Outcome | None:
        """What the board would record if `seat` ran now, or None when it may not run."""
        try:
            return self.apply(WordEvent(seat, Word.CORRE)).outcome
        except RuleBroken:
            return None

    def apply(self, event: Event) -> HandState:
        """The state after `event`; RuleBroken with the reason when the event is illegal."""
        seat, players = event.seat, self.setup.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= players:
            raise RuleBroken(Reason(Code.NO_SUCH_SEAT, seat=seat, players=players))
        if self.over:
            raise RuleBroken(Reason(Code.HAND_OVER, seat=seat))
        if self.caller is not None:
            return self._answer(event)
        if self.onze_open:
            return self._before_onze_decision(event)
        if isinstance(event, CardEvent):
            return self._card(event)
        if event.word is Word.ACEITA:
            raise RuleBroken(Reason(Code.NOTHING_TO_ANSWER, seat=seat))
        if event.word is Word.CORRE:
            return self._run_on_turn(event)
        return self._call(event)

    def _end(self, outcome: Outcome, ending: Ending, *reasons: Reason) -> HandState:
        """The hand over, with the outcome the board records."""
        return replace(
            self,
            outcome=outcome,
            ending=ending,
            caller=None,
            answerer=None,
            onze_open=False,
            log=self.log + reasons,
        )

    def _answer(self, event: Event) -> HandState:
        """An answer to the waiting call: accept, run or raise, from the side that answers."""
        waiting, seat = self.bet.waiting, event.seat
        if isinstance(event, CardEvent):
            raise RuleBroken(Reason(Code.CARD_WHILE_CALL_WAITS, seat=seat, word=waiting))
        side = self.setup.side(seat)
        if side == self.bet.asker:
            if event.word is Word.CORRE:
                raise RuleBroken(Reason(Code.ASKER_DOES_NOT_RUN, seat=seat, word=waiting))
            if event.word is Word.ACEITA:
                raise RuleBroken(Reason(Code.ASKER_DOES_NOT_ANSWER, seat=seat, word=waiting))
            raise RuleBroken(Reason(Code.CALL_WAITS, seat=seat, word=waiting))
        if self.answerer is not None and seat != self.answerer:
            raise RuleBroken(
                Reason(Code.NOT_THE_ANSWERER, seat=seat, word=waiting, other=self.answerer)
            )
        if event.word is Word.ACEITA:
            bet = self.bet.accept(side)
            accepted = Reason(Code.ACCEPTED, seat=seat, word=waiting, points=bet.worth)
            return replace(self, bet=bet, caller=None, answerer=None, log=self.log + (accepted,))
        if event.word is Word.CORRE:
            outcome = self.bet.run(side)
            ran = Reason(
                Code.RAN_FROM_CALL, seat=seat, word=waiting, side=outcome.side, points=outcome.gain
            )
            return replace(self._end(outcome, Ending.RAN, ran), ran_from=waiting)
        bet = self.bet.raise_(side, event.word)
        answerer = self.setup.answerer(seat, self.caller)
        raised = Reason(Code.RAISED, seat=seat, word=event.word, points=bet.pending, other=answerer)
        return replace(self, bet=bet, caller=seat, answerer=answerer, log=self.log + (raised,))

    def _call(self, event: WordEvent) -> HandState:
        """A call on one's turn, before one's card, with nothing waiting."""
        seat = event.seat
        if not self.setup.special.calls_allowed:
            raise RuleBroken(
                Reason(
                    Code.NO_CALL_IN_SPECIAL,
                    seat=seat,
                    special=self.setup.special,
                    rules=self.setup.worded,
                )
            )
        if seat != self.turn:
            raise RuleBroken(
                Reason(Code.CALL_OUT_OF_TURN, seat=seat, word=event.word, other=self.turn)
            )
        bet = self.bet.ask(self.setup.side(seat), event.word)
        answerer = self.setup.answerer(seat, None)
        called = Reason(Code.CALLED, seat=seat, word=event.word, points=bet.pending, other=answerer)
        return replace(self, bet=bet, caller=seat, answerer=answerer, log=self.log + (called,))

    def _run_on_turn(self, event: WordEvent) -> HandState:
        """Running on one's turn with nothing waiting: the other side scores the value now."""
        seat = event.seat
        if seat != self.turn:
            raise RuleBroken(Reason(Code.RUN_OUT_OF_TURN, seat=seat, other=self.turn))
        outcome = self.bet.run(self.setup.side(seat))
        ran = Reason(Code.RAN_ON_TURN, seat=seat, side=outcome.side, points=outcome.gain)
        return self._end(outcome, Ending.RAN, ran)

    def _before_onze_decision(self, event: Event) -> HandState:
        """Before the side at eleven has decided, only its decision may come: no card, no run
        and no call (/regras#mao-de-onze)."""
        setup = self.setup
        deciding = setup.side(event.seat) == setup.special.onze_side
        if isinstance(event, WordEvent):
            if deciding and event.word in (Word.ACEITA, Word.CORRE):
                return self._onze_decision(event)
            if event.word.is_call:
                return self._call(event)
        raise RuleBroken(
            Reason(
                Code.ONZE_FIRST,
                seat=event.seat,
                side=setup.special.onze_side,
                seats=setup.onze_seats,
                other=setup.onze_decider,
                rules=setup.worded,
            )
        )

    def _onze_decision(self, event: WordEvent) -> HandState:
        """The side at eleven plays (aceita) or runs (corre) before the first card."""
        seat, decider = event.seat, self.setup.onze_decider
        if decider is not None and seat != decider:
            raise RuleBroken(
                Reason(Code.ONZE_NOT_DECIDER, seat=seat, other=decider, rules=self.setup.worded)
            )
        side = self.setup.side(seat)
        if event.word is Word.CORRE:
            outcome = self.bet.decline()
            declined = Reason(
                Code.ONZE_DECLINED,
                seat=seat,
                side=outcome.side,
                points=outcome.gain,
                rules=self.setup.worded,
            )
            return self._end(outcome, Ending.DECLINED, declined)
        played = Reason(Code.ONZE_PLAYED, seat=seat, side=side, rules=self.setup.worded)
        return replace(self, onze_open=False, log=self.log + (played,))

    def _check_card(self, event: CardEvent) -> None:
        """Refuse a card out of turn, or one `card_refusal` refuses (covered in round 1, outside
        the deck, the vira, or played before in this hand)."""
        if event.seat != self.turn:
            raise RuleBroken(Reason(Code.CARD_OUT_OF_TURN, seat=event.seat, other=self.turn))
        played: dict[Card, tuple[int, int | None]] = {
            play.card: (play.seat, result.number)
            for result in self.rounds
            for play in result.plays
            if play.card is not None
        }
        played.update({p.card: (p.seat, None) for p in self.plays if p.card is not None})
        refusal = card_refusal(
            event.seat,
            event.card,
            event.covered,
            ruleset=self.setup.ruleset,
            vira=self.setup.vira,
            round_number=len(self.rounds) + 1,
            played=played,
        )
        if refusal is not None:
            raise RuleBroken(refusal)

    def _card(self, event: CardEvent) -> HandState:
        """A card on one's turn; the last card of a round decides it, and maybe the hand."""
        self._check_card(event)
        log = self.log
        plays = self.plays + (event,)
        if len(plays) < self.setup.players:
            return replace(self, plays=plays, log=log)
        result = self._judge_round(plays)
        log += (self._round_reason(result),)
        rounds = self.rounds + (result,)
        decision = decide(tuple(r.winner for r in rounds))
        state = replace(self, rounds=rounds, plays=(), log=log)
        if decision.decided:
            if decision.winner is None:
                voided = Reason(Code.VOIDED)
                return state._end(self.bet.void(), Ending.ROUNDS, decision.rule, voided)
            outcome = self.bet.won(decision.winner)
            scored = Reason(Code.SCORED, side=outcome.side, points=outcome.gain)
            return state._end(outcome, Ending.ROUNDS, decision.rule, scored)
        return replace(
            state, opener=result.next_opener, log=log + (self._opener_reason(result),)
        )

    def _judge_round(self, plays: tuple[CardEvent, ...]) -> RoundResult:
        """Rule on a full round with `judge_round`, in seats."""
        setup = self.setup
        order = setup.order(self.opener)
        verdict = judge_round(
            [(DEFAULT_NAMES.seat(p.seat), p.text) for p in plays],
            ruleset=setup.ruleset,
            vira=setup.vira,
            round_number=len(self.rounds) + 1,
            players=setup.players,
            mao=order.index(setup.mao),
            counts=setup.variant.players,
        )
        index = verdict.winning_play
        seat = None if index is None else order[index]
        return RoundResult(
            number=len(self.rounds) + 1,
            opener=self.opener,
            plays=plays,
            verdict=verdict,
            winner=None if seat is None else setup.side(seat),
            winning_seat=seat,
            next_opener=order[verdict.next_opener],
        )

    @staticmethod
    def _round_reason(result: RoundResult) -> Reason:
        """The round's result as a reason."""
        if result.winning_seat is None:
            return Reason(Code.ROUND_TIED, round=result.number)
        return Reason(
            Code.ROUND_WON,
            round=result.number,
            side=result.winner,
            seat=result.winning_seat,
            card=result.verdict.winning_card,
        )

    def _opener_reason(self, result: RoundResult) -> Reason:
        """Who opens the next round, and by which rule."""
        code = Code.NEXT_BY_WINNER
        if result.winner is None:
            code = Code.NEXT_BY_MAO
            if self.setup.ruleset.first_tie_opens:
                code = Code.NEXT_BY_FIRST_TIE
        return Reason(code, round=result.number + 1, seat=result.next_opener)


@dataclass(frozen=True)
class WholeHandVerdict:
    """The ruling on a whole hand: its rounds, who won and what the board records, and why;
    or the first illegal event (with the hand as it stood before it)."""

    state: HandState
    events: tuple[Event, ...]
    illegal: IllegalEvent | None

    @property
    def setup(self) -> HandSetup:
        """The rules, players, vira, mão and kind of hand."""
        return self.state.setup

    @property
    def rounds(self) -> tuple[RoundResult, ...]:
        """The finished rounds, in order."""
        return self.state.rounds

    @property
    def openers(self) -> tuple[int, ...]:
        """Who opened each round so far (the round being played included)."""
        opened = tuple(r.opener for r in self.rounds)
        return opened if self.state.over else (*opened, self.state.opener)

    @property
    def results(self) -> tuple[int | None, ...]:
        """Each finished round's winning side (None for a tie)."""
        return self.state.results

    @property
    def hand(self) -> HandVerdict:
        """`judge_hand` on the finished rounds' results."""
        return judge_hand([None if s is None else SIDE_LABELS[s] for s in self.results])

    @property
    def outcome(self) -> Outcome | None:
        """What the board records for this hand; None while undecided or after a refusal."""
        return None if self.illegal is not None else self.state.outcome

    @property
    def decided(self) -> bool:
        """True when the hand is over and every event was legal."""
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        """The side that scores, or None (void, undecided, refused)."""
        outcome = self.outcome
        return None if outcome is None else outcome.side

    @property
    def points(self) -> int:
        """The points scored (0 for a void, undecided or refused hand)."""
        outcome = self.outcome
        return 0 if outcome is None else outcome.gain

    @property
    def result(self) -> Result:
        """nos, eles, anulada, indecisa or invalido."""
        if self.illegal is not None:
            return Result.INVALIDO
        outcome = self.state.outcome
        if outcome is None:
            return Result.INDECISA
        if outcome.side is None:
            return Result.ANULADA
        return Result(SIDE_LABELS[outcome.side])

    @property
    def worth(self) -> int:
        """What the hand is worth now (before any waiting call)."""
        return self.state.bet.worth

    @property
    def accepted(self) -> Word | None:
        """The last call accepted (truco, seis, nove or dez, doze), or None for a simple hand."""
        return self.state.bet.accepted

    @property
    def ran_from(self) -> Word | None:
        """The call someone ran from, when the hand ended so."""
        return self.state.ran_from

    @property
    def note(self) -> str | None:
        """How the hand went, in a few pt-BR words for the board's log ('truco aceito',
        'correram do seis', 'mão de onze jogada'); None while undecided or refused."""
        if self.outcome is None:
            return None
        state = self.state
        return hand_note(
            state.setup.special,
            accepted=state.bet.accepted,
            ran_from=state.ran_from,
            ran_on_turn=state.ending is Ending.RAN and state.ran_from is None,
            declined=state.ending is Ending.DECLINED,
            special_name=state.setup.variant.special_name,
        )

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """What happened, in order, then where the hand stands (when it goes on)."""
        state = self.state
        if state.over:
            return state.log
        rule = decide(state.results).rule
        more = [] if not state.rounds else [rule]
        if state.caller is not None:
            answerer = state.answerer
            more.append(
                Reason(
                    Code.WAITING,
                    word=state.bet.waiting,
                    other=answerer,
                    side=1 - state.setup.side(state.caller),
                )
            )
        elif state.onze_open:
            setup = state.setup
            more.append(
                Reason(
                    Code.ONZE_DECIDES,
                    side=setup.special.onze_side,
                    seats=setup.onze_seats,
                    other=setup.onze_decider,
                    rules=setup.worded,
                )
            )
        else:
            more.append(Reason(Code.TURN, seat=state.turn))
        return state.log + tuple(more)


def _check_setup(
    ruleset: RuleSet,
    players: int,
    vira: Card | str | None,
    mao: int,
    special: Special,
    variant: Variant,
) -> HandSetup:
    """Validate what the table knows before the first event."""
    if not isinstance(ruleset, RuleSet):
        raise RulesError("Regras inválidas.")
    if not isinstance(variant, Variant):
        raise RulesError("Variante desconhecida. Use 'paulista' ou 'mineiro'.")
    if not variant.fits(ruleset):
        raise RulesError(
            f"No {variant.name.lower()} o baralho é sujo (40 cartas) e as manilhas são fixas: "
            "4 de paus, 7 de copas, A de espadas e 7 de ouros, sem vira."
        )
    variant.check_players(players)
    if isinstance(mao, bool) or not isinstance(mao, int) or not 1 <= mao <= players:
        raise RulesError(f"O mão deve ser um dos assentos, de 1 a {players}.")
    if not isinstance(special, Special):
        raise RulesError("Tipo de mão desconhecido: normal, mão de onze ou mão de ferro.")
    return HandSetup(ruleset, players, check_vira(ruleset, vira), mao, special, variant)


def judge_whole_hand(
    events: str | Iterable[Event | str],
    *,
    ruleset: RuleSet,
    players: int,
    vira: Card | str | None,
    mao: int = 1,
    special: Special = Special.NORMAL,
    variant: Variant = PAULISTA,
) -> WholeHandVerdict:
    """Rule on a hand from its events in order (Event values, their texts, or a link's text
    '1:truco,2:aceita,1:3p'); stops at the first unreadable or illegal event.

    `variant` is the rule set (Truco Mineiro: `MINEIRO`, with `MINEIRO.ruleset()` for its cards,
    no vira, 2, 4 or 6 players, and Special.ONZE_* for its mão de dez). An impossible set-up
    (players, mão, vira for the ruleset, cards for the rule set) raises RulesError.
    """
    setup = _check_setup(ruleset, players, vira, mao, special, variant)
    items = split_events(events) if isinstance(events, str) else tuple(events)
    state = HandState.start(setup)
    applied: list[Event] = []
    for position, item in enumerate(items, start=1):
        try:
            event = parse_event(item) if isinstance(item, str) else item
            state = state.apply(event)
        except RuleBroken as broken:
            illegal = IllegalEvent(position, str(item), broken.reason)
            return WholeHandVerdict(state, tuple(applied), illegal)
        applied.append(event)
    return WholeHandVerdict(state, tuple(applied), None)
