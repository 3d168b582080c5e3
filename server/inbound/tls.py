"""STARTTLS for the embedded SMTP receiver: mail clients such as mutt, and most MTAs, start TLS
whenever the server offers it, and some refuse to send without (`454 TLS not available`).

The certificate is the one named by `IRIDESCIA_INBOUND_TLS_CERT` and `IRIDESCIA_INBOUND_TLS_KEY`
(PEM files, e.g. the host's Let's Encrypt pair); without them, a self-signed one is made at the
first start under `var/inbound-tls/` and kept, so a client that pins it on first use keeps
trusting it. TLS is offered, never required: a relay that does not speak it still delivers.
"""

from __future__ import annotations

import datetime
import logging
import os
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

log = logging.getLogger(__name__)

DEFAULT_DIRECTORY = Path("var") / "inbound-tls"
VALID_DAYS = 3650


class TlsSettingError(ValueError):
    """IRIDESCIA_INBOUND_TLS_CERT/_KEY name files that cannot be used."""


def certificate_files(cert: str, key: str, directory: Path = DEFAULT_DIRECTORY,
                      hostname: str = "localhost") -> tuple[Path, Path]:
    """The (certificate, key) PEM files to use: the ones configured, else the ones made under
    `directory` (made now when missing)."""
    if bool(cert) != bool(key):
        raise TlsSettingError("IRIDESCIA_INBOUND_TLS_CERT and IRIDESCIA_INBOUND_TLS_KEY go "
                              "together: set both (PEM files) or neither (a self-signed "
                              "certificate is made under var/inbound-tls/)")
    if cert:
        for name, path in (("CERT", cert), ("KEY", key)):
            if not Path(path).is_file():
                raise TlsSettingError(f"IRIDESCIA_INBOUND_TLS_{name} {path!r} is not a file")
        return Path(cert), Path(key)
    made_cert, made_key = directory / "cert.pem", directory / "key.pem"
    if not (made_cert.is_file() and made_key.is_file()):
        make_self_signed(made_cert, made_key, hostname)
        log.warning("made a self-signed certificate for the SMTP receiver's STARTTLS in %s "
                    "(set IRIDESCIA_INBOUND_TLS_CERT/_KEY to use your own)", directory)
    return made_cert, made_key


def make_self_signed(cert_path: Path, key_path: Path, hostname: str) -> None:
    """A self-signed certificate for `hostname` (an EC P-256 key), the key readable by the owner
    only."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hostname)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(hostname)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path.parent.mkdir(parents=True, exist_ok=True)
    key_bytes = key.private_bytes(serialization.Encoding.PEM,
                                  serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption())
    descriptor = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(key_bytes)
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))


def server_context(cert: str, key: str, directory: Path = DEFAULT_DIRECTORY,
                   hostname: str = "localhost") -> ssl.SSLContext:
    """The receiver's TLS context (TLS 1.2 or later)."""
    cert_path, key_path = certificate_files(cert, key, directory, hostname)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert_path, key_path)
    except (ssl.SSLError, OSError) as error:
        raise TlsSettingError(f"the SMTP receiver's certificate {cert_path} and key {key_path} "
                              f"cannot be used: {error}") from None
    return context
