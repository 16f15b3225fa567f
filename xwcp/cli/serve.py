"""The `serve` command: start the web builder (the [web] extra) and print its URL."""

from __future__ import annotations

import argparse

from xwcp.base.errors import InputError
from xwcp.cli.exits import EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    """Example: xwcp serve --port 8000"""
    try:
        import uvicorn  # noqa: F401

        from xwcp.web.hosts import allowed_hosts
        from xwcp.web.serve import serve
    except ImportError as exc:
        raise InputError(
            f"the web builder needs the [web] extra ({exc.name} is missing): pip install 'xwcp[web]'"
        ) from None
    from xwcp.services.types import default_threads

    serve(
        host=args.host,
        port=args.port,
        words=args.words,
        workers=args.workers or default_threads(),
        max_fills=args.max_fills or default_threads(),
        hosts=allowed_hosts(args.host, args.allow_host),
        personal=not args.no_personal,
        announce=lambda url: print(f"xwcp builder: {url}", flush=True),
        language=getattr(args, "language", None),
        cache_mb=args.cache_mb,
    )
    return EXIT_OK
