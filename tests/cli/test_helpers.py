"""The table server's helpers: where its data lives, the address phones open, the TLS certificate."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest
from cryptography import x509

from shipmate.net import lan_address, phone_url
from shipmate.serve import certificate, data_home, qr_code


def test_the_data_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_home() == tmp_path / "shipmate"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert data_home() == Path.home() / ".local" / "share" / "shipmate"


def test_the_lan_address_is_an_ipv4_address() -> None:
    assert isinstance(ipaddress.ip_address(lan_address()), ipaddress.IPv4Address)


def test_phones_open_the_lan_address_of_a_server_on_every_interface() -> None:
    assert phone_url("0.0.0.0", 8000, False, "192.168.1.20") == "http://192.168.1.20:8000/"
    assert phone_url("10.0.0.5", 8443, True, "192.168.1.20") == "https://10.0.0.5:8443/"
    assert phone_url("::1", 8000, False, "192.168.1.20") == "http://[::1]:8000/"


def test_the_qr_code_is_drawn_in_block_characters() -> None:
    drawing = qr_code("http://192.168.1.20:8000/")
    assert len(drawing.splitlines()) > 10
    assert set(drawing) <= {" ", "█", "▀", "▄", "\n"}


def sans(cert_file: Path) -> list[str]:
    """Return the DNS names and IP addresses a certificate is made for."""
    cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return [*names.get_values_for_type(x509.DNSName),
            *map(str, names.get_values_for_type(x509.IPAddress))]


def test_the_certificate_is_kept_until_the_address_changes(tmp_path: Path) -> None:
    cert, key = certificate(tmp_path, ["192.168.1.20"])
    assert sorted(sans(cert)) == ["127.0.0.1", "192.168.1.20", "localhost"]
    assert key.stat().st_mode & 0o077 == 0
    first = cert.read_bytes()

    assert certificate(tmp_path, ["192.168.1.20"])[0].read_bytes() == first
    assert certificate(tmp_path, [])[0].read_bytes() == first

    moved, _ = certificate(tmp_path, ["10.0.0.7"])
    assert moved.read_bytes() != first
    assert "10.0.0.7" in sans(moved)
