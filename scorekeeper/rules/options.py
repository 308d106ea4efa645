"""Every option a table or the juiz chooses, defined once: its values (as stored, posted and
linked), the pt-BR words each value is said in, the rule-book section whose rule it changes (and
what the rule book says of each value there) and its default, the first value.

Pure data: the rules check their settings against it, and the new-table form, the juiz,
'Regras desta mesa' and the rule book word every option from it. A new option is an `Option`
here, a `Box` for each section of the rule book whose rule it changes, and the field (and column)
that keeps it. The rule set's option, `VARIANTE`, is built from the registry (variants.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from .errors import RulesError
from .sections import Section

V = TypeVar("V", bound=str | int)

Players = Literal[4, 2, 6]
Deck = Literal["sujo", "limpo"]
ManilhaMode = Literal["variavel", "fixa"]
TieOpener = Literal["mao", "primeira_empatada"]
Answerer = Literal["proximo", "qualquer"]
SpecialAt = Literal[11, 10]
FerroMode = Literal["cegas", "claras", "escuro"]
BestOf = Literal[0, 3, 5, 1]


def either(items: Iterable[str]) -> str:
    """Items joined as a pt-BR list of alternatives: 'a, b ou c'."""
    said = list(items)
    return f"{', '.join(said[:-1])} ou {said[-1]}" if len(said) > 1 else "".join(said)


@dataclass(frozen=True)
class Choice(Generic[V]):
    """One value of an option and every word it is said in."""

    value: V  # as stored (and, unless `spelled` says otherwise, as forms and links spell it)
    label: str  # its name among the others, capitalised: the rule book, the new-table form
    short: str  # in a few words, in lower case: in a sentence, or capitalised on a switch
    detail: str = ""  # what it means, when the short words need it
    long: str = ""  # in full, for 'Regras desta mesa'; by default 'short (detail)'
    hint: str = ""  # what the new-table form adds to the label, in parentheses
    spelled: str = ""  # how forms and links spell the value, when not as it is stored
    anchor: str = ""  # its rule-book variant id, when not '<option's anchor>-<value>'
    offered: bool = True  # False for a value the rules take but no page offers

    def __post_init__(self) -> None:
        """Fill in the words left to their defaults."""
        if not self.long:
            full = f"{self.short} ({self.detail})" if self.detail else self.short
            object.__setattr__(self, "long", full)
        if not self.spelled:
            object.__setattr__(self, "spelled", str(self.value))

    @property
    def form_label(self) -> str:
        """Its words on the new-table form: 'Às cegas (cartas viradas)'."""
        return f"{self.label} ({self.hint})" if self.hint else self.label

    @property
    def switch_label(self) -> str:
        """Its words on a switch: the short words, capitalised ('1º a empatar', 'O mão')."""
        return self.short[:1].upper() + self.short[1:]

    @property
    def explained(self) -> str:
        """The short words and what they mean: 'às cegas: ninguém vê as próprias cartas'."""
        return f"{self.short}: {self.detail}" if self.detail else self.short


@dataclass(frozen=True)
class Option(Generic[V]):
    """A table option: its code name, the pt-BR name forms and links give it, its title, the
    rule-book section whose rule it changes, and its choices, the default first."""

    name: str  # the table's column and the RuleSet's field ('ferro_mode')
    param: str  # the form field and the link parameter ('ferro'): users' links depend on it
    title: str  # 'Mão de ferro'
    section: Section
    anchor: str  # the start of its variants' ids in the rule book ('ferro': 'ferro-cegas')
    unknown: str  # how a refusal of a value it does not have starts ('Mão de ferro inválida')
    choices: tuple[Choice[V], ...]

    @property
    def default(self) -> V:
        """The value a table has when nobody chose one."""
        return self.choices[0].value

    @property
    def values(self) -> tuple[V, ...]:
        """Every value the rules take."""
        return tuple(choice.value for choice in self.choices)

    @property
    def offered(self) -> tuple[Choice[V], ...]:
        """The choices the pages offer, the default first."""
        return tuple(choice for choice in self.choices if choice.offered)

    def choice(self, value: object) -> Choice[V] | None:
        """The choice of this value, None when the option has no such value."""
        return next((choice for choice in self.choices if choice.value == value), None)

    def choice_or_default(self, value: object) -> Choice[V]:
        """The choice of this value, the default's when the option has no such value."""
        return self.choice(value) or self.choices[0]

    def spelled(self, text: object) -> V:
        """The value of the offered choice forms and links spell so; the default for any other
        spelling."""
        return next((c.value for c in self.offered if c.spelled == text), self.default)

    def variant(self, value: object) -> str:
        """The rule book's id of the variant this value picks ('ferro-cegas'); for a value the
        option does not have, the id it would have."""
        choice = self.choice(value)
        return choice.anchor if choice and choice.anchor else f"{self.anchor}-{value}"

    def checked(self, value: V) -> V:
        """The value when the option has it, else RulesError in pt-BR."""
        if value not in self.values:
            spelled = either(f"'{choice.spelled}'" for choice in self.offered)
            raise RulesError(f"{self.unknown}: {value!r}. Use {spelled}.")
        return value


