"""What the chat adapters share: the delivery policy (post once then edit, coalescing,
message references and stale tables in Redis) over a small platform protocol."""
