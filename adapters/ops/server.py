"""The operator's endpoints of one worker, a small aiohttp app on ``METRICS_PORT`` (issue
28; apart from the web table's server on ``WEB_PORT``):

* ``GET /metrics``: the Prometheus text format of :data:`adapters.ops.metrics.REGISTRY`
  (the timer gauges sampled at each scrape, left out when Redis does not answer in
  time: the endpoint always answers 200, issue 36; the series of
  :mod:`adapters.ops.series` need no Redis);
* ``GET /health/live``: 200 while the process runs its event loop;
* ``GET /health/ready``: 200 ``ready`` when this worker can serve, else 503 with the
  reason (:class:`adapters.ops.health.Readiness`: Redis down, a cluster that fails or
  has a slot without a live primary, a Sentinel failover in progress, or its recent
  Redis calls failing); a load balancer or an orchestrator stops sending it work
  meanwhile.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from adapters.ops import series
from adapters.ops.health import Readiness
from adapters.ops.metrics import REDIS_ERRORS, REGISTRY, sample_timers

log = logging.getLogger(__name__)


def ops_app(store: Any, clock: Any = time.time) -> web.Application:
    """The app over ``store`` (a :class:`adapters.storage.redis_store.RedisStore`);
    ``clock()`` gives the Unix time the timer gauges count due deadlines against."""

    readiness = Readiness(store.client)

    async def metrics(_request: web.Request) -> web.Response:
        if not await sample_timers(store, clock()):
            series.SKIPPED.labels("timers").inc()
        series.READY.set(0 if await readiness.check() else 1)
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def live(_request: web.Request) -> web.Response:
        return web.Response(text="live")

    async def ready(_request: web.Request) -> web.Response:
        reason = await readiness.check()
        if reason is not None:
            REDIS_ERRORS.inc()
            return web.Response(status=503, text=f"not ready: {reason}")
        return web.Response(text="ready")

    async def close_probes(_app: web.Application) -> None:
        await readiness.close()

    app = web.Application()
    app.on_cleanup.append(close_probes)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/health/live", live)
    app.router.add_get("/health/ready", ready)
    return app


_SERVED: dict[int, web.AppRunner] = {}
"""The ports this process serves already: ``python -m bot serve`` runs two platforms in
one process, and the first one's endpoints serve both."""


async def start_ops(store: Any, port: int | None, host: str = "0.0.0.0",
                    clock: Any = time.time) -> web.AppRunner | None:
    """Serve :func:`ops_app` on ``host:port`` (``METRICS_PORT``); the runner, for
    :func:`stop_ops`, or None when ``port`` is None or this process serves it already.
    Raises ``OSError`` when the port is taken by another process."""
    if port is None or port in _SERVED:
        return None
    runner = web.AppRunner(ops_app(store, clock), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    _SERVED[port] = runner
    log.info("operator's endpoints on %s:%d (/metrics, /health/live, /health/ready)",
             host, port)
    return runner


async def stop_ops(runner: web.AppRunner | None) -> None:
    """Stop what :func:`start_ops` started (None: nothing)."""
    if runner is None:
        return
    for port, served in list(_SERVED.items()):
        if served is runner:
            del _SERVED[port]
    await runner.cleanup()
