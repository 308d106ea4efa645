"""Error pages: pt-BR, never a 500, even when no URL can be built."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

# Error pages read no table: the database engine does not matter here.
pytestmark = pytest.mark.sqlite_only


def test_malformed_host_header_is_a_portuguese_400_not_a_500(client: FlaskClient) -> None:
    """A Host that is no valid name cannot route: 400 with a pt-BR page."""
    response = client.get("/", headers={"Host": "exemplo..com"})
    assert response.status_code == 400
    assert "Pedido inválido" in response.text


def test_unknown_path_is_a_portuguese_404(client: FlaskClient) -> None:
    """A path that does not exist gets the pt-BR 404 page."""
    response = client.get("/nada/aqui")
    assert response.status_code == 404
    assert "Página não encontrada" in response.text


def test_wrong_method_is_a_portuguese_405(client: FlaskClient) -> None:
    """GET on a write route is refused in pt-BR."""
    response = client.get("/mesas")
    assert response.status_code == 405
    assert "Método não permitido" in response.text
