"""nginx in front of two daphne processes, as `make serve-cluster` runs them: the config
generated from deploy/nginx.conf.in and the processes started by deploy/cluster.py, on free
ports and in a temporary folder.

nginx sends each client address to one process (hash $remote_addr), so two clients at
different loopback addresses (127.0.0.0/8 is all this machine's) can be put on different
processes; daphne's access log names the client address it took from the proxy's
X-Forwarded-For, and nginx's log the process that answered.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import http.client
import secrets
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect

from deploy import cluster as deploy
from tests.scaleout.conftest import frame_with, run_setup, version_of
from tests.servers import found, free_port, manage, server_env
from tests.timeouts import SERVER_TIMEOUT

pytestmark = [pytest.mark.scaleout, pytest.mark.timeout(SERVER_TIMEOUT)]

PER_ADDRESS = 3  # failed sign-ins a minute from one address, in these servers
THROTTLED = "Too many failed login attempts"


@dataclass
class Cluster:
    env: dict[str, str]
    run: Path
    port: int  # nginx's
    daphne_ports: list[int]

    def daphne_log(self, port: int) -> list[str]:
        return (self.run / f"daphne-{port}-access.log").read_text().splitlines()

    def nginx_log(self) -> list[str]:
        return (self.run / "nginx-access.log").read_text().splitlines()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    workdir = tmp_path_factory.mktemp("proxy")
    env = server_env(
        workdir,
        BEHIND_PROXY="1",
        BOT_DELAY_SECONDS="0",
        LOGIN_FAILED_LIMIT=f"100/m/key,{PER_ADDRESS}/m/ip",
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    run = workdir / "run"
    run.mkdir()
    port, daphne_ports = free_port(), [free_port(), free_port()]
    deploy.write_nginx_conf(run, f"127.0.0.1:{port}", daphne_ports, Path(env["STATIC_ROOT"]))
    processes = deploy.start_daphnes(run, env, daphne_ports)
    try:
        deploy.start_nginx(run)
        yield Cluster(env, run, port, daphne_ports)
    finally:
        deploy.stop(run)
        for process in processes:
            process.wait(10)


def fetch(
    cluster: Cluster,
    client: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """A request to nginx from the loopback address `client`; POST when there is a body."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", cluster.port, timeout=10, source_address=(client, 0)
    )
    try:
        conn.request("POST" if body is not None else "GET", path, body, headers or {})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def eventually(read: Callable[[], list[str]], wanted: Callable[[str], bool]) -> str:
    """The first line `wanted` in a log that may still be on its way to the file."""
    for _ in range(100):
        line = next((line for line in read() if wanted(line)), None)
        if line is not None:
            return line
        time.sleep(0.05)
    raise AssertionError("no such line in the log")


def process_of(cluster: Cluster, client: str) -> int:
    """The port of the daphne that nginx sends `client` to, from nginx's log."""
    probe = f"/healthz?from={client}"
    assert fetch(cluster, client, probe)[0] == 200
    line = eventually(cluster.nginx_log, lambda line: f"GET {probe} " in line)
    return int(found(r"upstream=127\.0\.0\.1:(\d+)$", line))


def clients_on_each_process(cluster: Cluster) -> dict[int, str]:
    """A client address for each daphne port."""
    chosen: dict[int, str] = {}
    for n in range(2, 100):
        chosen.setdefault(process_of(cluster, f"127.0.0.{n}"), f"127.0.0.{n}")
        if len(chosen) == len(cluster.daphne_ports):
            return chosen
    raise AssertionError(f"every address went to the same process: {chosen}")


def cookie(headers: http.client.HTTPMessage, name: str) -> str:
    for header in headers.get_all("Set-Cookie") or []:
        if header.startswith(f"{name}="):
            return header.split(";")[0].split("=", 1)[1]
    raise AssertionError(f"no {name} cookie")


