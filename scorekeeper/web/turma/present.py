"""What the turma's pages show: its tables, its statistics in words, its links with their QR
codes, and the exports (CSV and JSON)."""

from __future__ import annotations

import json
import re
import tempfile
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any

from flask import url_for

from ...domain.mesa import Board, load_board, words
from ...domain.mesa.settings import folded
from ...domain.turma import mesa_summary, stored_summaries, tallies, tally, turmas
from ...models import Entry, Mesa, Turma
from ...rules import DEFAULT_RULE_SET, PLAYERS, VARIANTS, Kind, Variant
from ..common import board_words
from ..common.exports import batched
from ..common.image import score_png
from ..common.links import share_root, shared_url
from ..common.live import live_context
from ..common.qr import qr_svg


def streak_text(streak: int) -> str:
    """'3 vitórias', '1 derrota' or '–'."""
    if streak == 0:
        return "–"
    count = abs(streak)
    if streak > 0:
        return f"{count} {'vitória' if count == 1 else 'vitórias'}"
    return f"{count} {'derrota' if count == 1 else 'derrotas'}"


def comeback_text(record: tally.Record) -> str:
    """The biggest comeback, e.g. 'de 3 x 11', or '–'."""
    if record.comeback is None:
        return "–"
    _deficit, own, theirs = record.comeback
    return f"de {own} x {theirs}"


def onze_text(record: tally.Record) -> str:
    """The special hands (mãos de onze, or de dez) a player or pair had, e.g. '5: jogou 1,
    ganhou 0, correu de 4', or '–'."""
    if not record.onze_had:
        return "–"
    return (
        f"{record.onze_had}: jogou {record.onze_played}, ganhou {record.onze_won},"
        f" correu de {record.onze_ran}"
    )


def runs_text(record: tally.Record, rules: Variant = DEFAULT_RULE_SET) -> str:
    """Every run, e.g. '5 (1 do truco, 4 da mão de onze)' (the special hand in the rule set's
    words), or '0'."""
    parts = []
    if record.ran:
        parts.append(f"{record.ran} do truco")
    if record.onze_ran:
        parts.append(f"{record.onze_ran} da {rules.special_name}")
    if len(parts) < 2:  # one kind of run: its own words say it all
        return " ".join(parts) or "0"
    return f"{record.runs} ({', '.join(parts)})"


def duration_text(minutes: int) -> str:
    """'1h05' or '40 min'."""
    if minutes >= 60:
        return f"{minutes // 60}h{minutes % 60:02d}"
    return f"{minutes} min"


CHART_WIDTH, CHART_BASE, CHART_TOP = 240, 96, 16  # the bars' room in the SVG's viewBox
CHART_COLOURS = 5  # sides drawn each in its colour (serie-1…); the others share serie-outros
BAR_GAP, BAR_MAX = 2, 16  # between an evening's bars, and the widest bar


@dataclass(frozen=True)
class Bar:
    """One side's games won on one evening, placed in the chart's viewBox."""

    day: str
    name: str
    wins: int
    x: float
    y: float
    width: float
    height: float
    colour: str
    label: bool  # wide enough to carry its number


@dataclass(frozen=True)
class NightChart:
    """The turma's games won per evening, drawn as bars: each evening's sides side by side,
    the newest evening right; the legend (sides with their wins in total, in the order they
    first sat, as the head-to-heads colour them), the days under the bars and the same
    numbers in words for screen readers."""

    bars: list[Bar]
    legend: list[tuple[str, str, int]]  # colour, name, games won on these evenings
    days: list[tuple[float, str, str]]  # x, text-anchor, dd/mm
    rows: list[tuple[str, str]]  # dd/mm, 'Ana e Caio 3, Beto e Duda 1'
    summary: str
    top: int


def _day(night: tally.Night) -> str:
    """An evening as 'dd/mm'."""
    return night.day.strftime("%d/%m")


