"""What the torneio's web tests do through its pages: open and draw one, post an organiser's
step from the page as drawn now, reach a mesa's match through its stable link, read the
bracket."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient


def torneio_rev(client: FlaskClient, token: str) -> str:
    """The torneio revision the organiser's page is drawn at."""
    found = re.search(r'data-testid="torneio" data-rev="(\d+)"', client.get(f"/t/{token}").text)
    assert found
    return found.group(1)


def organiser_post(client: FlaskClient, token: str, route: str, **form: str) -> Any:
    """An organiser's step posted from the page as drawn now."""
    return client.post(f"/t/{token}/{route}", data={"rev": torneio_rev(client, token), **form})


def open_torneio(client: FlaskClient, pairs: int = 4, **form: str) -> str:
    """A torneio (the form's fields as given, else 'Copa' on 2 mesas) with `pairs` pairs
    A<n> e B<n>, drawn; its organiser token."""
    fields = {"nome": "Copa", "mesas": "2", **form}
    response = client.post("/torneio/novo", data=fields)
    assert response.status_code == 303, response.text
    token = response.headers["Location"].rsplit("/", 1)[-1]
    for n in range(pairs):
        names = {"jogador_1": f"A{n}", "jogador_2": f"B{n}"}
        assert organiser_post(client, token, "inscrever", **names).status_code == 303
    assert organiser_post(client, token, "sortear").status_code == 303
    return token


def table_at(client: FlaskClient, token: str, number: int) -> str:
    """The scorer token of the match now at mesa `number`, through the mesa's stable link."""
    page = client.get(f"/t/{token}").text
    shape = rf'href="[^"]*(/tm/[\w-]+)" data-testid="mesa-link" data-mesa="{number}"'
    link = re.search(shape, page)
    assert link
    response = client.get(link.group(1))
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].rsplit("/", 1)[-1]


def matches(client: FlaskClient, token: str) -> dict[str, dict[str, str]]:
    """Each match of the organiser's bracket by key, with its data- attributes."""
    page = client.get(f"/t/{token}").text
    found = {}
    for tag in re.findall(r'<article[^>]*data-testid="jogo"[^>]*>', page):
        attrs = dict(re.findall(r'data-([\w-]+)="([^"]*)"', tag))
        found[attrs["key"]] = attrs
    return found
