"""The MCP tests' sessions over the quickstart fixture (the helper is `mcp_session`)."""

from __future__ import annotations

import pytest

from tests.mcp.mcp_session import Session


@pytest.fixture
def session(quickstart):
    return Session(quickstart)


@pytest.fixture
def writer(quickstart):
    return Session(quickstart, write=True)
