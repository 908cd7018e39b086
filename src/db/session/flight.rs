//! A read in ONE round trip (README, "Performance"): the transaction's
//! first message (its terms, every setting pinned, what is then in force:
//! `sql/session/begin.sql`), the proof that the next message is answered
//! inside that transaction (`sql/session/proof.sql`), the read's
//! statements with every value bound as a parameter, and the COMMIT, all
//! sent before any answer is read ([`Link::pipeline`]).
//!
//! What is in force and the proof are judged first, before any row of the
//! read is looked at. The read ran inside a READ ONLY transaction, so
//! whatever they find, nothing was written. A refusal names statement
//! pooling only when it is proven: the pooler said so (pgbouncer closes
//! the connection at the end of the first message, which leaves the
//! transaction open, with these words), or the proof was answered outside
//! the transaction while the connection stayed open. A connection that
//! just closed is a lost connection.

use anyhow::{Context, Result, anyhow};
use postgres::Row;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;

use super::pin::{
    in_force_and_rows, refusal_for_begin, refusal_for_first_answer, statement_pooling,
};
use super::terms::{InForce, Terms};
use super::{Answer, Arg, Message, Pipeline, Session, Typed};
use crate::db::sql::{self, Rows, Schema, Statement};
use crate::db_failure::DbError;
use crate::exit;

/// One statement of a flight: its file, its text as sent, its values.
pub struct Step {
    path: &'static str,
    text: String,
    params: Typed,
}

impl Step {
    /// `statement` rendered for `schema`, with `values` typed as the
    /// registry declares them (`Statement::typed`).
    pub fn of(statement: &Statement, schema: &Schema, values: Vec<Arg>) -> Step {
        Step::with_text(statement, statement.sql(schema), values)
    }

    /// A statement that names no table of the control plane.
    pub fn catalog(statement: &Statement, values: Vec<Arg>) -> Step {
        Step::with_text(statement, statement.text.to_string(), values)
    }

    fn with_text(statement: &Statement, text: String, values: Vec<Arg>) -> Step {
        let types: Vec<_> = {
            let borrowed: Vec<&(dyn ToSql + Sync)> = values
                .iter()
                .map(|v| v.as_ref() as &(dyn ToSql + Sync))
                .collect();
            statement
                .typed(&borrowed)
                .into_iter()
                .map(|(_, ty)| ty)
                .collect()
        };
        Step {
            path: statement.path,
            text,
            params: values.into_iter().zip(types).collect(),
        }
    }
}

/// How a flight's transaction ends: the same for a read, said as the
/// command means it.
#[derive(Debug, Clone, Copy)]
enum End {
    Commit,
    /// doctor's: it never keeps anything.
    Rollback,
}

/// The answers of one flight, in the order its steps went.
pub struct Flight<'s> {
    pipeline: Pipeline<'s>,
    in_force: InForce,
    /// Steps whose answer was not taken yet.
    left: usize,
}

impl Session {
    /// `steps` in ONE flight, in a read-only snapshot that refuses (exit
    /// 4) what [`InForce::mismatch`] finds, ended by COMMIT.
    pub fn flight(&mut self, steps: Vec<Step>) -> Result<Flight<'_>> {
        fly(self, steps, true, End::Commit)
    }

    /// [`Session::flight`] that reports what is in force instead of
    /// refusing it (doctor), ended by ROLLBACK.
    pub fn flight_unchecked(&mut self, steps: Vec<Step>) -> Result<Flight<'_>> {
        fly(self, steps, false, End::Rollback)
    }

    /// Every step's rows, in one flight.
    pub fn read_in_flight(&mut self, steps: Vec<Step>) -> Result<Vec<Vec<Row>>> {
        let mut flight = self.flight(steps)?;
        let mut all = Vec::new();
        while flight.left > 0 {
            all.push(flight.rows()?);
        }
        flight.finish()?;
        Ok(all)
    }
}

