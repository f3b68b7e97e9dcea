"""The Grafana dashboard (docs/grafana/buraco.json) and the Prometheus alert rules
(docs/prometheus/alerts.yml) of issue 36 name only series the bot's /metrics has: each
PromQL expression's metric names are read out of it and looked up among the samples the
registry's metric families expose (a histogram's ``_bucket``/``_count``/``_sum``, a
counter's ``_total``, an info's ``_info``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import adapters.ops.server  # noqa: F401  (registers every series: adapters.ops.series)
from adapters.ops.metrics import REGISTRY

DOCS = Path(__file__).resolve().parents[1] / "docs"
SUFFIXES = {"histogram": ("_bucket", "_count", "_sum", "_created"),
            "counter": ("_total", "_created"), "info": ("_info",), "gauge": ("",),
            "summary": ("_count", "_sum", "_created"), "unknown": ("",)}
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or",
            "unless", "bool", "offset", "inf", "nan"}


def exposed() -> set[str]:
    """Every sample name the bot's registry can expose, with or without samples yet."""
    names = set()
    for family in REGISTRY.collect():
        names |= {family.name + suffix for suffix in SUFFIXES[family.type]}
    return names


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects (functions, keywords, label
    matchers, grouping lists, ranges and numbers left out)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # strings
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "",
                  text)
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        rest = text[match.end():].lstrip()
        word = match.group(0)
        if rest.startswith("(") or word.lower() in KEYWORDS:
            continue  # a function (rate, histogram_quantile, time, absent, ...)
        if re.fullmatch(r"\d*e\d+", word) or (match.start() and text[match.start() - 1].isdigit()):
            continue  # part of a number such as 1.5e9
        names.add(word)
    return names


def dashboard_queries() -> list[tuple[str, str]]:
    board = json.loads((DOCS / "grafana" / "buraco.json").read_text())
    return [(panel["title"], target["expr"]) for panel in board["panels"]
            for target in panel["targets"]]


def alert_queries() -> list[tuple[str, str]]:
    text = (DOCS / "prometheus" / "alerts.yml").read_text()
    alerts = re.findall(r"^\s*- alert:\s*(\S+)\s*$", text, re.M)
    exprs = re.findall(r"^\s*expr:\s*(.+?)\s*$", text, re.M)
    assert len(alerts) == len(exprs) > 0
    return list(zip(alerts, exprs, strict=True))


def test_the_promql_reader_finds_the_series_and_nothing_else() -> None:
    assert metric_names('histogram_quantile(0.99, sum by (le, node) (rate('
                        'buraco_redis_roundtrip_seconds_bucket{node="a:1"}[5m]))) > 0.05'
                        ) == {"buraco_redis_roundtrip_seconds_bucket"}
    assert metric_names("time() - max(buraco_tick_last_success_timestamp_seconds) > 60"
                        ) == {"buraco_tick_last_success_timestamp_seconds"}
    assert metric_names("process_resident_memory_bytes > 1.5e9") == {
        "process_resident_memory_bytes"}
    assert metric_names("absent(buraco_build_info)") == {"buraco_build_info"}


@pytest.mark.parametrize(("where", "expr"), dashboard_queries() + alert_queries())
def test_every_panel_and_alert_names_series_of_the_bot_metrics(where: str, expr: str) -> None:
    names = metric_names(expr)
    assert names, (where, expr)
    assert names <= exposed(), (where, sorted(names - exposed()))


def test_the_dashboard_covers_what_an_operator_needs() -> None:
    used = set().union(*(metric_names(e) for _, e in dashboard_queries()))
    assert {"buraco_press_seconds_bucket", "buraco_ready", "buraco_intake_oldest_seconds",
            "buraco_intake_pending_updates", "buraco_delivery_queued_edits",
            "buraco_tick_seconds_bucket", "buraco_tick_steps_total",
            "buraco_tick_last_success_timestamp_seconds",
            "buraco_redis_roundtrip_seconds_bucket", "buraco_redis_failures_total",
            "process_cpu_seconds_total", "process_resident_memory_bytes",
            "process_open_fds", "python_gc_collections_total", "buraco_build_info"} <= used
