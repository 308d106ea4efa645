"""The rule book's sections: the anchor and the pt-BR heading of each, in the book's order."""

from __future__ import annotations

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
