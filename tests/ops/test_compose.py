"""docker-compose.yml is valid against the compose specification, and runs only commands `ostraca` knows."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent.parent
COMPOSE = ROOT / "docker-compose.yml"


def services() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return document["services"]


def test_the_compose_file_follows_the_compose_specification() -> None:
    # check-jsonschema ships the compose specification's schema: no network needed.
    checker = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    assert checker is not None
    result = subprocess.run(
        [checker, "--builtin-schema", "vendor.compose-spec", str(COMPOSE)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_schema_check_catches_a_typo(tmp_path: Path) -> None:
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(COMPOSE.read_text().replace("service_completed_successfully", "service_completed", 1))
    checker = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    assert checker is not None
    result = subprocess.run(
        [checker, "--builtin-schema", "vendor.compose-spec", str(broken)], capture_output=True, timeout=120
    )
    assert result.returncode == 1


APP_SERVICES = ["migrate", "web", "worker"]


@pytest.mark.parametrize("name", APP_SERVICES)
def test_each_app_service_runs_a_command_ostraca_knows(name: str) -> None:
    command = services()[name]["command"]
    assert command[0] == "ostraca"
    parsed = build_parser().parse_args(command[1:])  # exits (fails the test) on an unknown flag
    assert parsed.command == name.replace("web", "serve")


def test_the_dockerfile_default_command_is_one_ostraca_knows() -> None:
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert cmd is not None
    command = yaml.safe_load(cmd.group(1))
    assert command == services()["web"]["command"]


def test_the_topology() -> None:
    defined = services()
    assert defined["web"]["deploy"]["replicas"] == 2 and defined["worker"]["deploy"]["replicas"] == 2
    assert "--no-jobs" in defined["web"]["command"]
    published = [name for name, service in defined.items() if service.get("ports")]
    assert published == ["nginx"]  # the replicas, Postgres, Redis and Mailpit stay on the internal network
    assert "healthcheck" in defined["db"]
    for name in ("web", "worker"):
        assert defined[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}


def test_nginx_streams_live_updates_without_buffering() -> None:
    config = (ROOT / "deploy" / "nginx.conf").read_text()
    live = config[config.index("location ~ ^/games/[0-9]+/live$") :].split("}", 1)[0]
    assert "proxy_buffering off;" in live
    assert "proxy_read_timeout 1h;" in live
    assert "proxy_http_version 1.1;" in config and 'proxy_set_header Connection "";' in config
    assert "server web:8000;" in config


@pytest.mark.skipif(shutil.which("nginx") is None, reason="needs Debian's nginx")
def test_nginx_accepts_the_configuration(tmp_path: Path) -> None:
    site = (ROOT / "deploy" / "nginx.conf").read_text().replace("server web:8000;", "server 127.0.0.1:8000;")
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n access_log off;\n client_body_temp_path {tmp_path};\n include {tmp_path}/site.conf;\n}}\n"
    )
    nginx = shutil.which("nginx")
    assert nginx is not None
    result = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
