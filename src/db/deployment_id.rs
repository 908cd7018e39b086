//! Deployment ids on the command line: a full UUID, or a unique prefix of at
//! least 4 hex digits (as Nomad does). The prefix becomes a UUID range so the
//! lookup is an index range scan, not a text LIKE over every id.

use crate::db::sql::Conn;
use anyhow::{Context, Result};
use uuid::Uuid;

use crate::db::session::{Arg, Session, Step};
use crate::db::sql::{self, Schema};
use crate::db_failure::DbError;
use crate::exit;

const MIN_PREFIX: usize = 4;

/// What the operator typed, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdQuery {
    Full(Uuid),
    /// The inclusive range of UUIDs starting with the prefix.
    Prefix {
        prefix: String,
        low: Uuid,
        high: Uuid,
    },
}

/// Parses an id or prefix; malformed input is exit 2.
pub fn parse(text: &str) -> Result<IdQuery> {
    let trimmed = text.trim();
    if let Ok(id) = Uuid::parse_str(trimmed) {
        return Ok(IdQuery::Full(id));
    }
    let hex: String = trimmed.chars().filter(|c| *c != '-').collect();
    let shown = if trimmed.chars().count() > 40 {
        format!("{}…", trimmed.chars().take(40).collect::<String>())
    } else {
        trimmed.to_string()
    };
    if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) || hex.len() > 32 {
        return Err(exit::usage(format!(
            "`{shown}` is not a deployment id: give a full UUID or a unique prefix of at least {MIN_PREFIX} hex digits (e.g. d0000001)"
        )));
    }
    if hex.len() < MIN_PREFIX {
        return Err(exit::usage(format!(
            "`{shown}` is too short: give at least {MIN_PREFIX} hex digits of the deployment id"
        )));
    }
    let hex = hex.to_ascii_lowercase();
    let pad = |fill: char| {
        let mut full = hex.clone();
        while full.len() < 32 {
            full.push(fill);
        }
        Uuid::parse_str(&full)
    };
    let (Ok(low), Ok(high)) = (pad('0'), pad('f')) else {
        return Err(exit::usage(format!("`{shown}` is not a deployment id")));
    };
    Ok(IdQuery::Prefix {
        prefix: hex,
        low,
        high,
    })
}

/// The inclusive range of ids `text` covers, and the prefix when it is
/// one (for the messages of [`choose`]).
pub fn range(text: &str) -> Result<(Uuid, Uuid, Option<String>)> {
    Ok(match parse(text)? {
        IdQuery::Full(id) => (id, id, None),
        IdQuery::Prefix { prefix, low, high } => (low, high, Some(prefix)),
    })
}

/// Resolves an id or prefix to exactly one existing deployment: unknown is
/// exit 3, an ambiguous prefix exit 2 with the candidates.
pub fn resolve(client: &mut impl Conn, schema: &Schema, text: &str) -> Result<Uuid> {
    let (low, high, prefix) = range(text)?;
    let rows = sql::RESOLVE_DEPLOYMENT
        .query(client, schema, &[&low, &high])
        .map_err(|err| missing_table(err, schema))
        .context("looking up the deployment id")?;
    let ids: Vec<Uuid> = rows.iter().map(|r| r.get(0)).collect();
    choose(&ids, low, prefix.as_deref())
}

/// [`resolve`] in a flight of its own (`Session::flight`): one round trip.
/// What a prefix costs where the rest of a read needs the whole id before
/// it is sent (`history --deployment`, `diagnose -o json`'s trail).
pub fn resolve_in_flight(session: &mut Session, schema: &Schema, text: &str) -> Result<Uuid> {
    let (low, high, prefix) = range(text)?;
    let range: Vec<Arg> = vec![Box::new(low), Box::new(high)];
    let found: Vec<Uuid> = session
        .read_in_flight(vec![Step::of(&sql::RESOLVE_DEPLOYMENT, schema, range)])
        .map_err(|err| match err.downcast::<DbError>() {
            Ok(pg) => missing_table(pg, schema),
            Err(other) => other,
        })
        .context("looking up the deployment id")?
        .into_iter()
        .flatten()
        .map(|row| row.try_get(0))
        .collect::<Result<_, _>>()
        .context("looking up the deployment id")?;
    choose(&found, low, prefix.as_deref())
}

/// The one deployment among the ids found in the range starting at `low`
/// (up to 11, in order): none is exit 3, several exit 2 with the
/// candidates.
pub fn choose(ids: &[Uuid], low: Uuid, prefix: Option<&str>) -> Result<Uuid> {
    match (ids, prefix) {
        ([id], _) => Ok(*id),
        ([], None) => Err(exit::not_found(format!(
            "deployment {low} does not exist (check the id, and that DATABASE_URL points at the right control plane)"
        ))),
        ([], Some(prefix)) => Err(exit::not_found(format!(
            "no deployment id starts with `{prefix}` (check the id, and that DATABASE_URL points at the right control plane)"
        ))),
        (many, prefix) => {
            let shown: Vec<String> = many.iter().take(10).map(|id| format!("  {id}")).collect();
            let more = if many.len() > 10 { "\n  …" } else { "" };
            Err(exit::usage(format!(
                "`{}` is ambiguous; it matches:\n{}{more}\ngive more digits",
                prefix.unwrap_or_default(),
                shown.join("\n")
            )))
        }
    }
}

/// A missing table's sentence (the explainer's, `db::errors`).
pub use crate::db::errors::missing_table;

#[cfg(test)]
#[path = "deployment_id_tests.rs"]
mod tests;
