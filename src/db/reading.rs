//! A deployment read in ONE flight (README, "Performance"): its snapshot
//! (`sql/diagnose/snapshot.sql`, as `db::snapshot` reads it) with its
//! transaction's first message and COMMIT, and for `diagnose -o json` its
//! whole event trail (`sql/diagnose/events.sql`) in the same flight and
//! snapshot, streamed into the document before the flight is finished.

use anyhow::{Context, Result, anyhow};
use postgres::Row;
use uuid::Uuid;

use super::columns::RowReader;
use super::deployment_id::{self, IdQuery};
use super::session::{Arg, Flight, Session, Step};
use super::snapshot::{EVENTS, chosen, from_row, limit, missing};
use super::sql::{Schema, diagnose};
use super::text::json_text;
use crate::model::{DeploymentSnapshot, Event};

/// Reads one deployment (id or prefix) in one read-only snapshot, in one
/// flight (`Session::flight`). `events_limit` keeps only the last N
/// events (the count of all is always read). Not found is exit 3, an
/// ambiguous prefix exit 2.
pub fn read(
    session: &mut Session,
    schema: &Schema,
    deployment: &str,
    events_limit: Option<usize>,
) -> Result<DeploymentSnapshot> {
    let (reading, snapshot) = start(session, schema, deployment, events_limit, false)?;
    reading.finish()?;
    Ok(snapshot)
}

/// [`read`], and the whole event trail in the same flight and snapshot,
/// to stream into a document ([`Reading::events`]) before the flight is
/// finished.
pub fn read_with_trail<'s>(
    session: &'s mut Session,
    schema: &Schema,
    deployment: &str,
    events_limit: Option<usize>,
) -> Result<(Reading<'s>, DeploymentSnapshot)> {
    start(session, schema, deployment, events_limit, true)
}

/// A deployment's flight, its snapshot read, its trail (if asked for)
/// still to come, and its end.
pub struct Reading<'s> {
    flight: Flight<'s>,
    id: Uuid,
}

fn start<'s>(
    session: &'s mut Session,
    schema: &Schema,
    deployment: &str,
    events_limit: Option<usize>,
    trail: bool,
) -> Result<(Reading<'s>, DeploymentSnapshot)> {
    let (low, high, prefix) = match deployment_id::parse(deployment)? {
        IdQuery::Full(id) => (id, id, None),
        // The trail's statement takes the whole id, and goes in the same
        // flight as the snapshot's: a prefix is looked up first (a round
        // trip more).
        IdQuery::Prefix { .. } if trail => {
            let id = deployment_id::resolve_in_flight(session, schema, deployment)?;
            (id, id, None)
        }
        IdQuery::Prefix { prefix, low, high } => (low, high, Some(prefix)),
    };
    let limit = limit(events_limit);
    let values: Vec<Arg> = vec![Box::new(low), Box::new(high), Box::new(limit)];
    let mut steps = vec![Step::of(&diagnose::SNAPSHOT, schema, values)];
    if trail {
        steps.push(Step::of(&diagnose::EVENTS, schema, vec![Box::new(low)]));
    }
    let mut flight = session.flight(steps)?;
    let row = flight
        .rows()
        .and_then(|rows| {
            rows.into_iter()
                .next()
                .ok_or_else(|| anyhow!("sql/diagnose/snapshot.sql returned no row"))
        })
        .context("reading (sql/diagnose/snapshot.sql)")
        .map_err(|err| missing(err, schema))?;
    let id = chosen(&row, low, prefix.as_deref())?;
    let snapshot = from_row(&row, limit).with_context(|| format!("diagnosing deployment {id}"))?;
    let reading = Reading { flight, id };
    Ok((reading, snapshot))
}

impl Reading<'_> {
    /// The whole event trail, oldest first, as the rows arrive: for a
    /// document written while it is read (`diagnose -o json`), so a long
    /// trail is never held in memory. Only once, and only when the
    /// reading was made with its trail.
    pub fn events(&mut self) -> Result<impl Iterator<Item = Result<Event>> + '_> {
        use postgres::fallible_iterator::FallibleIterator;
        let id = self.id;
        let rows = self
            .flight
            .stream()
            .with_context(|| format!("reading the events of deployment {id}"))?;
        Ok(rows.iterator().map(move |row| {
            let row = row.with_context(|| format!("reading the events of deployment {id}"))?;
            event_from(&row)
        }))
    }

    /// Ends the flight (its COMMIT's answer).
    pub fn finish(self) -> Result<()> {
        self.flight.finish()
    }
}

/// An event of the streamed trail. A NULL is shown as such (the verdict,
/// read before, already judged the last event's); it never breaks the
/// document. No id for messages either: these warnings are never shown.
fn event_from(row: &Row) -> Result<Event> {
    let mut nulls = Vec::new();
    let mut r = RowReader::with_id(row, EVENTS, String::new(), &mut nulls);
    let cut = r.col::<Option<bool>>("payload_cut")?.unwrap_or(false);
    Ok(Event {
        sequence: r.required("sequence")?,
        id: r.col("id")?,
        kind: r.required("kind")?,
        occurred_at: r.col("occurred_at")?,
        payload: json_text(r.or_unknown("payload")?, cut)?,
        payload_length: r.col("payload_length")?,
        payload_cut: cut,
    })
}
