//! Database text without bound (pushleft-controller-diagnose(1), HUGE TEXT): the values the
//! reads get cut (`left(col, :text_cut)` with the full length, in the SQL
//! files), made into the model; and `diagnose --full-text`, which streams
//! the whole of each value in pieces and hands them on as they arrive, so
//! no whole value is ever held.

use anyhow::{Context, Result, anyhow};
use serde_json::Value;
use uuid::Uuid;

use super::sql::{Conn, Schema, Statement, diagnose};
use crate::model::cut::{FullTextHead, FullTextOf, FullTextPiece};

/// A payload or output as the reads send it, JSON text (NULL for a NULL):
/// the JSON value when whole; when cut, a string of its first characters
/// (cut JSON is no JSON).
pub fn json_text(text: Option<String>, cut: bool) -> Result<Value> {
    match text {
        None => Ok(Value::Null),
        Some(text) if cut => Ok(Value::String(text)),
        Some(text) => serde_json::from_str(&text).context("reading a JSON value"),
    }
}

/// The most bytes of one piece `diagnose --full-text` reads: a few of
/// them in flight keep the tool far below its memory budget, and a 50 MB
/// value is 50 statements' worth of rows, not 50 statements.
pub const FULL_TEXT_PIECE_BYTES: i32 = 1 << 20;