fn fly(session: &mut Session, steps: Vec<Step>, checked: bool, end: End) -> Result<Flight<'_>> {
    let timeouts = *session.timeouts();
    let begin = Terms::Snapshot.begin_script(&timeouts);
    sql::trace::script(Some(sql::session::BEGIN.path), &begin);
    sql::trace::script(Some(sql::session::PROOF.path), sql::session::PROOF.text);
    let left = steps.len();
    let mut messages = vec![
        Message::Simple(begin),
        Message::Simple(sql::session::PROOF.text.to_string()),
    ];
    for step in steps {
        let shown: Vec<_> = step
            .params
            .iter()
            .map(|(v, ty)| (v.as_ref() as &(dyn ToSql + Sync), ty.clone()))
            .collect();
        sql::trace::statement(step.path, &step.text, &shown);
        messages.push(Message::Bound {
            text: step.text,
            params: step.params,
        });
    }
    let end = match end {
        End::Commit => "COMMIT",
        End::Rollback => "ROLLBACK",
    };
    sql::trace::script(None, end);
    messages.push(Message::Simple(end.to_string()));
    let mut pipeline = session.unpinned_connection().pipeline(messages);
    let in_force = match pipeline.answer() {
        Some(Ok(Answer::Simple(messages))) => in_force_and_rows(messages).0,
        Some(Err(err)) => return Err(refusal_for_begin(err)),
        _ => return Err(anyhow!("sql/session/begin.sql: no answer")),
    };
    if in_force.0.is_empty() {
        return Err(anyhow!(
            "sql/session/begin.sql reported no settings; nothing was written"
        ));
    }
    if checked && let Some(why) = in_force.mismatch(Terms::Snapshot, &timeouts) {
        return Err(exit::refused(why));
    }
    prove(&in_force, pipeline.answer())?;
    Ok(Flight {
        pipeline,
        in_force,
        left,
    })
}

/// The proof's answer: the backend of the first message, in its
/// transaction. Another backend, or no transaction, on a connection that
/// is still open is a pooler handing messages around: statement pooling.
fn prove(in_force: &InForce, answer: Option<Result<Answer, postgres::Error>>) -> Result<()> {
    let messages = match answer {
        Some(Ok(Answer::Simple(messages))) => messages,
        Some(Err(err)) => {
            return Err(match refusal_for_first_answer(&err) {
                Some(refusal) => refusal,
                None => anyhow::Error::new(DbError::from(err))
                    .context("proving the transaction carries on (sql/session/proof.sql)"),
            });
        }
        _ => return Err(anyhow!("sql/session/proof.sql: no answer")),
    };
    let (_, rows) = in_force_and_rows(messages);
    let row = rows
        .first()
        .context("sql/session/proof.sql returned no row")?;
    let field =
        |name: &str| -> Result<String> { Ok(row.try_get(name)?.unwrap_or_default().to_string()) };
    let (pid, isolation, read_only) = (
        field("backend_pid")?,
        field("isolation")?,
        field("read_only")?,
    );
    let first = in_force.value("backend_pid");
    let same = pid == first
        && isolation == in_force.value("transaction_isolation")
        && read_only == in_force.value("transaction_read_only");
    if same {
        return Ok(());
    }
    Err(statement_pooling(&format!(
        "the transaction's second message was answered by server process {pid} \
         ({isolation}, read only {read_only}), not inside the transaction server process \
         {first} opened for its first message, while the connection stayed open"
    )))
}

impl Flight<'_> {
    /// What was in force once the transaction was pinned.
    pub fn in_force(&self) -> &InForce {
        &self.in_force
    }

    /// The next step's rows, all of them.
    pub fn rows(&mut self) -> Result<Vec<Row>> {
        self.take()?;
        match self.pipeline.answer() {
            Some(Ok(Answer::Rows(rows))) => Ok(rows),
            Some(Ok(Answer::Simple(_))) => Ok(Vec::new()),
            Some(Err(err)) => Err(anyhow::Error::new(DbError::from(err))),
            None => Err(anyhow!("the flight has no answer left")),
        }
    }

    /// The next step's rows as they arrive: for results too large to hold
    /// twice (`fleet list`, `diagnose -o json`'s trail).
    pub fn stream(&mut self) -> Result<Rows<'_>> {
        self.take()?;
        match self.pipeline.rows() {
            Some(Ok(rows)) => {
                let rows: sql::BoxRows<'_> = Box::new(rows);
                Ok(rows.map_err(DbError::from as fn(postgres::Error) -> DbError))
            }
            Some(Err(err)) => Err(anyhow::Error::new(DbError::from(err))),
            None => Err(anyhow!("the flight has no answer left")),
        }
    }

    fn take(&mut self) -> Result<()> {
        if self.left == 0 {
            return Err(anyhow!("the flight has no step left"));
        }
        self.left -= 1;
        Ok(())
    }

    /// The answers of the steps not taken (dropped), then the end's.
    pub fn finish(mut self) -> Result<()> {
        while self.left > 0 {
            self.left -= 1;
            let _ = self.pipeline.answer();
        }
        match self.pipeline.answer() {
            Some(Ok(_)) => Ok(()),
            Some(Err(err)) => Err(anyhow::Error::new(DbError::from(err)))
                .context("ending the read-only transaction"),
            None => Err(anyhow!("the flight's end has no answer")),
        }
    }
}
