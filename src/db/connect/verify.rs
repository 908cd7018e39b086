//! The server certificate check, as libpq 15 with OpenSSL does it: the
//! chain must lead to a trusted root (a self-signed server certificate
//! that is itself in the root file counts), and for verify-full the host
//! name must match a subjectAltName of its kind, else the common name.
//! What was checked is recorded for `doctor`.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use crate::model::connection::Verified;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use x509_cert::Certificate;
use x509_cert::der::Decode;
use x509_cert::der::oid::ObjectIdentifier;
use x509_cert::ext::pkix::SubjectAltName;
use x509_cert::ext::pkix::name::GeneralName;

/// Set when a TLS handshake reached the certificate check.
pub(super) type Recorder = Arc<Mutex<Option<Verified>>>;

/// The name verify-full checks.
#[derive(Debug, Clone)]
pub(super) enum NameCheck {
    No,
    Host(String),
    /// verify-full with `hostaddr` and no `host`: libpq refuses.
    Missing,
}

/// Trusted roots: the store for chains, and the certificates themselves
/// (a self-signed server certificate may be one of them).
#[derive(Debug)]
pub(super) struct Roots {
    store: RootCertStore,
    certs: Vec<CertificateDer<'static>>,
}

impl Roots {
    /// `None` when no certificate is usable.
    pub(super) fn new(certs: Vec<CertificateDer<'static>>) -> Option<Roots> {
        let mut store = RootCertStore::empty();
        let (added, _) = store.add_parsable_certificates(certs.iter().cloned());
        (added > 0).then_some(Roots { store, certs })
    }
}

#[derive(Debug)]
pub(super) struct LibpqVerifier {
    roots: Option<Roots>,
    name: NameCheck,
    record: Recorder,
    provider: Arc<CryptoProvider>,
}

impl LibpqVerifier {
    pub(super) fn new(
        roots: Option<Roots>,
        name: NameCheck,
        record: Recorder,
        provider: Arc<CryptoProvider>,
    ) -> LibpqVerifier {
        LibpqVerifier {
            roots,
            name,
            record,
            provider,
        }
    }

    fn check(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        now: UnixTime,
    ) -> Result<Verified, rustls::Error> {
        let Some(roots) = &self.roots else {
            return Ok(Verified::None);
        };
        if roots
            .certs
            .iter()
            .any(|c| c.as_ref() == end_entity.as_ref())
        {
            // OpenSSL trusts a certificate found in the root file as is.
            check_dates(end_entity, now)?;
        } else {
            let cert = ParsedCertificate::try_from(end_entity)?;
            rustls::client::verify_server_cert_signed_by_trust_anchor(
                &cert,
                &roots.store,
                intermediates,
                now,
                self.provider.signature_verification_algorithms.all,
            )?;
        }
        match &self.name {
            NameCheck::No => Ok(Verified::Chain),
            NameCheck::Host(host) => {
                if name_matches(end_entity, host) {
                    Ok(Verified::ChainAndHostName)
                } else {
                    Err(rustls::Error::InvalidCertificate(
                        CertificateError::NotValidForName,
                    ))
                }
            }
            NameCheck::Missing => Err(rustls::Error::General(
                "host name must be specified for a verified SSL connection (verify-full \
                 checks the certificate against host=, and only hostaddr= was given)"
                    .into(),
            )),
        }
    }
}

fn parse(der: &[u8]) -> Result<Certificate, rustls::Error> {
    Certificate::from_der(der)
        .map_err(|_| rustls::Error::InvalidCertificate(CertificateError::BadEncoding))
}

fn check_dates(der: &[u8], now: UnixTime) -> Result<(), rustls::Error> {
    let validity = parse(der)?.tbs_certificate.validity;
    let now = Duration::from_secs(now.as_secs());
    if now < validity.not_before.to_unix_duration() {
        return Err(rustls::Error::InvalidCertificate(
            CertificateError::NotValidYet,
        ));
    }
    if now > validity.not_after.to_unix_duration() {
        return Err(rustls::Error::InvalidCertificate(CertificateError::Expired));
    }
    Ok(())
}

const SUBJECT_ALT_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.17");
const COMMON_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.4.3");

/// libpq's host name check: the subjectAltNames of the host's kind (DNS
/// names for a name, IP addresses for an address); the common name only
/// when there is none of that kind.
pub(super) fn name_matches(der: &[u8], host: &str) -> bool {
    let Ok(cert) = parse(der) else {
        return false;
    };
    let ip: Option<IpAddr> = host.parse().ok();
    let mut names_of_kind = 0;
    for ext in cert.tbs_certificate.extensions.iter().flatten() {
        if ext.extn_id != SUBJECT_ALT_NAME {
            continue;
        }
        let Ok(san) = SubjectAltName::from_der(ext.extn_value.as_bytes()) else {
            return false;
        };
        for name in san.0 {
            match (name, ip) {
                (GeneralName::DnsName(dns), None) => {
                    names_of_kind += 1;
                    if dns_name_matches(dns.as_str(), host) {
                        return true;
                    }
                }
                (GeneralName::IpAddress(bytes), Some(ip)) => {
                    names_of_kind += 1;
                    let matches = match ip {
                        IpAddr::V4(v4) => bytes.as_bytes() == v4.octets(),
                        IpAddr::V6(v6) => bytes.as_bytes() == v6.octets(),
                    };
                    if matches {
                        return true;
                    }
                }
                _ => {}
            }
        }
    }
    if names_of_kind > 0 {
        return false;
    }
    cert.tbs_certificate.subject.0.iter().any(|rdn| {
        rdn.0.iter().any(|atv| {
            atv.oid == COMMON_NAME
                && std::str::from_utf8(atv.value.value()).is_ok_and(|cn| dns_name_matches(cn, host))
        })
    })
}

/// Case-insensitive; `*.example.com` stands for exactly one label.
fn dns_name_matches(pattern: &str, host: &str) -> bool {
    if pattern.contains('\0') {
        return false;
    }
    if pattern.eq_ignore_ascii_case(host) {
        return true;
    }
    match pattern.strip_prefix('*') {
        Some(suffix) if suffix.starts_with('.') && host.len() > suffix.len() => {
            let (first, rest) = host.split_at(host.len() - suffix.len());
            rest.eq_ignore_ascii_case(suffix) && !first.contains('.')
        }
        _ => false,
    }
}

impl ServerCertVerifier for LibpqVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let verified = self.check(end_entity, intermediates, now)?;
        if let Ok(mut record) = self.record.lock() {
            *record = Some(verified);
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

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
