"""Settings from the environment (pydantic-settings); ``Settings()`` reads them.

Names are the environment variables themselves (case-insensitive); a ``.env`` file in
the working directory is read too. None is required for terminal play.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Process settings. ``redis_url`` None runs on the embedded fakeredis store."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    redis_url: str | None = None
    redis_prefix: str = Field(default="buraco", min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    """First part of every Redis key (several bots or test runs can share one database)."""
    telegram_token: str | None = None
    discord_token: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = Field(default=8443, ge=1, le=65535)
    telegram_base_url: str | None = None
    turn_timer_s: int = Field(default=90, ge=10, le=86_400)
    ai_pace_s: float = Field(default=1.0, ge=0, le=60)
    log_level: str = "INFO"
