"""`deploy/cluster.py stop` stops the daphnes before nginx: a daphne answers the requests it
has taken before it exits (hundredten/drain.py), and nginx must still be there to pass the
answers on. Stand-ins for the processes, which note the order they were stopped in."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from deploy import cluster

# A process whose command line names the run folder, as the cluster's do (`cluster.ours`):
# on SIGTERM it notes its name and exits.
STAND_IN = """
import pathlib, signal, sys, time
run, name = pathlib.Path(sys.argv[1]), sys.argv[2]
def stop(*_):
    with (run / "stopped").open("a") as out:
        out.write(name + "\\n")
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
(run / (name + ".ready")).touch()
while True:
    time.sleep(1)
"""


def stand_in(run: Path, name: str) -> subprocess.Popen[bytes]:
    # Its own session, as start_daphnes gives each daphne (stop signals the whole group).
    proc = subprocess.Popen(
        [sys.executable, "-c", STAND_IN, str(run), name], start_new_session=True
    )
    (run / f"{name}.pid").write_text(f"{proc.pid}\n")
    return proc


def test_stop_stops_each_daphne_before_nginx(tmp_path: Path) -> None:
    names = ["nginx", "daphne-8001", "daphne-8002"]
    procs = [stand_in(tmp_path, name) for name in names]
    try:
        while not all((tmp_path / f"{name}.ready").exists() for name in names):
            time.sleep(0.05)
        stopped = cluster.stop(tmp_path)
        assert [line.split(" ")[0] for line in stopped] == ["daphne-8001", "daphne-8002", "nginx"]
        assert (tmp_path / "stopped").read_text().split() == [
            "daphne-8001",
            "daphne-8002",
            "nginx",
        ]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait(5)