PLAYERS: Option[Players] = Option(
    name="players",
    param="jogadores",
    title="Jogo",
    section=Section.RODADAS,
    anchor="jogadores",
    unknown="Número de jogadores inválido",
    choices=(
        Choice(4, "2x2", "2x2", long="2x2, em duplas (parceiros frente a frente)", hint="duplas"),
        Choice(2, "1x1", "1x1", long="1x1, um contra um"),
        Choice(6, "3x3", "3x3", long="3x3, em trios (lugares alternados)"),
    ),
)

DECK: Option[Deck] = Option(
    name="deck",
    param="baralho",
    title="Baralho",
    section=Section.CARTAS,
    anchor="baralho",
    unknown="Baralho desconhecido",
    choices=(
        Choice("sujo", "Sujo", "sujo", detail="40 cartas", hint="40 cartas"),
        Choice("limpo", "Limpo", "limpo", detail="24 cartas, sem 4, 5, 6 e 7"),
    ),
)

# The limpo deck with manilha fixa keeps the four fixed manilhas: 27 cards.
LIMPO_WITH_FIXA = "limpo (27 cartas: Q, J, K, A, 2 e 3, mais as manilhas fixas)"

MANILHAS: Option[ManilhaMode] = Option(
    name="manilhas",
    param="manilhas",
    title="Manilhas",
    section=Section.CARTAS,
    anchor="manilha",
    unknown="Tipo de manilha desconhecido",
    choices=(
        Choice(
            "variavel", "Variáveis", "variáveis", "o valor logo acima da vira", hint="pela vira"
        ),
        Choice(
            "fixa", "Fixas", "fixas", "4 de paus, 7 de copas, A de espadas e 7 de ouros; sem vira"
        ),
    ),
)

TIE_OPENER: Option[TieOpener] = Option(
    name="tie_opener",
    param="empate",
    title="Quem abre após empate",
    section=Section.RODADAS,
    anchor="empate",
    unknown="Regra de quem abre após empate desconhecida",
    choices=(
        Choice("mao", "O mão", "o mão"),
        Choice(
            "primeira_empatada",
            "Quem empatou primeiro",
            "1º a empatar",
            long="quem jogou a primeira carta do empate",
        ),
    ),
)

ANSWERER: Option[Answerer] = Option(
    name="answerer",
    param="resposta",
    title="Quem responde ao truco",
    section=Section.TRUCO,
    anchor="resposta",
    unknown="Regra de quem responde ao truco desconhecida",
    choices=(
        Choice("proximo", "O próximo adversário", "o próximo"),
        Choice("qualquer", "Qualquer um do lado", "qualquer um"),
    ),
)

