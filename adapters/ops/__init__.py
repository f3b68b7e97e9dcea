"""What an operator sees of a worker (issue 28): Prometheus metrics
(:mod:`adapters.ops.metrics`) and a health endpoint (:mod:`adapters.ops.server`) on
``METRICS_PORT``, apart from the web table's server."""
