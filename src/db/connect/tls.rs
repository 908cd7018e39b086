//! TLS with rustls and libpq's `sslmode`s: which roots to trust, and one
//! certificate verifier for libpq's three strengths of checking.
//!
//! rustls, not OpenSSL: nothing to install or patch on a jump host.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};
use serde::Serialize;

/// libpq's `sslmode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SslMode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    pub fn parse(text: &str) -> Option<SslMode> {
        Some(match text {
            "disable" => SslMode::Disable,
            "allow" => SslMode::Allow,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Allow => "allow",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    /// The server's certificate is checked against trusted roots.
    pub fn verifies(self) -> bool {
        matches!(self, SslMode::VerifyCa | SslMode::VerifyFull)
    }
}

impl fmt::Display for SslMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where the trusted roots for `verify-ca` / `verify-full` come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootCerts {
    /// A PEM file (`sslrootcert=`, `PGSSLROOTCERT`, `~/.postgresql/root.crt`).
    File(PathBuf),
    /// The operating system's trust store.
    System,
}

impl fmt::Display for RootCerts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootCerts::File(path) => write!(f, "{}", path.display()),
            RootCerts::System => f.write_str("the system's trusted roots"),
        }
    }
}

/// A rustls client configuration for `mode` (not `disable`).
pub(super) fn tls_config(mode: SslMode, roots: &RootCerts) -> Result<rustls::ClientConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = if mode.verifies() {
        Some(Arc::new(load_roots(roots)?))
    } else {
        None
    };
    let verifier = Arc::new(PgVerifier {
        check_name: mode == SslMode::VerifyFull,
        roots,
        provider: provider.clone(),
    });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("setting up TLS")?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(config)
}

fn load_roots(roots: &RootCerts) -> Result<RootCertStore> {
    let mut store = RootCertStore::empty();
    match roots {
        RootCerts::File(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
                .map_err(|err| {
                    anyhow::anyhow!(
                        "could not read the root certificate file {} (sslrootcert / \
                         PGSSLROOTCERT): {err}. Next step: point it at the PEM file of the CA \
                         that signs the server's certificate",
                        path.display()
                    )
                })?;
            let (added, _ignored) = store.add_parsable_certificates(certs);
            if added == 0 {
                anyhow::bail!(
                    "the root certificate file {} holds no usable certificate. Next step: \
                     point sslrootcert (or PGSSLROOTCERT) at the PEM file of the CA",
                    path.display()
                );
            }
        }
        RootCerts::System => {
            let found = rustls_native_certs::load_native_certs();
            store.add_parsable_certificates(found.certs);
            if store.is_empty() {
                anyhow::bail!(
                    "no trusted roots found on this system, and no sslrootcert given. Next \
                     step: set sslrootcert (or PGSSLROOTCERT) to the CA's PEM file"
                );
            }
        }
    }
    Ok(store)
}

/// libpq's three strengths of verification in one rustls verifier: none
/// (`prefer`, `require`), the chain (`verify-ca`), the chain and the host
/// name (`verify-full`). Handshake signatures are always checked.
#[derive(Debug)]
struct PgVerifier {
    check_name: bool,
    /// `None`: the certificate is not verified at all.
    roots: Option<Arc<RootCertStore>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for PgVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if let Some(roots) = &self.roots {
            let cert = ParsedCertificate::try_from(end_entity)?;
            rustls::client::verify_server_cert_signed_by_trust_anchor(
                &cert,
                roots,
                intermediates,
                now,
                self.provider.signature_verification_algorithms.all,
            )?;
            if self.check_name {
                rustls::client::verify_server_name(&cert, server_name)?;
            }
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
