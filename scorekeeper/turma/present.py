"""What the turma's pages show: its tables, its statistics in words, its links with their QR
codes, and the exports (CSV and JSON)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..mesas import Board, load_board, turmas, words
from ..mesas import stats as stats_domain
from ..models import Entry, Mesa, Turma
from ..pages.image import score_png
from ..pages.links import share_root, shared_url
from ..pages.live import live_context
from ..pages.qr import qr_svg
from ..rules import PAULISTA, PLAYERS, Kind, Variant


def streak_text(streak: int) -> str:
    """'3 vitórias', '1 derrota' or '–'."""
    if streak == 0:
        return "–"
    count = abs(streak)
    if streak > 0:
        return f"{count} {'vitória' if count == 1 else 'vitórias'}"
    return f"{count} {'derrota' if count == 1 else 'derrotas'}"


def comeback_text(record: stats_domain.Record) -> str:
    """The biggest comeback, e.g. 'de 3 x 11', or '–'."""
    if record.comeback is None:
        return "–"
    _deficit, own, theirs = record.comeback
    return f"de {own} x {theirs}"


def onze_text(record: stats_domain.Record) -> str:
    """The special hands (mãos de onze, or de dez) a player or pair had, e.g. '5: jogou 1,
    ganhou 0, correu de 4', or '–'."""
    if not record.onze_had:
        return "–"
    return (
        f"{record.onze_had}: jogou {record.onze_played}, ganhou {record.onze_won},"
        f" correu de {record.onze_ran}"
    )


def runs_text(record: stats_domain.Record, rules: Variant = PAULISTA) -> str:
    """Every run, e.g. '5 (1 do truco, 4 da mão de onze)' ('da mão de dez' in Truco Mineiro),
    or '0'."""
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


def _day(night: stats_domain.Night) -> str:
    """An evening as 'dd/mm'."""
    return night.day.strftime("%d/%m")


def night_chart(nights: Sequence[stats_domain.Night]) -> NightChart | None:
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


@dataclass(frozen=True)
class RulesPart:
    """One rule set's statistics as the turma's page shows them: the counts, the chart of its
    evenings, its special hand's name for the cards ('Mão de onze', 'Mão de dez') and what
    makes its ids unique on the page ('' when the turma played one rule set)."""

    counted: stats_domain.Counted
    chart: NightChart | None
    special: str
    suffix: str


def rules_parts(stats: stats_domain.Stats) -> list[RulesPart]:
    """Each rule set's statistics as the page shows them, Paulista first."""
    apart = len(stats.parts) > 1
    return [
        RulesPart(
            part,
            night_chart(part.nights),
            part.rules.special_name[:1].upper() + part.rules.special_name[1:],
            f"-{part.rules.code}" if apart else "",
        )
        for part in stats.parts
    ]


def stats_note(stats: stats_domain.Stats) -> str:
    """What the statistics count, in the words of the rule sets played: 'Contam as partidas
    terminadas; na mão de onze, quem tinha 11; em “Correu”, …'."""
    played = [part.rules for part in stats.parts] or [PAULISTA]
    specials = "; ".join(f"na {r.special_name}, quem tinha {r.special_at[0]}" for r in played)
    runs = " ou ".join(f"da {r.special_name}" for r in played)
    return (
        f"Contam as partidas terminadas; {specials}; em “Correu”, quem correu do truco"
        f" (anotado na mão) e {runs}. Os nomes valem como foram digitados (maiúsculas e"
        " espaços não contam)."
    )


@dataclass(frozen=True)
class TurmaView:
    """A turma with what its pages show: a page of its tables (newest first), how many it
    holds, its statistics (with the evenings of the tables shown), the shown tables'
    summaries, whether this is the first page and the id to ask for older tables."""

    turma: Turma
    mesas: list[Mesa]
    count: int
    stats: stats_domain.Stats
    found: Mapping[int, Mapping[str, Any]]
    first: bool = True
    older: int | None = None


def turma_view(turma: Turma, before: int | None = None) -> TurmaView:
    """A page of a turma's tables (the newest, or those opened before the table `before`) and
    its statistics: a cost that does not grow with its history."""
    page = turmas.tables_page(turma, before)
    now = stats_domain.current(turma)
    found = stats_domain.summaries(page.mesas)
    evenings = [stats_domain.evening(m, found[m.id]) for m in page.mesas]
    stats = now.tally.stats(evenings)
    return TurmaView(turma, page.mesas, now.count, stats, found, before is None, page.older)


