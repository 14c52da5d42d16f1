"""Flood control on a fake clock: the per-chat burst, the per-group minute, the global second, injection."""

import pytest

from tests.botapi.clock import FakeClock
from tests.botapi.errors import ApiError
from tests.botapi.limits import FloodControl, FloodPolicy


def refused(flood: FloodControl, chat_id: int, is_group: bool = False, receiver_id: int | None = None) -> int | None:
    """retry_after when the message is refused, None when it passes."""
    try:
        flood.check(chat_id, is_group, receiver_id)
    except ApiError as error:
        assert error.code == 429 and error.parameters is not None
        retry_after = error.parameters["retry_after"]
        assert error.description == f"Too Many Requests: retry after {retry_after}"
        return retry_after
    return None


def test_a_chat_allows_a_short_burst_then_one_per_second() -> None:
    clock = FakeClock()
    flood = FloodControl(clock)
    assert [refused(flood, 1) for _ in range(4)] == [None, None, None, 1]
    assert refused(flood, 2) is None  # another chat has its own bucket
    clock.advance(1)
    assert refused(flood, 1) is None
    assert refused(flood, 1) == 1


def test_a_group_takes_twenty_a_minute() -> None:
    clock = FakeClock()
    flood = FloodControl(clock)
    for _ in range(20):
        assert refused(flood, -5, is_group=True) is None
        clock.advance(1)
    assert refused(flood, -5, is_group=True) == 40  # the first one leaves the window at 60s
    clock.advance(40)
    assert refused(flood, -5, is_group=True) is None


def test_the_bot_sends_thirty_a_second_overall() -> None:
    flood = FloodControl(FakeClock())
    assert all(refused(flood, chat) is None for chat in range(30))
    assert refused(flood, 30) == 1


def test_ephemeral_messages_count_per_receiver_and_overall_but_not_per_group() -> None:
    clock = FakeClock()
    flood = FloodControl(clock)

    # Twenty ephemeral messages in a minute leave the group's twenty for what everyone sees.
    for second in range(20):
        assert refused(flood, -5, True, receiver_id=second) is None
        clock.advance(1)
    for _ in range(20):
        assert refused(flood, -5, is_group=True) is None
        clock.advance(1)
    assert refused(flood, -5, is_group=True) == 40  # the group's own twenty are spent
    # Each receiver has a private chat's bucket in the group: a burst of three, then one a second.
    clock.advance(60)
    assert [refused(flood, -5, True, receiver_id=7) for _ in range(4)] == [None, None, None, 1]
    assert refused(flood, -5, True, receiver_id=8) is None
    assert refused(flood, -5, is_group=True) is None
    # The global second counts them: thirty receivers at once, and the thirty-first waits.
    clock.advance(60)
    assert all(refused(flood, -6, True, receiver_id=user) is None for user in range(30))
    assert refused(flood, -7, True, receiver_id=99) == 1


def test_limits_switch_off_and_policies_change() -> None:
    flood = FloodControl(FakeClock(), FloodPolicy(chat_burst=1), enabled=False)
    assert all(refused(flood, 1) is None for _ in range(100))
    flood.enabled = True
    assert [refused(flood, 1), refused(flood, 1)] == [None, 1]
    flood.reset()
    assert refused(flood, 1) is None


def test_injected_floods_follow_the_seed() -> None:
    def run(seed: int) -> list[int | None]:
        flood = FloodControl(FakeClock(), enabled=False)
        flood.inject(0.3, seed=seed, retry_after=4)
        return [refused(flood, 1) for _ in range(40)]

    assert run(1) == run(1)
    assert set(run(1)) == {None, 4}
    assert run(1) != run(2)
    with pytest.raises(ValueError, match="probability"):
        FloodControl(FakeClock()).inject(1.5, seed=0)