/// Streams every job's `last_error`, every agent result's output and
/// every event's payload of deployment `id` (without `log`), each whole,
/// to `sink` as the pieces arrive: a [`FullTextPiece::Begin`], its text in
/// pieces of whole characters, an [`FullTextPiece::End`]. Inside the
/// caller's read-only transaction: one snapshot for all three reads.
pub fn full_texts(
    tx: &mut impl Conn,
    schema: &Schema,
    id: Uuid,
    sink: &mut dyn FnMut(FullTextPiece<'_>) -> Result<()>,
) -> Result<()> {
    for (statement, of) in [
        (&diagnose::FULL_TEXT_JOBS, Source::Jobs),
        (&diagnose::FULL_TEXT_RESULTS, Source::Results),
        (&diagnose::FULL_TEXT_EVENTS, Source::Events),
    ] {
        stream(tx, schema, statement, id, of, sink)
            .with_context(|| format!("reading the whole text (sql/{})", statement.path))?;
    }
    Ok(())
}

/// Which statement a row came from.
#[derive(Debug, Clone, Copy)]
enum Source {
    Jobs,
    Results,
    Events,
}

fn stream(
    tx: &mut impl Conn,
    schema: &Schema,
    statement: &Statement,
    id: Uuid,
    source: Source,
    sink: &mut dyn FnMut(FullTextPiece<'_>) -> Result<()>,
) -> Result<()> {
    use postgres::fallible_iterator::FallibleIterator;
    let mut rows = statement.query_stream(tx, schema, &[&id, &FULL_TEXT_PIECE_BYTES])?;
    let mut value: Option<InFlight> = None;
    while let Some(row) = rows.next()? {
        let at = Piece {
            id: row.try_get("id")?,
            sequence: row.try_get("sequence")?,
            bytes: row.try_get("bytes")?,
            chunk: row.try_get("chunk")?,
        };
        let piece: &[u8] = row.try_get("piece")?;
        if at.chunk == 0 {
            if let Some(done) = value.take() {
                done.end(sink)?;
            }
            let of = match (source, at.sequence) {
                (Source::Jobs, _) => FullTextOf::JobLastError,
                (Source::Results, _) => FullTextOf::ResultOutput,
                (Source::Events, sequence) => FullTextOf::EventPayload {
                    sequence: sequence.unwrap_or(0),
                },
            };
            sink(FullTextPiece::Begin(FullTextHead {
                of,
                id: at.id,
                bytes: at.bytes,
            }))?;
            value = Some(InFlight::new(at.id, at.bytes));
        }
        match value.as_mut() {
            Some(current) if current.follows(&at) => current.push(piece, sink)?,
            _ => return Err(out_of_order(&at)),
        }
    }
    match value {
        Some(done) => done.end(sink),
        None => Ok(()),
    }
}

/// Where a row's piece belongs.
struct Piece {
    id: Uuid,
    sequence: Option<i64>,
    bytes: i64,
    chunk: i32,
}

fn out_of_order(at: &Piece) -> anyhow::Error {
    anyhow!(
        "piece {} of the text of {} arrived out of order; nothing more is shown",
        at.chunk,
        at.id
    )
}

/// The value being streamed: which one, how far, and the bytes of a
/// character its last piece ended inside of.
struct InFlight {
    id: Uuid,
    bytes: i64,
    next_chunk: i32,
    seen: i64,
    joiner: Utf8Joiner,
}

impl InFlight {
    fn new(id: Uuid, bytes: i64) -> InFlight {
        InFlight {
            id,
            bytes,
            next_chunk: 0,
            seen: 0,
            joiner: Utf8Joiner::default(),
        }
    }

    /// The row is this value's next piece.
    fn follows(&self, at: &Piece) -> bool {
        at.id == self.id && at.chunk == self.next_chunk && at.bytes == self.bytes
    }

    fn push(
        &mut self,
        piece: &[u8],
        sink: &mut dyn FnMut(FullTextPiece<'_>) -> Result<()>,
    ) -> Result<()> {
        self.next_chunk += 1;
        self.seen += piece.len() as i64;
        self.joiner
            .push(piece, &mut |text| sink(FullTextPiece::Text(text)))
    }

    fn end(self, sink: &mut dyn FnMut(FullTextPiece<'_>) -> Result<()>) -> Result<()> {
        if self.seen != self.bytes {
            return Err(anyhow!(
                "the text of {} arrived with {} of its {} bytes; nothing more is shown",
                self.id,
                self.seen,
                self.bytes
            ));
        }
        self.joiner
            .finish(&mut |text| sink(FullTextPiece::Text(text)))?;
        sink(FullTextPiece::End)
    }
}

/// Joins UTF-8 cut anywhere back into text of whole characters: the bytes
/// of a character a piece ends inside of wait for the next piece. (The
/// server sends UTF-8, so a byte that can never be UTF-8 does not occur;
/// should one, it is shown as U+FFFD, never passed on.)
#[derive(Debug, Default)]
pub struct Utf8Joiner {
    /// At most three bytes: the start of a character.
    pending: Vec<u8>,
}

impl Utf8Joiner {
    /// Hands `out` the whole characters of `pending` + `bytes`, keeping a
    /// character cut at the end for the next call.
    pub fn push(
        &mut self,
        mut bytes: &[u8],
        out: &mut dyn FnMut(&str) -> Result<()>,
    ) -> Result<()> {
        // First the character the last piece ended inside of: its
        // continuation bytes are at the start of this one.
        while !self.pending.is_empty() && !bytes.is_empty() {
            self.pending.push(bytes[0]);
            bytes = &bytes[1..];
            match std::str::from_utf8(&self.pending) {
                Ok(text) => {
                    out(text)?;
                    self.pending.clear();
                }
                Err(err) if err.error_len().is_some() => {
                    out(&String::from_utf8_lossy(&self.pending))?;
                    self.pending.clear();
                }
                Err(_) => {}
            }
        }
        while !bytes.is_empty() {
            match std::str::from_utf8(bytes) {
                Ok(text) => return out(text),
                Err(err) => {
                    let (valid, rest) = bytes.split_at(err.valid_up_to());
                    // UTF-8 up to there, as from_utf8 just said.
                    if let Ok(valid) = std::str::from_utf8(valid)
                        && !valid.is_empty()
                    {
                        out(valid)?;
                    }
                    match err.error_len() {
                        Some(bad) => {
                            out("\u{fffd}")?;
                            bytes = &rest[bad..];
                        }
                        None => {
                            self.pending.extend_from_slice(rest);
                            return Ok(());
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The end of the value: a character still cut is shown as U+FFFD.
    pub fn finish(self, out: &mut dyn FnMut(&str) -> Result<()>) -> Result<()> {
        if self.pending.is_empty() {
            Ok(())
        } else {
            out("\u{fffd}")
        }
    }
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