def night_chart(nights: Sequence[tally.Night]) -> NightChart | None:
    """The chart of games won per evening (oldest left), None with no finished game."""
    if not nights:
        return None
    totals: dict[str, int] = {}
    for night in nights:
        for name, wins in night.wins:
            totals[name] = totals.get(name, 0) + wins
    order = list(totals)
    colour = {
        n: f"serie-{i + 1}" if i < CHART_COLOURS else "serie-outros" for i, n in enumerate(order)
    }
    top = max(1, *(w for night in nights for _n, w in night.wins))
    group = CHART_WIDTH / len(nights)
    bars: list[Bar] = []
    for index, night in enumerate(nights):
        count = len(night.wins)
        width = min((group * 0.8 - BAR_GAP * (count - 1)) / count, BAR_MAX)
        left = index * group + (group - width * count - BAR_GAP * (count - 1)) / 2
        for slot, (name, wins) in enumerate(night.wins):
            height = max(wins * (CHART_BASE - CHART_TOP) / top, 1.5)
            bars.append(
                Bar(
                    night.day.isoformat(),
                    name,
                    wins,
                    round(left + slot * (width + BAR_GAP), 1),
                    round(CHART_BASE - height, 1),
                    round(width, 1),
                    round(height, 1),
                    colour[name],
                    width >= 6,
                )
            )
    shown = range(len(nights)) if len(nights) <= 6 else (0, len(nights) - 1)
    days = []
    for index in shown:
        centre = (index + 0.5) * group
        anchor = "middle"
        if len(nights) > 1 and index in (0, len(nights) - 1):
            anchor, centre = ("start", index * group) if index == 0 else ("end", CHART_WIDTH)
        days.append((round(centre, 1), anchor, _day(nights[index])))
    rows = [(_day(n), ", ".join(f"{name} {wins}" for name, wins in n.wins)) for n in nights]
    count = len(nights)
    span = _day(nights[0]) if count == 1 else f"{_day(nights[0])} a {_day(nights[-1])}"
    said = ", ".join(f"{n} {totals[n]}" for n in order)
    summary = (
        f"Partidas ganhas por noite, {'1 noite' if count == 1 else f'{count} noites'} "
        f"({span}): {said}."
    )
    legend = [(colour[n], n, totals[n]) for n in order]
    return NightChart(bars, legend, days, rows, summary, top)


STATS_ON_PAGE = 10  # the first places of each list the turma's pages show
LIST_PAGE = 50  # the places a list's own page shows
MERGE_CHOICES = 100  # the players "juntar nomes" lists to choose from; more are typed


@dataclass(frozen=True)
class ListWords:
    """How the pages name one of a rule set's lists: its address, its heading, the link to
    all of it ({} its count), the next page's link, and its items' test id and name attribute."""

    slug: str
    title: str
    all_text: str
    next_word: str
    testid: str
    name_attribute: str


LISTS = {
    "players": ListWords(
        "jogadores", "Jogadores", "Ver todos os {} jogadores", "Próximos", "stats-jogador",
        "data-nome",
    ),
    "pairs": ListWords(
        "duplas", "Duplas", "Ver todas as {} duplas", "Próximas", "stats-dupla", "data-nomes"
    ),
    "trios": ListWords(
        "trios", "Trios", "Ver todos os {} trios", "Próximos", "stats-trio", "data-nomes"
    ),
    "rivals": ListWords(
        "confrontos", "Confrontos", "Ver todos os {} confrontos", "Próximos", "confronto",
        "data-nomes",
    ),
}  # fmt: skip
KIND_OF = {words.slug: kind for kind, words in LISTS.items()}  # a list's address to its kind


@dataclass(frozen=True)
class Listed:
    """A page of one of a rule set's lists: its kind, the records at their places (from 1),
    and how many the list holds."""

    kind: str
    entries: list[tuple[int, tally.Record | tally.HeadToHead]]
    total: int

    @property
    def words(self) -> ListWords:
        """How the pages name this list."""
        return LISTS[self.kind]

    @property
    def slug(self) -> str:
        """The list's address: 'jogadores', 'duplas', 'trios', 'confrontos'."""
        return self.words.slug

    @property
    def title(self) -> str:
        """The list's heading: 'Jogadores'…"""
        return self.words.title

    @property
    def more(self) -> bool:
        """True when the list holds more than this page shows."""
        return len(self.entries) < self.total

    @property
    def all_text(self) -> str:
        """The link to the whole list: 'Ver todos os 20.000 jogadores'."""
        return self.words.all_text.format(count_text(self.total))


