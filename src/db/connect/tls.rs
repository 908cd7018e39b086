//! TLS with rustls and libpq 15's rules for it: which roots to trust
//! (and that a root certificate file, once present, is checked whatever
//! the `sslmode`), the client certificate, the protocol versions and SNI.
//!
//! rustls, not OpenSSL: nothing to install or patch on a jump host.

use std::fmt;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::Arc;

pub use crate::model::connection::SslMode;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::version::{TLS12, TLS13};

use super::verify::{LibpqVerifier, NameCheck, Recorder, Roots};

impl fmt::Display for SslMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where the trusted roots come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootCerts {
    /// A PEM file (`sslrootcert=`, `PGSSLROOTCERT`, else
    /// `~/.postgresql/root.crt`); used when it exists.
    File(PathBuf),
    /// `sslrootcert=system`: the operating system's trust store (libpq
    /// 16's meaning).
    System,
    /// No home directory to look in.
    Unknown,
}

impl fmt::Display for RootCerts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootCerts::File(path) => write!(f, "{}", path.display()),
            RootCerts::System => f.write_str("the system's trusted roots"),
            RootCerts::Unknown => f.write_str("~/.postgresql/root.crt"),
        }
    }
}

/// The TLS parameters, resolved.
#[derive(Debug, Clone)]
pub(super) struct TlsOptions {
    pub(super) roots: RootCerts,
    /// `sslcert` / `PGSSLCERT`, else `~/.postgresql/postgresql.crt`: sent
    /// when it exists.
    pub(super) cert: Option<PathBuf>,
    /// `sslkey` / `PGSSLKEY`, else `~/.postgresql/postgresql.key`.
    pub(super) key: Option<PathBuf>,
    /// `sslsni`: send the host name.
    pub(super) sni: bool,
    /// `ssl_min_protocol_version` allows TLS 1.2.
    pub(super) tls12: bool,
    /// `ssl_max_protocol_version` allows TLS 1.3.
    pub(super) tls13: bool,
}

impl TlsOptions {
    /// The rustls configuration for one attempt: `name` is checked
    /// against the certificate when `mode` is verify-full. `Err` is
    /// libpq's sentence for a TLS set-up that cannot work.
    pub(super) fn client_config(
        &self,
        mode: SslMode,
        name: NameCheck,
        record: Recorder,
    ) -> Result<rustls::ClientConfig, String> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let roots = self.load_roots(mode)?;
        let verifier = Arc::new(LibpqVerifier::new(
            roots,
            if mode == SslMode::VerifyFull {
                name
            } else {
                NameCheck::No
            },
            record,
            provider.clone(),
        ));
        let versions: Vec<_> = [(self.tls12, &TLS12), (self.tls13, &TLS13)]
            .into_iter()
            .filter_map(|(on, v)| on.then_some(v))
            .collect();
        let builder = rustls::ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(&versions)
            .map_err(|err| format!("setting up TLS: {err}"))?
            .dangerous()
            .with_custom_certificate_verifier(verifier);
        let mut config = match self.client_certificate()? {
            Some((chain, key)) => builder
                .with_client_auth_cert(chain, key)
                .map_err(|err| format!("the client certificate cannot be used: {err}"))?,
            None => builder.with_no_client_auth(),
        };
        config.enable_sni = self.sni;
        Ok(config)
    }

    /// The trusted roots, as libpq finds them: `None` (no checking) when
    /// the file does not exist, which verify-ca and verify-full refuse.
    fn load_roots(&self, mode: SslMode) -> Result<Option<Roots>, String> {
        let path = match &self.roots {
            RootCerts::System => {
                let found = rustls_native_certs::load_native_certs();
                return Roots::new(found.certs).map(Some).ok_or_else(|| {
                    "no trusted roots found on this system (sslrootcert=system)".into()
                });
            }
            RootCerts::File(path) if fs::metadata(path).is_ok() => path,
            missing => {
                if mode.verifies() {
                    return Err(format!(
                        "root certificate file \"{missing}\" does not exist. Next step: point \
                         sslrootcert (or PGSSLROOTCERT) at the PEM file of the CA that signs \
                         the server's certificate, or change sslmode"
                    ));
                }
                return Ok(None);
            }
        };
        let certs = CertificateDer::pem_file_iter(path)
            .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
            .map_err(|err| {
                format!(
                    "could not read root certificate file \"{}\": {err}. Next step: point \
                     sslrootcert (or PGSSLROOTCERT) at the PEM file of the CA",
                    path.display()
                )
            })?;
        Roots::new(certs).map(Some).ok_or_else(|| {
            format!(
                "the root certificate file \"{}\" holds no usable certificate. Next step: \
                 point sslrootcert (or PGSSLROOTCERT) at the PEM file of the CA",
                path.display()
            )
        })
    }

    /// The client certificate and its key, when the certificate file
    /// exists; libpq's checks of the key file.
    #[allow(clippy::type_complexity)]
    fn client_certificate(
        &self,
    ) -> Result<Option<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)>, String> {
        let Some(cert_path) = self.cert.as_ref().filter(|p| fs::metadata(p).is_ok()) else {
            return Ok(None);
        };
        let chain = CertificateDer::pem_file_iter(cert_path)
            .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
            .map_err(|err| {
                format!(
                    "could not read certificate file \"{}\": {err}",
                    cert_path.display()
                )
            })?;
        let key_path = self
            .key
            .as_ref()
            .ok_or("no private key file for the certificate")?;
        let meta = fs::metadata(key_path).map_err(|_| {
            format!(
                "certificate present, but not private key file \"{}\"",
                key_path.display()
            )
        })?;
        // Root-owned keys may be group-readable (0640), others not (0600).
        let forbidden = if meta.uid() == 0 { 0o037 } else { 0o077 };
        if meta.mode() & forbidden != 0 {
            return Err(format!(
                "private key file \"{}\" has group or world access; file must have \
                 permissions u=rw (0600) or less if owned by the current user, or permissions \
                 u=rw,g=r (0640) or less if owned by root",
                key_path.display()
            ));
        }
        let key = PrivateKeyDer::from_pem_file(key_path).map_err(|err| {
            format!(
                "could not load private key file \"{}\": {err} (an encrypted key is not \
                 supported)",
                key_path.display()
            )
        })?;
        Ok(Some((chain, key)))
    }
}
