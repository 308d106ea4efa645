"""The rule book's sections: the anchor and the pt-BR heading of each, in the book's order, and
each rule set's page of the book (`Book`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum


class Section(Enum):
    """A section of the rule book, by its anchor."""

    CARTAS = "cartas-e-manilhas"
    RODADAS = "rodadas-e-empates"
    COBERTA = "carta-coberta"
    TRUCO = "truco"
    CORRER = "correr"
    ONZE = "mao-de-onze"
    FERRO = "mao-de-ferro"
    PONTOS = "pontos"

    @property
    def title(self) -> str:
        """The section's pt-BR heading."""
        return _SECTION_TITLES[self]


_SECTION_TITLES = {
    Section.CARTAS: "Cartas e manilhas",
    Section.RODADAS: "Rodadas e empates",
    Section.COBERTA: "Carta coberta",
    Section.TRUCO: "Truco e aumentos",
    Section.CORRER: "Correr",
    Section.ONZE: "Mão de onze",
    Section.FERRO: "Mão de ferro",
    Section.PONTOS: "Pontos e séries",
}


class MineiroSection(Enum):
    """A section of the rule book's Truco Mineiro page (/regras/mineiro), by its anchor."""

    CARTAS = "mineiro-cartas"
    JOGADORES = "mineiro-jogadores"
    RODADAS = "mineiro-rodadas"
    TRUCO = "mineiro-truco"
    CORRER = "mineiro-correr"
    DEZ = "mineiro-mao-de-dez"
    FERRO = "mineiro-mao-de-ferro"
    PONTOS = "mineiro-pontos"

    @property
    def title(self) -> str:
        """The section's pt-BR heading."""
        return _MINEIRO_TITLES[self]


_MINEIRO_TITLES = {
    MineiroSection.CARTAS: "Cartas e manilhas",
    MineiroSection.JOGADORES: "Jogadores",
    MineiroSection.RODADAS: "Rodadas e empates",
    MineiroSection.TRUCO: "Truco e aumentos",
    MineiroSection.CORRER: "Correr",
    MineiroSection.DEZ: "Mão de dez",
    MineiroSection.FERRO: "Mão de ferro",
    MineiroSection.PONTOS: "Pontos e quedas",
}


# A section of the rule book of any rule set (each rule set's page has an enum of its own).
BookSection = Section | MineiroSection


@dataclass(frozen=True, kw_only=True)
class Book:
    """A rule set's page of the rule book: its address, its sections in order, where it states
    the rule of each Truco Paulista section the reasons and options cite, and where it states
    the rule an option (by its code name) changes when that is not the section's own."""

    page: str | None  # the page's name under /regras; None: /regras itself
    sections: tuple[BookSection, ...]
    moved: Mapping[Section, BookSection] = field(default_factory=dict, compare=False)
    options: Mapping[str, BookSection] = field(default_factory=dict, compare=False)

    def place(self, section: BookSection) -> BookSection:
        """Where this page states the rule of `section` (another page's section stays itself)."""
        return self.moved.get(section, section) if isinstance(section, Section) else section

    def option_place(self, name: str, section: Section) -> BookSection:
        """Where this page states the rule the option `name` (of `section`) changes."""
        return self.options.get(name) or self.place(section)

    def number(self, section: BookSection) -> int:
        """A section's number on this page (1 for the first)."""
        return self.sections.index(section) + 1


PAULISTA_BOOK = Book(page=None, sections=tuple(Section))

MINEIRO_BOOK = Book(
    page="mineiro",
    sections=tuple(MineiroSection),
    moved={
        Section.CARTAS: MineiroSection.CARTAS,
        Section.RODADAS: MineiroSection.RODADAS,
        Section.COBERTA: MineiroSection.RODADAS,
        Section.TRUCO: MineiroSection.TRUCO,
        Section.CORRER: MineiroSection.CORRER,
        Section.ONZE: MineiroSection.DEZ,
        Section.FERRO: MineiroSection.FERRO,
        Section.PONTOS: MineiroSection.PONTOS,
    },
    options={"players": MineiroSection.JOGADORES},
)