def count_text(number: int) -> str:
    """A count as pt-BR writes it: '5.000'."""
    return f"{number:,}".replace(",", ".")


@dataclass(frozen=True)
class RulesPart:
    """One rule set's statistics as the turma's page shows them: the first places of its
    lists, the chart of its evenings, its special hand's name for the cards ('Mão de onze',
    'Mão de dez') and what makes its ids unique on the page ('' when the turma played one
    rule set)."""

    rules: Variant
    players: Listed
    pairs: Listed
    trios: Listed
    rivals: Listed
    chart: NightChart | None
    special: str
    suffix: str


def rules_parts(standing: tallies.Standing) -> list[RulesPart]:
    """Each rule set's statistics as the page shows them (the first STATS_ON_PAGE places of
    each list), Paulista first."""
    size = STATS_ON_PAGE
    codes = standing.codes()
    parts = []
    for code in codes:
        rules = VARIANTS[code]
        totals = {kind: standing.total(code, kind) for kind in LISTS}
        listed = {
            kind: Listed(kind, standing.page(code, kind, 0, size) if total else [], total)
            for kind, total in totals.items()
        }
        parts.append(
            RulesPart(
                rules,
                listed["players"],
                listed["pairs"],
                listed["trios"],
                listed["rivals"],
                night_chart(standing.nights(code)),
                rules.special_name[:1].upper() + rules.special_name[1:],
                f"-{code}" if len(codes) > 1 else "",
            )
        )
    return parts


def stats_note(played: Sequence[Variant]) -> str:
    """What the statistics count, in the words of the rule sets played: 'Contam as partidas
    terminadas; na mão de onze, quem tinha 11; em “Correu”, …'."""
    played = list(played) or [DEFAULT_RULE_SET]
    specials = "; ".join(f"na {r.special_name}, quem tinha {r.special_at[0]}" for r in played)
    runs = " ou ".join(f"da {r.special_name}" for r in played)
    return (
        f"Contam as partidas terminadas; {specials}; em “Correu”, quem correu do truco"
        f" (anotado na mão) e {runs}. Os nomes valem como foram digitados (maiúsculas e"
        " espaços não contam)."
    )


def counting_note(counted: int, count: int) -> str | None:
    """While a big turma's statistics are still being counted: how far (None once done)."""
    if counted >= count:
        return None
    return (
        f"Contando as mesas: {count_text(counted)} de {count_text(count)} já estão nas"
        " estatísticas; as outras entram a cada vez que esta página é aberta."
    )


@dataclass(frozen=True)
class TurmaView:
    """A turma with what its pages show: a page of its tables (newest first) with their
    evenings and summaries, how many tables it holds and how many are counted, the first
    places of its statistics, its players' names when few enough to choose from (None
    otherwise, or when not asked for), whether this is the first page and the id to ask for
    older tables."""

    turma: Turma
    mesas: list[Mesa]
    count: int
    evenings: list[mesa_summary.Evening]
    parts: list[RulesPart]
    found: Mapping[int, Mapping[str, Any]]
    counted: int
    names: dict[str, str] | None = None
    first: bool = True
    older: int | None = None


