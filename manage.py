#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

from __future__ import annotations

import os
import sys

# Commands that replay or simulate games with the pure engines: they read no database, send
# nothing and sign nothing, so they run with the development settings (no SECRET_KEY needed),
# exactly as the README shows them on a fresh clone.
OFFLINE_COMMANDS = {"conformance", "simulate"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hundredten.settings")
    if sys.argv[1:2] and sys.argv[1] in OFFLINE_COMMANDS:
        os.environ.setdefault("DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