def turma_history(turma: Turma) -> TurmaView:
    """A turma's every table and its statistics read again from all their summaries: the
    exports, which carry the whole history."""
    every = turmas.tables(turma, None)
    found = stats_domain.summaries(every)
    stats = stats_domain.turma_stats(every, found, turma.aliases or {})
    return TurmaView(turma, every, len(every), stats, found)


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
        "stats": view.stats,
        "parts": rules_parts(view.stats),
        "stats_note": stats_note(view.stats),
        "streak_text": streak_text,
        "comeback_text": comeback_text,
        "onze_text": onze_text,
        "runs_text": runs_text,
        "duration_text": duration_text,
        "file_name": turma_filename(turma),
        "scorer": scorer,
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
        "regras": mesa.match_config.variant.name,
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
    line = f"{words.series_label(mesa, state)} · partidas {state.wins[0]} x {state.wins[1]}"
    if state.config.variant.code != "paulista":  # Paulista, the default, goes unsaid
        line = f"{state.config.variant.name} · {line}"
    date = words.to_local(board.last.created_at if board.last else mesa.created_at)
    return score_png(
        mesa.team_names,
        state.points,
        line,
        date.strftime("%d/%m/%Y %H:%M"),
        words.over_text(board) or heading,
        winner,
        side_players(mesa),
    )


def side_players(mesa: Mesa) -> tuple[str, str]:
    """Each side's players ('Ana e Caio') as the statistics seat them, for the score image;
    empty where they were not named or the name is the team's own."""
    seated = stats_domain.sides_of(
        {"names": mesa.player_names, "players": mesa.players, "teams": mesa.team_names}
    )
    if seated is None:
        return "", ""
    shown = (stats_domain.joined(seated[0]), stats_domain.joined(seated[1]))
    return (
        "" if shown[0] == mesa.team_a else shown[0],
        "" if shown[1] == mesa.team_b else shown[1],
    )


def _side_names(summary: Mapping[str, Any]) -> tuple[str, str]:
    """Each side as the turma's page names it: its players ('Ana e Beto'), else its team."""
    seated = stats_domain.sides_of(summary)
    if seated is None:
        return str(summary["teams"][0]), str(summary["teams"][1])
    return stats_domain.joined(seated[0]), stats_domain.joined(seated[1])


def turma_games(view: TurmaView, found: Mapping[int, Mapping[str, Any]]) -> list[list[Any]]:
    """Every game of a turma, oldest first, as export rows (GAMES_HEADER's order)."""
    rows: list[list[Any]] = []
    for number, evening in enumerate(reversed(view.stats.evenings), start=1):
        summary = found[evening.mesa.id]
        sides = _side_names(summary)
        opened = words.to_local(evening.mesa.created_at).isoformat(timespec="seconds")
        for game_number, game in enumerate(summary["games"], start=1):
            ended = words.to_local(stats_domain.moment(game["at"])).isoformat(timespec="seconds")
            rows.append(
                [
                    number,
                    opened,
                    sides[0],
                    sides[1],
                    game_number,
                    game["series"],
                    sides[game["winner"]],
                    game["points"][0],
                    game["points"][1],
                    ended,
                    evening.rules.name,
                ]
            )
    return rows


def special_key(rules: Variant) -> str:
    """The JSON keys' start for a rule set's special hands: 'maos_de_onze', 'maos_de_dez'."""
    return "_".join(["maos", *rules.special_name.split()[1:]])


def record_json(record: stats_domain.Record, rules: Variant) -> dict[str, Any]:
    """A player's (pair's, trio's) statistics under one rule set, as the JSON export names
    them (its special hand in its own words: 'maos_de_dez' in Truco Mineiro)."""
    special = special_key(rules)
    return {
        "nome": record.name,
        "regras": rules.name,
        "partidas": record.games,
        "vitorias": record.wins,
        "series": record.series,
        "series_vitorias": record.series_wins,
        special: record.onze_had,
        f"{special}_jogadas": record.onze_played,
        f"{special}_ganhas": record.onze_won,
        f"{special}_corridas": record.onze_ran,
        "correu": record.runs,
        "correu_do_truco": record.ran,
        "melhor_sequencia": record.best_streak,
    }


def turma_json(view: TurmaView, found: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """A turma's history as a JSON document: its tables with their games and statistics, each
    rule set's counted apart (every record names its own)."""
    stats = view.stats
    parts = stats.parts
    return {
        "turma": view.turma.name,
        "mesas": [
            {
                **mesa_json(e.mesa),
                "lados": list(_side_names(found[e.mesa.id])),
                "partidas_ganhas": list(e.games),
                "series_ganhas": list(e.series),
                "maos": e.hands,
                "minutos": e.minutes,
            }
            for e in reversed(stats.evenings)
        ],
        "partidas": [dict(zip(GAMES_HEADER, row, strict=True)) for row in turma_games(view, found)],
        "jogadores": [record_json(r, p.rules) for p in parts for r in p.players],
        "duplas": [record_json(r, p.rules) for p in parts for r in p.pairs],
        "trios": [record_json(r, p.rules) for p in parts for r in p.trios],
        "confrontos": [
            {"lados": list(h.names), "vitorias": list(h.wins), "regras": p.rules.name}
            for p in parts
            for h in p.rivals
        ],
    }


def turma_filename(turma: Turma) -> str:
    """The name the turma's file is saved as, e.g. 'turma-truco-de-quinta.tento.json'."""
    plain = unicodedata.normalize("NFKD", turma.name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40] or "turma"
    return f"turma-{slug}.tento.json"