def move(cluster: Cluster, client: str, game: int, session: str, **fields: str) -> int:
    """A move posted as the table page does, from `client`."""
    _, headers, body = fetch(
        cluster, client, f"/games/{game}/table/", None, {"Cookie": f"sessionid={session}"}
    )
    html = body.decode()
    form = urllib.parse.urlencode({"version": version_of(html), **fields}).encode()
    status, _, _ = fetch(
        cluster,
        client,
        f"/games/{game}/move/",
        form,
        {
            "Cookie": f"sessionid={session}; csrftoken={cookie(headers, 'csrftoken')}",
            "X-CSRFToken": found(r'"X-CSRFToken": "([^"]+)"', html),
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    return status


async def open_socket(
    cluster: Cluster, client: str, path: str, session: str
) -> tuple[ClientConnection, str]:
    site = f"http://127.0.0.1:{cluster.port}"
    ws = await connect(
        f"ws://127.0.0.1:{cluster.port}{path}",
        origin=site,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=10,
        local_addr=(client, 0),
    )
    return ws, str(await asyncio.wait_for(ws.recv(), 10))


async def test_players_on_two_processes_play_through_the_proxy(cluster: Cluster) -> None:
    clients = await asyncio.to_thread(clients_on_each_process, cluster)
    (alice_port, alice_at), (bob_port, bob_at) = clients.items()
    game = await asyncio.to_thread(run_setup, cluster.env, "proxy")
    table = f"/ws/games/{game['game']}/"
    alice_ws, first = await open_socket(cluster, alice_at, table, game["alice_session"])
    bob_ws, _ = await open_socket(cluster, bob_at, table, game["bob_session"])
    at = {"alice": (alice_at, game["alice_session"]), "bob": (bob_at, game["bob_session"])}
    version = version_of(first)
    try:
        # The bidding: bob (left of the dealer) 15, alice 20, bob passes; alice picks trump.
        # Each move goes to the mover's process and must reach the other's socket.
        for mover, fields, watcher in [
            ("bob", {"kind": "bid", "amount": "15"}, alice_ws),
            ("alice", {"kind": "bid", "amount": "20"}, bob_ws),
            ("bob", {"kind": "bid", "amount": "0"}, alice_ws),
            ("alice", {"kind": "trump", "suit": "H"}, bob_ws),
        ]:
            client, session = at[mover]
            status = await asyncio.to_thread(move, cluster, client, game["game"], session, **fields)
            assert status == 200, (mover, fields)
            version += 1
            await frame_with(watcher, f'data-version="{version}"')
    finally:
        await alice_ws.close()
        await bob_ws.close()

    # Who served whom: each process's access log has all of one player's requests and
    # socket, under the player's own address (daphne took it from X-Forwarded-For), and
    # none of the other's; nginx's log agrees.
    moves = f'"POST /games/{game["game"]}/move/"'
    for port, client in clients.items():
        log = functools.partial(requests_from, cluster, client)
        eventually(functools.partial(log, port), lambda line: f'"WSDISCONNECT {table}"' in line)
        assert sum(f'"WSCONNECT {table}"' in line for line in log(port)) == 1
        assert sum(moves in line for line in log(port)) == 2
        assert not [line for other in cluster.daphne_ports if other != port for line in log(other)]
        upstreams = {
            line.rsplit("upstream=", 1)[1]
            for line in cluster.nginx_log()
            if line.startswith(f"{client} ")
        }
        assert upstreams == {f"127.0.0.1:{port}"}


def requests_from(cluster: Cluster, client: str, port: int) -> list[str]:
    """The lines of a daphne's access log for requests and sockets from `client`."""
    return [line for line in cluster.daphne_log(port) if line.startswith(f"{client}:")]


def test_static_files_are_nginx_s_own_with_long_cache_headers(cluster: Cluster) -> None:
    client = "127.0.0.1"
    page = fetch(cluster, client, "/accounts/login/")[2].decode()
    css = found(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', page)
    status, headers, body = fetch(cluster, client, css, None, {"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Encoding"] == "gzip"  # collectstatic's .gz copy
    collected = Path(cluster.env["STATIC_ROOT"]) / css.removeprefix("/static/")
    assert gzip.decompress(body) == collected.read_bytes()
    # nginx answered itself: no upstream in its log, and neither daphne saw the request.
    assert eventually(cluster.nginx_log, lambda line: f"GET {css} " in line).endswith("upstream=-")
    for port in cluster.daphne_ports:
        assert not [line for line in cluster.daphne_log(port) if css in line]


def sign_in_fails(
    cluster: Cluster, client: str, login: str, headers: dict[str, str] | None = None
) -> str:
    """What the sign-in page says to a wrong password from `client`."""
    _, got, page = fetch(cluster, client, "/accounts/login/")
    token = found(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.decode())
    form = {"login": login, "password": "wrong-password-1", "csrfmiddlewaretoken": token}
    _, _, body = fetch(
        cluster,
        client,
        "/accounts/login/",
        urllib.parse.urlencode(form).encode(),
        {
            "Cookie": f"csrftoken={cookie(got, 'csrftoken')}",
            "Content-Type": "application/x-www-form-urlencoded",
            **(headers or {}),
        },
    )
    return body.decode()


def test_django_counts_failed_sign_ins_by_the_client_address_nginx_passes_on(
    cluster: Cluster,
) -> None:
    # Addresses of this run only: the counts live a minute in the shared Redis cache.
    network = f"127.{secrets.randbelow(254) + 1}.{secrets.randbelow(256)}"
    spray, other = f"{network}.7", f"{network}.8"
    for n in range(PER_ADDRESS):
        assert "not correct" in sign_in_fails(cluster, spray, f"nobody{n}")
    assert THROTTLED in sign_in_fails(cluster, spray, "nobody")
    # A client cannot pass for another by sending its own X-Forwarded-For: nginx replaces it.
    assert THROTTLED in sign_in_fails(cluster, spray, "nobody", {"X-Forwarded-For": other})
    # Another client of the same nginx is counted apart.
    assert "not correct" in sign_in_fails(cluster, other, "nobody")
