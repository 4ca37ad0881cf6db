"""What does a CSRF token cost a request's thread while another thread is busy?

Every page and every move's answer carries a freshly masked CSRF token. Django draws the mask
with one read of the system's randomness per character (32 or more), and each read lets go of
the GIL; in a busy server another thread then holds it, and the request's thread can wait up
to a switch interval to get it back. `hundredten/csrf.py` draws the mask in one read.

Times Django's `get_token` and ours, each 500 times, first alone, then with one other thread
spinning in Python (as daphne's event loop is when busy). Prints median and p99.

Run: `.venv/bin/python bench/csrf_token.py`. Results: bench/results/realtime.md.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROUNDS = 500


def spin(stop: threading.Event) -> None:
    count = 0
    while not stop.is_set():
        count += 1


def timed(get_token: Callable[..., str], request: object) -> tuple[float, float]:
    samples = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        get_token(request)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1]


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    from django.http import HttpRequest
    from django.middleware import csrf as django_csrf

    from hundredten import csrf

    request = HttpRequest()
    request.META["CSRF_COOKIE"] = "s3cr3t" * 5 + "ab"
    print(f"switch interval {sys.getswitchinterval() * 1000:.1f} ms; {ROUNDS} tokens each")
    for busy in (False, True):
        stop = threading.Event()
        if busy:
            threading.Thread(target=spin, args=(stop,), daemon=True).start()
        try:
            for label, get_token in (("Django", django_csrf.get_token), ("ours", csrf.get_token)):
                median, p99 = timed(get_token, request)
                where = "another thread busy" if busy else "alone"
                print(f"{where:<20} {label:<7} median {median:7.3f} ms   p99 {p99:7.3f} ms")
        finally:
            stop.set()


if __name__ == "__main__":
    main()