SPECIAL_AT: Option[SpecialAt] = Option(
    name="special_at",
    param="mao_especial",
    title="Mão especial",
    section=Section.ONZE,
    anchor="mao-de",
    unknown="Mão especial inválida",
    choices=(
        Choice(
            11,
            "Mão de onze",
            "mão de onze",
            "um lado com 11 joga valendo 3 ou corre e dá 1 ao outro",
            anchor="mao-de-onze",
        ),
        Choice(
            10,
            "Mão de dez",
            "mão de dez",
            "um lado com 10 joga valendo 3 ou corre e dá 1 ao outro",
            anchor="mao-de-dez",
        ),
    ),
)

FERRO_MODE: Option[FerroMode] = Option(
    name="ferro_mode",
    param="ferro",
    title="Mão de ferro",
    section=Section.FERRO,
    anchor="ferro",
    unknown="Mão de ferro inválida",
    choices=(
        Choice(
            "cegas", "Às cegas", "às cegas", "ninguém vê as próprias cartas", hint="cartas viradas"
        ),
        Choice("claras", "Às claras", "às claras", "cada um vê só as próprias cartas"),
        Choice(
            "escuro",
            "No escuro",
            "no escuro",
            "cartas e vira viradas; a vira só aparece com as cartas da 1ª rodada na mesa",
            hint="a vira também fica virada",
        ),
    ),
)

BEST_OF: Option[BestOf] = Option(
    name="best_of",
    param="serie",
    title="Série",
    section=Section.PONTOS,
    anchor="serie",
    unknown="Série inválida",
    choices=(
        Choice(
            0,
            "Partidas avulsas",
            "partidas avulsas",
            long="partidas avulsas, cada uma até 12 pontos",
            spelled="avulsas",
        ),
        Choice(
            3,
            "Melhor de 3",
            "melhor de 3",
            long="melhor de 3 partidas, cada uma até 12 pontos",
            spelled="melhor_de_3",
        ),
        Choice(
            5,
            "Melhor de 5",
            "melhor de 5",
            long="melhor de 5 partidas, cada uma até 12 pontos",
            spelled="melhor_de_5",
        ),
        Choice(
            1, "Uma partida", "uma partida só", long="uma partida só, até 12 pontos", offered=False
        ),
    ),
)

# A table's options, in the order 'Regras desta mesa' lists them (who answers a call is the
# juiz's to choose, not a table's).
TABLE_OPTIONS: tuple[Option[Any], ...] = (
    PLAYERS,
    DECK,
    MANILHAS,
    TIE_OPENER,
    SPECIAL_AT,
    FERRO_MODE,
    BEST_OF,
)


@dataclass(frozen=True)
class BookEntry:
    """One choice of a rule-book box: its variant id, its name, what it says, and whether it is
    the default."""

    anchor: str
    label: str
    text: str
    default: bool


@dataclass(frozen=True)
class Box(Generic[V]):
    """An option as the rule book offers it at the end of a section: each offered choice with
    what it changes there, under the option's title unless `title` says otherwise."""

    section: Section
    option: Option[V]
    texts: Mapping[V, str]
    title: str = ""
    labels: Mapping[V, str] = field(default_factory=dict)  # names that are not the labels

    @property
    def heading(self) -> str:
        """The box's title."""
        return self.title or self.option.title

    @property
    def entries(self) -> tuple[BookEntry, ...]:
        """Its choices as the rule book lists them, the default first."""
        option = self.option
        return tuple(
            BookEntry(
                option.variant(choice.value),
                self.labels.get(choice.value, choice.label),
                self.texts[choice.value],
                choice.value == option.default,
            )
            for choice in option.offered
        )


