//! A connected session and the transactions the tool opens on it (README,
//! "Connecting"): every transaction states its own terms and pins its
//! settings in its first message ([`pin`]); nothing is left to the
//! server's, the database's, the role's or a pooled connection's
//! defaults, and nothing to startup options, which a pooler may refuse or
//! drop. A session runs on its own driver of the protocol ([`link`]), so
//! a read sends its whole read-only snapshot in one flight
//! ([`Session::flight`], README "Performance"); fail-safely's write runs
//! in a read-committed transaction, a message at a time
//! (`db::transition`).

mod flight;
mod link;
mod pin;
mod pipeline;
mod terms;

use std::time::Duration;

use anyhow::{Context, Result};

pub use flight::{Flight, Step};
pub use link::{Link, PipelineRows, runtime};
pub use pin::{Pinned, begin, begin_then, begin_unchecked, session_attrs};
pub use pipeline::{Answer, Arg, Message, Pipeline, Typed};
pub use terms::{CLIENT_CHECK_INTERVAL_MS, InForce, SEARCH_PATH, Setting, Terms, origin};

/// The limits every transaction sets for itself (`SET LOCAL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// `statement_timeout` (`--statement-timeout`).
    pub statement: Duration,
    /// `lock_timeout`: the command's own (`fail-safely --lock-timeout`).
    pub lock: Duration,
    /// `idle_in_transaction_session_timeout`: a client that stops (SIGSTOP,
    /// a hung terminal) while holding locks loses them after this long.
    pub idle_in_transaction: Duration,
}

impl Default for Timeouts {
    /// The tool's defaults (README, "Connecting").
    fn default() -> Timeouts {
        Timeouts {
            statement: Duration::from_secs(30),
            lock: Duration::from_secs(5),
            idle_in_transaction: Duration::from_secs(60),
        }
    }
}

/// A connection and the limits its transactions set.
pub struct Session {
    client: Link,
    timeouts: Timeouts,
}

impl Session {
    pub fn new(client: Link, timeouts: Timeouts) -> Session {
        Session { client, timeouts }
    }

    pub fn timeouts(&self) -> &Timeouts {
        &self.timeouts
    }

    /// The connection outside any transaction the tool opened: for the
    /// tests, which look at it from outside. The tool's own statements run
    /// only pinned ([`Session::begin`], [`Session::read`]); a session hands
    /// out no `sql::Conn`.
    pub fn unpinned_connection(&mut self) -> &mut Link {
        &mut self.client
    }

    /// Opens a transaction on `terms` (see [`pin::begin`]).
    pub fn begin(&mut self, terms: Terms) -> Result<Pinned<'_>> {
        let timeouts = self.timeouts;
        self.begin_with(terms, &timeouts)
    }

    /// [`Session::begin`] with other limits (a command's own lock timeout).
    pub fn begin_with(&mut self, terms: Terms, timeouts: &Timeouts) -> Result<Pinned<'_>> {
        begin(&mut self.client, terms, timeouts)
    }

    /// [`begin_then`] on this session: the transaction, and `script` in
    /// the next message once `verify` accepted what is in force.
    pub fn begin_then(
        &mut self,
        terms: Terms,
        timeouts: &Timeouts,
        verify: impl FnOnce(&InForce) -> Result<()>,
        script: &str,
    ) -> Result<(Pinned<'_>, Vec<postgres::SimpleQueryMessage>)> {
        begin_then(&mut self.client, terms, timeouts, verify, script)
    }

    /// [`begin_unchecked`] on this session (doctor).
    pub fn begin_unchecked(&mut self, terms: Terms) -> Result<Pinned<'_>> {
        let timeouts = self.timeouts;
        begin_unchecked(&mut self.client, terms, &timeouts)
    }

    /// [`pin::read_in_one_message`] on this session: catalog reads without
    /// parameters in one pinned snapshot, in one round trip.
    pub fn read_in_one_message(&mut self, script: &str) -> Result<Vec<postgres::SimpleQueryRow>> {
        let timeouts = self.timeouts;
        pin::read_in_one_message(&mut self.client, &timeouts, script)
    }

    /// Runs `read` in one read-only snapshot, then ends it (nothing was
    /// written: ending it either way is the same).
    ///
    /// A round trip for each statement: the first message, each of
    /// `read`'s, the COMMIT. A read that knows its statements up front
    /// sends them in one flight instead ([`Session::flight`]).
    pub fn read<T>(&mut self, read: impl FnOnce(&mut Pinned<'_>) -> Result<T>) -> Result<T> {
        let timeouts = self.timeouts;
        let mut tx = begin(&mut self.client, Terms::Snapshot, &timeouts)?;
        let value = read(&mut tx)?;
        tx.commit().context("ending the read-only transaction")?;
        Ok(value)
    }
}

/// A session with the tool's default limits over a postgres crate client
/// (the tests' own connections).
impl From<postgres::Client> for Session {
    fn from(client: postgres::Client) -> Session {
        Session::new(Link::from(client), Timeouts::default())
    }
}

// No `sql::Conn` for a session: a statement of the registry runs only in a
// transaction the tool pinned (`Session::begin`, `Session::read`).

/// Opens a read's transaction: `REPEATABLE READ READ ONLY`, so every query
/// in it sees one instant, and the database itself refuses any write.
pub fn read_only(session: &mut Session) -> Result<Pinned<'_>> {
    session
        .begin(Terms::Snapshot)
        .context("opening a read-only snapshot transaction")
}
