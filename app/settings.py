"""Settings, from the environment or a `.env` file. Every setting has a working default."""

from __future__ import annotations

from functools import cached_property
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEVELOPMENT_SECRET = "development-only-secret-change-me"
ENVIRONMENTS = ("development", "production")
LOG_FORMATS = ("", "json", "text")
MIN_PRODUCTION_SECRET_BYTES = 32  # the key signs session cookies and mail links: guessing it is forging them
Network = IPv4Network | IPv6Network


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: str = Field("development", description="development or production")
    data_dir: Path = Field(Path("var"), description="where the SQLite file and mail files live")
    database_url: str = Field("", description="SQLAlchemy URL; empty means SQLite under data_dir")
    secret_key: str = Field(DEVELOPMENT_SECRET, description="signs session cookies and tokens")
    base_url: str = Field("http://127.0.0.1:8000", description="public address, used in e-mail links")
    base_url_served: bool = Field(
        False, description="base_url is the address `ostraca serve` listens on, not one the operator chose"
    )
    smtp_url: str = Field("", description="smtp://user:pass@host:port; empty writes mail to files")
    mail_from: str = Field("Ostraca <noreply@ostraca.example.com>", description="sender of e-mails")
    https_only_cookies: bool = Field(False, description="mark the session cookie Secure")
    session_max_age_days: int = Field(30, description="how long a log-in lasts")
    run_jobs: bool = Field(True, description="run the background jobs in this process")
    web_processes: int = Field(
        0, ge=0, description="processes of `ostraca serve`; 0: one per core on Postgres, one on SQLite"
    )
    sweep_seconds: float = Field(10.0, description="interval of the deadline sweeper")
    bot_seconds: float = Field(1.0, description="interval of the job that plays the bots' turns")
    sweep_batch: int = Field(100, description="waits the sweeper claims at a time")
    sweep_lease_seconds: int = Field(300, description="how long a claimed wait is left to its claimer")
    sweep_max_attempts: int = Field(5, description="failed claims of a wait before its game is quarantined")
    outage_threshold_seconds: int = Field(300, description="a longer gap between sweeps is an outage")
    login_attempts_per_minute: int = Field(
        10, description="per address and account (an address: 3x, over all accounts; an account: 10x an hour)"
    )
    signups_per_hour: int = Field(20, description="per address")
    orders_per_minute: int = Field(60, description="per user")
    default_language: str = Field("en", description="language when the browser says nothing we know")
    mail_every_seconds: float = Field(5.0, description="interval of the mail jobs (outbox, digests)")
    mail_batch_size: int = Field(50, description="mails one worker claims at a time")
    mail_max_attempts: int = Field(8, description="attempts before a mail is marked dead")
    mail_retry_seconds: float = Field(60.0, description="first retry delay; doubles each time, up to 6 h")
    mail_lease_seconds: float = Field(300.0, description="how long a claimed mail is left to its worker")
    smtp_timeout_seconds: float = Field(30.0, description="per SMTP command")
    your_turn_every_hours: float = Field(3.0, description="at most one 'your turn' mail per game this often")
    bounce_secret: str = Field("", description="shared secret of the bounce webhook; empty disables it")
    metrics_token: str = Field("", description="bearer token for /metrics; empty: loopback only")
    worker_metrics_port: int = Field(0, description="port of `ostraca worker`'s own /metrics; 0: none")
    worker_metrics_host: str = Field("127.0.0.1", description="address the worker's /metrics listens on")
    log_format: str = Field("", description="json or text; empty: json in production, text in development")
    messages_per_minute: int = Field(6, description="game messages per user")
    trusted_proxies: str = Field(
        "", description="addresses or networks of the reverse proxies whose X-Forwarded-For is believed"
    )
    redis_url: str = Field("", description="redis://host:port/db shares the rate limits; empty: per process")
    max_requests_in_flight: int = Field(
        64, description="per web process; past it a request is answered 503 with Retry-After at once"
    )
    db_pool_timeout_seconds: float = Field(
        3.0, description="how long a request waits for a database connection before a 503 (Postgres)"
    )
    signup_confirmation: bool | None = Field(
        None, description="sign-up waits for the address check (no account enumeration); empty: in production"
    )

    @field_validator("environment")
    @classmethod
    def _known_environment(cls, value: str) -> str:
        """Only the documented values: a typo ("prod", "Production") must not quietly mean development."""
        if value not in ENVIRONMENTS:
            raise ValueError(f"ENVIRONMENT is 'development' or 'production', not {value!r}")
        return value

    @field_validator("log_format")
    @classmethod
    def _known_log_format(cls, value: str) -> str:
        if value not in LOG_FORMATS:
            raise ValueError(f"LOG_FORMAT is 'json', 'text' or empty, not {value!r}")
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _check_proxies(cls, value: str) -> str:
        parse_networks(value)  # raises ValueError on a bad address
        return value

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.environment != "production":
            return self
        if self.secret_key == DEVELOPMENT_SECRET:
            raise ValueError("SECRET_KEY must be set in production (the default one is public)")
        if len(self.secret_key.encode()) < MIN_PRODUCTION_SECRET_BYTES:
            raise ValueError(
                f"SECRET_KEY must have at least {MIN_PRODUCTION_SECRET_BYTES} bytes in production "
                "(for example: python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return self

    @cached_property
    def trusted_proxy_networks(self) -> tuple[Network, ...]:
        return parse_networks(self.trusted_proxies)

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
        return self.environment == "development"

    @property
    def json_logs(self) -> bool:
        return self.log_format == "json" or (self.log_format == "" and not self.development)

    @property
    def confirms_signups(self) -> bool:
        """Whether a sign-up waits for the address check (else it logs in at once, which tells whether an
        address is taken: fine on a development machine, not on a public server)."""
        return self.signup_confirmation if self.signup_confirmation is not None else not self.development

    @property
    def base_url_chosen(self) -> bool:
        """Whether the operator set BASE_URL (else links follow the address served)."""
        return "base_url" in self.model_fields_set and not self.base_url_served

    @property
    def secure_cookies(self) -> bool:
        """Cookies only over HTTPS: when asked, and in production whenever the public address is HTTPS."""
        return self.https_only_cookies or (not self.development and self.base_url.startswith("https://"))


def parse_networks(text: str) -> tuple[Network, ...]:
    """Comma-separated addresses or networks ("10.0.0.0/8, ::1"); ValueError on anything else."""
    return tuple(ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip())