# Every variant box of the rule book, in the book's order.
BOOK: tuple[Box[Any], ...] = (
    Box(
        Section.CARTAS,
        DECK,
        {
            "sujo": "as 40 cartas, sem os 8, 9, 10 e coringas.",
            "limpo": (
                "24 cartas, sem os 4, 5, 6 e 7. As comuns ficam 3, 2, A, K, J, Q e a sequência "
                "das manilhas fica Q, J, K, A, 2, 3: com a vira 3, as manilhas são as damas. Com "
                "manilha fixa o baralho limpo tem 27 cartas: guarda as quatro manilhas fixas."
            ),
        },
    ),
    Box(
        Section.CARTAS,
        MANILHAS,
        {
            "variavel": "mudam a cada mão, pela vira, como acima.",
            "fixa": (
                "não tem vira. As manilhas são sempre, da mais forte para a mais fraca, o 4 de "
                "paus (zap), o 7 de copas, o A de espadas (espadilha) e o 7 de ouros "
                "(pica-fumo). Os outros 4, 7 e ases são cartas comuns."
            ),
        },
    ),
    Box(
        Section.RODADAS,
        PLAYERS,
        {
            4: "duas duplas, parceiros frente a frente; na ordem de jogo os lados se alternam.",
            2: "um contra um.",
            6: "três contra três, lugares alternados: só no Truco Mineiro (/regras/mineiro).",
        },
        title="Jogadores",
    ),
    Box(
        Section.RODADAS,
        TIE_OPENER,
        {
            "mao": "como acima.",
            "primeira_empatada": "abre quem jogou a primeira das cartas que empataram.",
        },
        title="Quem abre depois de um empate",
    ),
    Box(
        Section.TRUCO,
        ANSWERER,
        {
            "proximo": "como acima.",
            "qualquer": (
                "qualquer jogador do outro lado pode responder ao pedido, e vale a primeira "
                "resposta dada, mesmo que o parceiro diga outra coisa."
            ),
        },
        title="Quem responde em duplas",
    ),
    Box(
        Section.ONZE,
        SPECIAL_AT,
        {
            11: "como acima, com 11 pontos.",
            10: (
                "a mesma regra já a partir de 10 pontos: um lado com 10 ou 11 decide se joga "
                "(vale 3) ou corre (1 para o outro). Com os dois lados em 10 ou mais, joga-se a "
                "mão de ferro."
            ),
        },
    ),
    Box(
        Section.ONZE,
        ANSWERER,
        {
            "proximo": "como acima.",
            "qualquer": (
                "qualquer jogador do lado com 11 pode decidir, e vale a primeira resposta."
            ),
        },
        title="Quem decide em duplas",
        labels={"proximo": "O primeiro do lado"},
    ),
    Box(
        Section.FERRO,
        FERRO_MODE,
        {
            "cegas": "ninguém vê as próprias cartas, como acima.",
            "claras": (
                "cada jogador vê as próprias cartas, mas não as do parceiro. Continua valendo "
                "1 ponto, sem truco."
            ),
            "escuro": (
                "às cegas, e a vira também fica virada para baixo até as cartas da primeira "
                "rodada estarem na mesa. Só então ela aparece e decide as manilhas, também das "
                "cartas já jogadas. A segunda e a terceira rodadas seguem às cegas, com a vira "
                "conhecida."
            ),
        },
    ),
    Box(
        Section.FERRO,
        SPECIAL_AT,
        {
            11: "a mão de ferro é com 11 a 11, como acima.",
            10: (
                "a mão de ferro vem com os dois lados em 10: quem vence a mão vence a partida "
                "(chega a 12)."
            ),
        },
    ),
    Box(
        Section.PONTOS,
        BEST_OF,
        {
            0: "uma partida depois da outra, sem série.",
            3: "leva quem ganhar 2 partidas (a “queda”).",
            5: "leva quem ganhar 3 partidas.",
        },
    ),
)


def book_boxes(section: Section) -> tuple[Box[Any], ...]:
    """The variant boxes that end a section of the rule book, in order."""
    return tuple(box for box in BOOK if box.section is section)
