"""A network table over TLS: `--tls-cert/--tls-key` make it a `wss://` table; a client trusting its CA plays there.

The certificate is made in the test by the `openssl` command (a self-signed
certificate for 127.0.0.1 and localhost, which is also its own CA).
"""

from __future__ import annotations

import asyncio
import os
import ssl
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtui.cli import app
from cardtui.net import Client, Table, play_remote
from cardtui.net.server import tls_context
from cardtui.rules import load_preset
from cardtui.seats import Seat
from cardtui.session import Session

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60.0
runner = CliRunner()


def seats() -> list[Seat]:
    return [Seat("South", "human"), *(Seat(n, "bot", "easy") for n in ("West", "North", "East"))]


@pytest.mark.slow  # whole games with computer players over the network
async def test_a_client_trusting_the_ca_plays_a_whole_game_over_wss(certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    session = Session.new(load_preset("hearts").replace(max_deals=1), seats(), 9, None, autosave=False)
    table = Table(session)
    await table.open("127.0.0.1", 0, tls=tls_context(cert, key))
    async with table:
        (invite,) = table.invitations().values()
        assert invite.startswith("wss://127.0.0.1:")
        # A client that does not trust this certificate is turned away by TLS itself.
        with pytest.raises(ssl.SSLCertVerificationError):
            await asyncio.wait_for(Client.join(invite, ssl.create_default_context()), LIMIT)
        client = await asyncio.wait_for(Client.join(invite, ssl.create_default_context(cafile=cert)), LIMIT)
        final = await asyncio.wait_for(play_remote(client, "easy"), LIMIT)
        assert final.to_move is None and session.is_over
        await client.close()


@pytest.mark.slow  # a certificate made for each case
@pytest.mark.parametrize(
    ("which", "match"),
    [
        ("cert-only", "--tls-cert and --tls-key go together"),
        ("missing", "no such file"),
        ("device", "/dev/zero is not a regular file (a pipe or a device); give the PEM file itself"),
        ("swapped", "are not a PEM certificate and its private key"),
    ],
)
def test_bad_tls_files_are_one_line_and_exit_2(
    which: str, match: str, certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    cert, key = certificate
    args = {
        "cert-only": ["--tls-cert", str(cert)],
        "missing": ["--tls-cert", str(tmp_path / "nope.pem"), "--tls-key", str(key)],
        "device": ["--tls-cert", "/dev/zero", "--tls-key", str(key)],  # it was "no such file"
        "swapped": ["--tls-cert", str(key), "--tls-key", str(cert)],
    }[which]
    result = runner.invoke(app, ["host", "hearts", *args])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and match in lines[0] and "Traceback" not in result.stderr, result.stderr


async def test_cardtui_host_with_tls_and_cardtui_join_finish_a_game(
    certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    cert, key = certificate
    rules = tmp_path / "short.toml"
    rules.write_text('game = "hearts"\nmax_deals = 1\n')
    env = dict(os.environ, CARDTUI_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT), SSL_CERT_FILE=str(cert))
    command = [sys.executable, "-m", "cardtui"]
    host = await asyncio.create_subprocess_exec(
        *command,
        *["host", "hearts", "--rules", str(rules), "--seats", "open,bot:easy,bot:easy,bot:easy", "--seed", "1"],
        *["--tls-cert", str(cert), "--tls-key", str(key), "--save", str(tmp_path / "g.json")],
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    assert host.stdout is not None
    join = None
    try:
        first = (await asyncio.wait_for(host.stdout.readline(), LIMIT)).decode()
        line = (await asyncio.wait_for(host.stdout.readline(), LIMIT)).decode()
        assert first.startswith("hearts table at wss://127.0.0.1:")
        invite = line.split("cardtui join ", 1)[1].strip()
        assert invite.startswith("wss://")
        join = await asyncio.create_subprocess_exec(
            *command, "join", invite, "--level", "easy", stdout=asyncio.subprocess.PIPE, env=env
        )
        out, _ = await asyncio.wait_for(join.communicate(), LIMIT)
        assert join.returncode == 0 and "game over: totals" in out.decode()
        await asyncio.wait_for(host.wait(), LIMIT)
        assert host.returncode == 0
    finally:
        for process in (host, join):
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()