def turma_view(turma: Turma, before: int | None = None, *, names: bool = False) -> TurmaView:
    """A page of a turma's tables (the newest, or those opened before the table `before`) and
    the first places of its statistics (and its players' names, if asked and few enough): a
    cost that does not grow with its history."""
    page = turmas.tables_page(turma, before)
    found = stored_summaries.summaries(page.mesas)
    merges = tally.Merges.of(turma.aliases)

    def shown(standing: tallies.Standing) -> tuple[Any, ...]:
        """What the page shows of the statistics, and its tables' sides as they name them."""
        chosen = standing.names(MERGE_CHOICES) if names else None
        asked = [(str(found[m.id]["variante"]), found[m.id]) for m in page.mesas]
        sides = standing.sides(asked, merges)
        return rules_parts(standing), chosen, standing.counted, standing.count, sides

    parts, chosen, counted, count, sides = tallies.read(turma, shown)
    evenings = [
        mesa_summary.evening(m, found[m.id], named)
        for m, named in zip(page.mesas, sides, strict=True)
    ]
    return TurmaView(
        turma, page.mesas, count, evenings, parts, found, counted, chosen, before is None,
        page.older,
    )  # fmt: skip


@dataclass(frozen=True)
class ListView:
    """One page of one of a turma's lists: the turma, the rule set, the list's page, its
    number and how many pages the list has, and whether the turma played one rule set."""

    turma: Turma
    rules: Variant
    listed: Listed
    number: int
    pages: int
    alone: bool
    counted: int
    count: int


