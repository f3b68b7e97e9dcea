"""adapters.deadline: the arrival of the update being served, read in its task and the
tasks it starts (issue 36: the wait a person sees; a retry budget counted from it)."""

from __future__ import annotations

import asyncio

from adapters import deadline


def test_outside_an_update_nothing_has_waited_and_the_whole_budget_is_left() -> None:
    assert deadline.arrived() is None
    assert deadline.waited(now=100.0) == 0.0
    assert deadline.left(2.5, now=100.0) == 2.5


def test_waited_and_left_count_from_the_marked_arrival() -> None:
    async def serve() -> tuple[float | None, float, float, float]:
        deadline.arrive(at=50.0)
        return (deadline.arrived(), deadline.waited(now=50.75),
                deadline.left(2.0, now=50.75), deadline.left(2.0, now=53.0))

    assert asyncio.run(serve()) == (50.0, 0.75, 1.25, 0.0)
    assert deadline.arrived() is None  # the task's context, not the caller's


def test_a_task_started_while_serving_reads_the_same_arrival_and_others_do_not() -> None:
    async def main() -> tuple[float | None, float | None]:
        async def serve(at: float) -> float | None:
            deadline.arrive(at=at)
            return await asyncio.create_task(reader())

        async def reader() -> float | None:
            await asyncio.sleep(0)
            return deadline.arrived()

        one, two = await asyncio.gather(serve(7.0), serve(9.0))
        return one, two

    assert asyncio.run(main()) == (7.0, 9.0)
