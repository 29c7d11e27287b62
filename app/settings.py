"""Settings, from the environment or a `.env` file. Every setting has a working default."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEVELOPMENT_SECRET = "development-only-secret-change-me"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: str = Field("development", description="development or production")
    data_dir: Path = Field(Path("var"), description="where the SQLite file and mail files live")
    database_url: str = Field("", description="SQLAlchemy URL; empty means SQLite under data_dir")
    secret_key: str = Field(DEVELOPMENT_SECRET, description="signs session cookies and tokens")
    base_url: str = Field("http://127.0.0.1:8000", description="public address, used in e-mail links")
    smtp_url: str = Field("", description="smtp://user:pass@host:port; empty writes mail to files")
    mail_from: str = Field("Ostraca <noreply@ostraca.example.com>", description="sender of e-mails")
    https_only_cookies: bool = Field(False, description="mark the session cookie Secure")
    session_max_age_days: int = Field(30, description="how long a log-in lasts")
    run_jobs: bool = Field(True, description="run the background jobs in this process")
    sweep_seconds: float = Field(10.0, description="interval of the deadline sweeper")
    login_attempts_per_minute: int = Field(10, description="per address and per e-mail")
    signups_per_hour: int = Field(20, description="per address")
    orders_per_minute: int = Field(60, description="per user")
    default_language: str = Field("en", description="language when the browser says nothing we know")

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.environment == "production" and self.secret_key == DEVELOPMENT_SECRET:
            raise ValueError("SECRET_KEY must be set in production")
        return self

    @cached_property
    def sqlalchemy_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'ostraca.sqlite3').as_posix()}"

    @property
    def is_sqlite(self) -> bool:
        return self.sqlalchemy_url.startswith("sqlite")

    @property
    def mail_dir(self) -> Path:
        return self.data_dir / "mail"

    @property
    def development(self) -> bool:
        return self.environment != "production"
