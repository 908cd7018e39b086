//! The privileges fail-safely needs: assuming `--role`, reading every
//! table, writing the two tables it writes.

use anyhow::Result;

use super::facts::{Facts, empty};
use super::{Checks, Status};
use crate::db::columns::{Columns, JsonRow};
use crate::db::schema_check;
use crate::db::session::{Arg, Session, Step};
use crate::db::sql;

/// Whether `role` can be assumed: `SET LOCAL ROLE` in a flight of its own
/// (a round trip more, with `--role` only), rolled back either way.
pub(super) fn assume_role(
    session: &mut Session,
    session_user: &str,
    role: &str,
    checks: &mut Checks,
) -> Result<bool> {
    let value: Vec<Arg> = vec![Box::new(role.to_string())];
    let mut flight =
        session.flight_unchecked(vec![Step::catalog(&sql::session::SET_LOCAL_ROLE, value)])?;
    let tried = flight.rows();
    flight.finish()?;
    match tried {
        Ok(_) => {
            checks.push(
                "role",
                Status::Ok,
                format!("{session_user} can assume role {role} (SET ROLE)"),
            );
            Ok(true)
        }
        Err(err) => {
            let why = crate::db::errors::db_error(&err)
                .and_then(|db| db.server_message.clone())
                .unwrap_or_else(|| format!("{err:#}"));
            checks.push(
                "role",
                Status::Fail,
                format!(
                    "{session_user} cannot assume role {role}: {why}. Next step: GRANT {role} \
                     TO {session_user}, or leave out --role"
                ),
            );
            Ok(false)
        }
    }
}

/// Whether `current_user` may read every table; returns the tables present.
pub(super) fn read_privileges(
    facts: &Facts,
    current_user: &str,
    checks: &mut Checks,
) -> Result<Vec<&'static str>> {
    let mut unreadable = Vec::new();
    let mut present = Vec::new();
    for table in schema_check::tables() {
        let row = facts.entry("readable", table)?;
        let (exists, readable): (bool, bool) = (row.col("present")?, row.col("readable")?);
        if exists {
            present.push(table);
            if !readable {
                unreadable.push(table);
            }
        }
    }
    if unreadable.is_empty() {
        checks.push(
            "read privileges",
            Status::Ok,
            format!("{current_user} may read every table the tool reads"),
        );
    } else {
        checks.push(
            "read privileges",
            Status::Fail,
            format!(
                "{current_user} may not SELECT from {}. Next step: GRANT SELECT on them",
                unreadable.join(", ")
            ),
        );
    }
    Ok(present)
}

/// `as_role`: the writer is `--role` (assumed), not the current user.
pub(super) fn write_privileges(
    facts: &Facts,
    writer: &str,
    as_role: bool,
    checks: &mut Checks,
) -> Result<()> {
    // A role that does not exist has no entry: it may write nothing.
    let row = match facts.value("write", if as_role { "role" } else { "self" }) {
        Some(serde_json::Value::Object(map)) => JsonRow(map),
        _ => JsonRow(empty()),
    };
    let update = row.col::<Option<bool>>("may_update")?.unwrap_or(false);
    let insert = row.col::<Option<bool>>("may_insert")?.unwrap_or(false);
    if update && insert {
        checks.push(
            "write privileges",
            Status::Ok,
            format!("{writer} may UPDATE deployments and INSERT deployment_events"),
        );
        return Ok(());
    }
    let missing = [
        (!update).then_some("UPDATE deployments"),
        (!insert).then_some("INSERT deployment_events"),
    ];
    checks.push(
        "write privileges",
        Status::Warn,
        format!(
            "{writer} may not {}: fail-safely would be refused. Next step: use \
             --role with the owner role",
            missing
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    );
    Ok(())
}
