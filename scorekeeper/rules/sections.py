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
