//! `diagnose --full-text` (pushleft-controller-diagnose(1), HUGE TEXT): the whole of each value
//! the other reports show cut, written to stdout as its pieces arrive.
//! Database text never reaches a terminal raw: each piece goes through the
//! sanitizer (newlines kept, every other control, bidi or invisible
//! character shown escaped), and every line of a value is indented, so no
//! value can print a line that looks like the head of another.

use std::io::Write;

use anyhow::Result;

use super::sanitize::terminal_safe;
use crate::model::cut::{FullTextHead, FullTextOf, FullTextPiece, grouped};

/// How each line of a value starts.
const INDENT: &str = "  ";

/// Writes the pieces of `diagnose --full-text` as they come.
pub struct Writer<W: Write> {
    out: std::io::BufWriter<W>,
    /// A value was written before (a blank line goes between two).
    written: bool,
    /// The next character starts a line of the value.
    line_start: bool,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out: std::io::BufWriter::new(out),
            written: false,
            line_start: true,
        }
    }

    pub fn write(&mut self, piece: FullTextPiece<'_>) -> Result<()> {
        match piece {
            FullTextPiece::Begin(head) => {
                if self.written {
                    self.out.write_all(b"\n")?;
                }
                writeln!(self.out, "{}", head_line(&head))?;
                self.written = true;
                self.line_start = true;
            }
            FullTextPiece::Text(text) => self.text(&terminal_safe(text, false))?,
            FullTextPiece::End => {
                if !self.line_start {
                    self.out.write_all(b"\n")?;
                    self.line_start = true;
                }
            }
        }
        Ok(())
    }

    /// Text already made safe: indented at every line's start.
    fn text(&mut self, text: &str) -> Result<()> {
        for line in text.split_inclusive('\n') {
            if self.line_start {
                self.out.write_all(INDENT.as_bytes())?;
            }
            self.out.write_all(line.as_bytes())?;
            self.line_start = line.ends_with('\n');
        }
        Ok(())
    }

    /// Everything written reaches stdout (a broken pipe is an error here,
    /// as for every report).
    pub fn finish(mut self) -> Result<()> {
        self.out.flush()?;
        Ok(())
    }
}

/// `==> job b0000002-… last_error, 52,428,800 bytes <==`: what the lines
/// below it are, with the full id to look it up by.
pub fn head_line(head: &FullTextHead) -> String {
    let what = match head.of {
        FullTextOf::JobLastError => format!("job {} last_error", head.id),
        FullTextOf::ResultOutput => format!("result {} output (without log)", head.id),
        FullTextOf::EventPayload { sequence } => {
            format!("event #{sequence} {} payload (without log)", head.id)
        }
    };
    format!("==> {what}, {} bytes <==", grouped(head.bytes))
}

#[cfg(test)]
#[path = "full_text_tests.rs"]
mod tests;
