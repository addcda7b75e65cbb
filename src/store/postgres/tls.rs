//! TLS for the PostgreSQL store, chosen by the URL's `sslmode` with libpq's meaning:
//! `require` encrypts without checking the server's certificate; `verify-full` encrypts and
//! checks the certificate against the system's roots and the host name; no `sslmode`,
//! `disable` or `prefer` leave the connections as they were, unencrypted.
//!
//! The connector is rustls through `tokio-postgres-rustls` (maintained for rust-postgres'
//! `MakeTlsConnect`). Chosen over `postgres-native-tls` because the bot already speaks TLS with
//! rustls (serenity's `rustls_backend`, with the `ring` provider used here too): no OpenSSL
//! headers to install where the bot is built, one TLS stack in the binary, and no system
//! library whose version differs from machine to machine.
//!
//! The `postgres` client itself parses only `disable`, `prefer` and `require`; `verify-full` is
//! read here and handed to it as `require` with a verifying connector.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
pub use tokio_postgres_rustls::MakeRustlsConnect;

use super::super::{Result, StoreError};

/// The client's configuration for `url`, and the TLS connector its `sslmode` asks for (`None`:
/// no TLS, as before).
pub(super) fn config_of(url: &str) -> Result<(::postgres::Config, Option<MakeRustlsConnect>)> {
    let invalid = |why: String| StoreError::Invalid(format!("database_url: {why}"));
    if url.contains("sslmode=verify-ca") {
        return Err(invalid(
            "sslmode=verify-ca is not supported: use verify-full (or require)".into(),
        ));
    }
    let verify = url.contains("sslmode=verify-full");
    let mut config: ::postgres::Config = url
        .replace("sslmode=verify-full", "sslmode=require")
        .parse()
        .map_err(|e: ::postgres::Error| invalid(e.to_string()))?;
    // The bot's connections carry its name, so that `tegami db copy` can tell a database in use
    // (see `src/ops/`); a URL's own `application_name` wins.
    if config.get_application_name().is_none() {
        config.application_name(BOT_APPLICATION);
    }
    if config.get_ssl_mode() != ::postgres::config::SslMode::Require {
        return Ok((config, None));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| invalid(format!("TLS: {e}")))?;
    let tls = if verify {
        builder
            .with_root_certificates(system_roots()?)
            .with_no_client_auth()
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(EncryptOnly(provider)))
            .with_no_client_auth()
    };
    Ok((config, Some(MakeRustlsConnect::new(tls))))
}

/// The `application_name` of the bot's connections (unless its URL names another).
pub const BOT_APPLICATION: &str = "tegami";

/// One plain client (no pool, no migrations) to `url`, encrypted as its `sslmode` asks, with
/// `application` as its `application_name`: the database tools of `src/ops/`.
pub fn connect(url: &str, application: &str) -> Result<::postgres::Client> {
    let (mut config, tls) = config_of(url)?;
    config.application_name(application);
    Ok(match tls {
        None => config.connect(::postgres::NoTls)?,
        Some(tls) => config.connect(tls)?,
    })
}

/// The system's trusted roots (for `verify-full`).
fn system_roots() -> Result<RootCertStore> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        let why = found
            .errors
            .first()
            .map_or("none found".to_string(), |e| e.to_string());
        return Err(StoreError::Invalid(format!(
            "sslmode=verify-full: cannot read the system's trusted certificates: {why}"
        )));
    }
    Ok(roots)
}

/// `sslmode=require`: any certificate is taken (libpq does the same: `require` protects against
/// listeners on the wire, not against a server that pretends), but the handshake's signatures
/// are still checked, so the session is really keyed with the certificate's owner.
#[derive(Debug)]
struct EncryptOnly(Arc<CryptoProvider>);

impl ServerCertVerifier for EncryptOnly {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_chooses_the_connector() {
        for url in [
            "postgres://u@h/db",
            "postgres://u@h/db?sslmode=disable",
            "postgres://u@h/db?sslmode=prefer",
            "host=h user=u dbname=db",
        ] {
            let (_, tls) = config_of(url).expect(url);
            assert!(tls.is_none(), "{url}: no TLS, as before");
        }
        let (c, tls) = config_of("postgres://u@h/db?sslmode=require").expect("require");
        assert!(tls.is_some());
        assert_eq!(c.get_ssl_mode(), ::postgres::config::SslMode::Require);
        let (c, tls) = config_of("host=h user=u sslmode=require").expect("key=value");
        assert!(tls.is_some());
        assert_eq!(c.get_dbname(), None);
        match config_of("postgres://u@h/db?sslmode=verify-ca") {
            Err(StoreError::Invalid(m)) => assert!(m.contains("verify-full"), "{m}"),
            other => panic!("verify-ca: {:?}", other.map(|_| ())),
        }
        match config_of("postgres://u@h/db?sslmode=sometimes") {
            Err(StoreError::Invalid(m)) => assert!(m.contains("database_url"), "{m}"),
            other => panic!("a bad sslmode: {:?}", other.map(|_| ())),
        }
    }
}