def list_view(turma: Turma, slug: str, code: str | None, number: int) -> ListView | None:
    """Page `number` (from 1; past the last, the last) of one list of a turma's statistics
    under a rule set (the first one played when None); None when the turma counted none of
    that rule set."""
    kind = KIND_OF[slug]

    def shown(standing: tallies.Standing) -> ListView | None:
        """The page, read from the statistics."""
        codes = standing.codes()
        chosen = code if code is not None else (codes[0] if codes else None)
        if chosen not in codes:
            return None
        total = standing.total(chosen, kind)
        pages = max(1, -(-total // LIST_PAGE))
        at = min(max(1, number), pages)
        entries = standing.page(chosen, kind, (at - 1) * LIST_PAGE, LIST_PAGE)
        listed = Listed(kind, entries, total)
        rules = VARIANTS[chosen]
        return ListView(
            turma, rules, listed, at, pages, len(codes) == 1, standing.counted, standing.count
        )

    return tallies.read(turma, shown)


def merge_of(turma: Turma, source: str, target: str) -> tuple[turmas.Merge, set[str]]:
    """'Juntar nomes' as asked (each name chosen by its key, or typed as it is shown), with the
    name the target is shown by (the name chosen), and which of the two are players of the
    turma's statistics."""
    given = {text for name in (source, target) for text in (name, folded(name))}
    known = tallies.read(turma, lambda standing: standing.players(given))

    def key(name: str) -> str:
        """The key a chosen or typed name is counted under."""
        return name if name in known else folded(name)

    into = key(target)
    chosen = known.get(into, target)
    if folded(chosen) != into:  # shown by another spelling: the key itself
        chosen = target if folded(target) == into else into
    return turmas.Merge(key(source), into, chosen), set(known)


def live_now(view: TurmaView) -> dict[str, Any] | None:
    """The live view of the table being played now (the newest, on the first page), as /v/
    shows it."""
    if not view.mesas or not view.first:
        return None
    return live_context(load_board(view.mesas[0]), tv=False)


def _newest_rev(view: TurmaView) -> dict[str, int]:
    """The revision of the table the turma's image draws (its newest), when this page has it:
    the image's address then names what it shows."""
    return {"rev": view.mesas[0].revision} if view.mesas and view.first else {}


def page_context(view: TurmaView, *, scorer: bool) -> dict[str, Any]:
    """Everything the turma's pages need; the scorer's links only on the scorer's page."""
    turma = view.turma
    watch = shared_url("turma.viewer", token=turma.view_token)
    context: dict[str, Any] = {
        "turma": turma,
        "view": view,
        "parts": view.parts,
        "stats_note": stats_note([part.rules for part in view.parts]),
        "counting_note": counting_note(view.counted, view.count),
        "streak_text": streak_text,
        "comeback_text": comeback_text,
        "onze_text": onze_text,
        "runs_text": runs_text,
        "duration_text": duration_text,
        "count_text": count_text,
        "file_name": turma_filename(turma),
        "scorer": scorer,
        "stats_endpoint": "turma.stats_list" if scorer else "turma.viewer_stats_list",
        "stats_token": turma.edit_token if scorer else turma.view_token,
        "watch_url": watch,
        "og_image": shared_url("turma.viewer_image", token=turma.view_token, **_newest_rev(view)),
        "og_url": watch,
    }
    if scorer:
        score = shared_url("turma.page", token=turma.edit_token)
        context.update(
            score_url=score,
            score_qr=qr_svg(score, "qr-turma-marcar", "QR code para marcar na turma"),
            watch_qr=qr_svg(watch, "qr-turma-assistir", "QR code para assistir à turma"),
            address_note=share_root().note,
        )
    return context


def page_context_list(view: ListView, *, scorer: bool, token: str) -> dict[str, Any]:
    """Everything a page of one of the turma's lists needs: its links on this token."""
    endpoint = "turma.stats_list" if scorer else "turma.viewer_stats_list"
    home = "turma.page" if scorer else "turma.viewer"
    regras: dict[str, Any] = {} if view.alone else {"regras": view.rules.code}

    def at(number: int) -> str:
        """The address of page `number` of this list."""
        return url_for(endpoint, token=token, lista=view.listed.slug, pagina=number, **regras)

    return {
        "turma": view.turma,
        "view": view,
        "listed": view.listed,
        "special": view.rules.special_name[:1].upper() + view.rules.special_name[1:],
        "home_url": url_for(home, token=token) + "#stats-titulo",
        "previous_url": at(view.number - 1) if view.number > 1 else None,
        "next_url": at(view.number + 1) if view.number < view.pages else None,
        "counting_note": counting_note(view.counted, view.count),
        "streak_text": streak_text,
        "comeback_text": comeback_text,
        "onze_text": onze_text,
        "runs_text": runs_text,
        "count_text": count_text,
    }


# --- exports -------------------------------------------------------------------------------

STATUS_WORDS = {"active": "valendo", "undone": "desfeito", "discarded": "descartado"}
LOG_HEADER = (
    "registro",
    "data_hora",
    "tipo",
    "descricao",
    "lado",
    "pontos",
    "nota",
    "motivo",
    "situacao",
    "placar_lado_1",
    "placar_lado_2",
)


def _log_row(mesa: Mesa, record: Entry) -> list[Any]:
    """A record as an export's row (LOG_HEADER's order)."""
    names = mesa.team_names
    return [
        record.seq,
        words.to_local(record.created_at).isoformat(timespec="seconds"),
        record.kind,
        words.record_text(record, names),
        names[record.side] if record.side in (0, 1) and record.kind != Kind.ANULADA.value else "",
        "" if record.points is None else record.points,
        words.NOTE_LABELS.get(record.note or "", ""),
        record.reason or "",
        STATUS_WORDS.get(record.status, record.status),
        record.score_a,
        record.score_b,
    ]


RULES_COLUMN = "regras"  # every CSV's last column: the rule set, as the JSON's "regras" names it
LOG_CSV_HEADER = (*LOG_HEADER, RULES_COLUMN)


def log_rows(mesa: Mesa, records: Iterator[Entry]) -> Iterator[list[Any]]:
    """A table's records as CSV rows (LOG_CSV_HEADER's order: each names the rule set)."""
    rules = mesa.match_config.variant.name
    return ([*_log_row(mesa, record), rules] for record in records)


def mesa_json(mesa: Mesa) -> dict[str, Any]:
    """A table's settings as an export names them."""
    return {
        "times": list(mesa.team_names),
        "jogadores": list(mesa.player_names or []),
        "modo": PLAYERS.choice_or_default(mesa.players).short,
        "regras": mesa.rules.name,
        "melhor_de": mesa.best_of or None,
        "aberta_em": words.to_local(mesa.created_at).isoformat(timespec="seconds"),
    }


def log_json(mesa: Mesa, records: Iterator[Entry]) -> dict[str, Any]:
    """A table's whole log as a JSON document."""
    return {
        "mesa": mesa_json(mesa),
        "registros": [dict(zip(LOG_HEADER, _log_row(mesa, r), strict=True)) for r in records],
    }


GAMES_HEADER = (
    "mesa",
    "aberta_em",
    "lado_1",
    "lado_2",
    "partida",
    "serie",
    "vencedor",
    "placar_lado_1",
    "placar_lado_2",
    "terminou_em",
    RULES_COLUMN,
)


def score_image(board: Board | None, heading: str) -> bytes:
    """The PNG of a table's score for a chat's preview (or of an empty turma's)."""
    if board is None:
        return score_png(("–", "–"), (0, 0), "Nenhuma mesa ainda", "", heading, None)
    mesa, state = board.mesa, board.state
    winner = state.series_winner if state.series_winner is not None else state.game_winner
    line = f"{board_words.series_label(mesa, state)} · partidas {state.wins[0]} x {state.wins[1]}"
    if state.config.variant is not DEFAULT_RULE_SET:  # the default goes unsaid
        line = f"{state.config.variant.name} · {line}"
    date = words.to_local(board.last.created_at if board.last else mesa.created_at)
    return score_png(
        mesa.team_names,
        state.points,
        line,
        date.strftime("%d/%m/%Y %H:%M"),
        board_words.over_text(board) or heading,
        winner,
        side_players(mesa),
    )


def side_players(mesa: Mesa) -> tuple[str, str]:
    """Each side's players ('Ana e Caio') as the statistics seat them, for the score image;
    empty where they were not named or the name is the team's own."""
    seated = mesa_summary.sides_of(
        {"names": mesa.player_names, "players": mesa.players, "teams": mesa.team_names}
    )
    if seated is None:
        return "", ""
    shown = (mesa_summary.joined(seated[0]), mesa_summary.joined(seated[1]))
    return (
        "" if shown[0] == mesa.team_a else shown[0],
        "" if shown[1] == mesa.team_b else shown[1],
    )


@dataclass(frozen=True)
class Named:
    """A table of a turma as its exports name it: its number (from 1, oldest first), the table,
    its summary, each side as the statistics name it now (`sides`: its players, else its
    teams) and each lineup it had (mesa_summary.lineup_parts) with its sides as the statistics
    credited them (None where its players were not named)."""

    number: int
    mesa: Mesa
    summary: Mapping[str, Any]
    sides: tuple[str, str]
    parts: list[tuple[Mapping[str, Any], tuple[str, str] | None]]


def _game_rows(table: Named) -> Iterator[list[Any]]:
    """A table's games as export rows (GAMES_HEADER's order), each naming its sides as the
    statistics credit it: the lineup seated when it ended (a table's teams where its players
    were not named)."""
    summary = table.summary
    opened = words.to_local(table.mesa.created_at).isoformat(timespec="seconds")
    rules = VARIANTS[str(summary["variante"])].name
    teams = (str(summary["teams"][0]), str(summary["teams"][1]))
    games = chain.from_iterable(
        ((game, sides or teams) for game in part["games"]) for part, sides in table.parts
    )
    for game_number, (game, sides) in enumerate(games, start=1):
        ended = words.to_local(mesa_summary.moment(game["at"])).isoformat(timespec="seconds")
        yield [
            table.number,
            opened,
            sides[0],
            sides[1],
            game_number,
            game["series"],
            sides[game["winner"]],
            game["points"][0],
            game["points"][1],
            ended,
            rules,
        ]


def _numbered(turma: Turma, standing: tallies.Standing) -> Iterator[Named]:
    """Every table of a turma, oldest first, numbered from 1, with its summary and its sides
    as the statistics (`standing`, every table counted) name them: read a chunk at a time
    (what an export holds at once is bounded)."""
    merges = tally.Merges.of(turma.aliases)
    tables = enumerate(stored_summaries.each_summary(turma.id), start=1)
    while chunk := list(islice(tables, stored_summaries.CHUNK)):
        parts = [_lineups(summary) for _n, (_mesa, summary) in chunk]
        asked = [
            (str(summary["variante"]), part)
            for (_n, (_mesa, summary)), lineups in zip(chunk, parts, strict=True)
            for part in [summary, *lineups]
        ]
        named = iter(standing.sides(asked, merges))
        for (number, (mesa, summary)), lineups in zip(chunk, parts, strict=True):
            teams = (str(summary["teams"][0]), str(summary["teams"][1]))
            now = next(named)
            credited = [(part, next(named)) for part in lineups] or [(summary, now)]
            yield Named(number, mesa, summary, now or teams, credited)


def _lineups(summary: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A table's lineups (mesa_summary.lineup_parts), none when its one lineup is the table as it
    is now (named once, as its sides now)."""
    parts = mesa_summary.lineup_parts(summary)
    return [] if parts == [summary] else parts


def turma_games(turma: Turma) -> Iterator[list[Any]]:
    """Every game of a turma, oldest first, as export rows (GAMES_HEADER's order), as they
    are read."""
    for table in _numbered(turma, tallies.standing(turma)):
        yield from _game_rows(table)


_JSON = json.JSONEncoder(ensure_ascii=False)  # one encoder for every item an export writes
SPOOLED = 1 << 20  # the games' text a JSON export holds in memory (more goes to a file)


def _table_json(table: Named) -> dict[str, Any]:
    """A table of a turma as the JSON export names it."""
    evening = mesa_summary.evening(table.mesa, table.summary)
    return {
        **mesa_json(table.mesa),
        "lados": list(table.sides),
        "partidas_ganhas": list(evening.games),
        "series_ganhas": list(evening.series),
        "maos": evening.hands,
        "minutos": evening.minutes,
    }


def _items(items: Iterator[str]) -> Iterator[str]:
    """A JSON array's items (each its JSON text), an item a line, as they come."""
    separator = "\n"
    for item in items:
        yield separator + item
        separator = ",\n"


def _json_pieces(turma: Turma) -> Iterator[str]:
    """The JSON export's text, a piece at a time: the tables, oldest first, in one read of
    them (their games spooled meanwhile, to disk past SPOOLED), then the games, then each
    rule set's statistics (every table counted first: its names are the tables' and games')."""
    yield "{" + _JSON.encode("turma") + ": " + _JSON.encode(turma.name) + ',\n"mesas": ['
    standing = tallies.standing(turma)
    with tempfile.SpooledTemporaryFile(SPOOLED, mode="w+", encoding="utf-8") as games:
        separator = "\n"
        for table in _numbered(turma, standing):
            yield separator + _JSON.encode(_table_json(table))
            separator = ",\n"
            for row in _game_rows(table):
                games.write(_GAMES_SEPARATOR[games.tell() == 0])
                games.write(_JSON.encode(dict(zip(GAMES_HEADER, row, strict=True))))
        yield '\n],\n"partidas": ['
        games.seek(0)
        while piece := games.read(1 << 16):
            yield piece
    yield "\n]"
    for key, kind in (
        ("jogadores", "players"),
        ("duplas", "pairs"),
        ("trios", "trios"),
        ("confrontos", "rivals"),
    ):
        yield f',\n"{key}": ['
        codes = standing.codes()
        yield from _items(chain.from_iterable(standing.each_shown(c, kind) for c in codes))
        yield "\n]"
    yield "\n}\n"


_GAMES_SEPARATOR = (",\n", "\n")  # before a game: after another, or the first


def turma_json(turma: Turma) -> Iterator[str]:
    """A turma's history as a JSON document, written as it is read (in pieces of about
    exports.PIECE): its tables with their games, then each rule set's statistics counted
    apart (every record names its own)."""
    return batched(_json_pieces(turma))


def turma_filename(turma: Turma) -> str:
    """The name the turma's file is saved as, e.g. 'turma-truco-de-quinta.tento.json'."""
    plain = unicodedata.normalize("NFKD", turma.name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40] or "turma"
    return f"turma-{slug}.tento.json"
