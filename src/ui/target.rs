//! Where a write lands, in words (README, "Two-person break-glass"): the
//! one rendering of `model::target::WriteTarget` the plan, the prompt, the
//! dry run, the outcome and the markdown share.

use super::sanitize::visible;
use crate::model::connection::Transport;
use crate::model::target::WriteTarget;

/// The address as dialled: the socket directory and port, or the address
/// and port (and the host name it was found under).
fn place(t: &WriteTarget) -> String {
    match (t.transport, &t.socket, &t.address) {
        (Transport::Unix, Some(socket), _) => {
            let dir = socket
                .rsplit_once('/')
                .map_or(socket.as_str(), |(dir, _)| dir);
            format!("{}:{}", visible(dir), t.port)
        }
        (_, _, Some(address)) => {
            // From a plan file, the address is anyone's text.
            let address = visible(address);
            let address = if address.contains(':') {
                format!("[{address}]")
            } else {
                address.into_owned()
            };
            match &t.host {
                Some(host) if *host != address => {
                    format!("{address}:{} (host {})", t.port, visible(host))
                }
                _ => format!("{address}:{}", t.port),
            }
        }
        _ => format!("port {}", t.port),
    }
}

/// `on sandbox at /tmp/pushleft-pg-x:5432 as postgres (primary)`, with
/// `in region eu` when a connection service named it.
pub fn describe(t: &WriteTarget) -> String {
    let region = t
        .region
        .as_deref()
        .map(|r| format!(" in region {}", visible(r)))
        .unwrap_or_default();
    format!(
        "on {}{region} at {} as {} ({})",
        visible(&t.database),
        place(t),
        visible(&t.user),
        t.role.as_str()
    )
}

/// [`describe`] with the cluster and the database's OID, as a plan is
/// held to them.
pub fn describe_with_identity(t: &WriteTarget) -> String {
    format!(
        "{} — cluster {}, database OID {}",
        describe(t),
        visible(&t.system_identifier),
        t.database_oid
    )
}

#[cfg(test)]
#[path = "target_tests.rs"]
mod tests;
