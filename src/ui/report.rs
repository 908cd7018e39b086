//! The one output path (README, "Output and exit codes"): every command's
//! result is a [`Report`], and [`emit`] prints it in the format asked for
//! — one JSON document, the ticket's markdown, or the table and sentences
//! for a human. The formats a command accepts are its report's
//! [`Report::FORMATS`], checked before anything is read.

use anyhow::Result;
use serde::Serialize;

use super::output::{Output, OutputFormat, print_json};
use super::pager;
use super::sanitize::terminal_safe;

/// What every report can be printed as.
pub const PLAIN: &[OutputFormat] = &[OutputFormat::Table, OutputFormat::Wide, OutputFormat::Json];

/// [`PLAIN`] and a markdown report for a ticket.
pub const WITH_MARKDOWN: &[OutputFormat] = &[
    OutputFormat::Table,
    OutputFormat::Wide,
    OutputFormat::Json,
    OutputFormat::Markdown,
];

/// One line of what a human is shown, in order: the result on stdout, or
/// a note for the human on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Out(String),
    Note(String),
}

/// A command's result: a JSON document that can also be shown to a human.
pub trait Report: Serialize {
    /// The formats it can be printed in.
    const FORMATS: &'static [OutputFormat] = PLAIN;

    /// The table and sentences for a human (table and wide).
    fn human(&self, out: &Output) -> Vec<Line>;

    /// The markdown for a ticket; only asked for when `FORMATS` has it.
    fn markdown(&self, out: &Output) -> Vec<Line> {
        self.human(out)
    }

    /// What must still be on the screen once the command has returned,
    /// repeated at the end when the report was printed whole on a
    /// terminal it does not fit (no pager): `diagnose`'s verdict and next
    /// command. Nothing by default.
    fn recap(&self, _out: &Output) -> Vec<Line> {
        Vec::new()
    }
}

/// Prints `report` as `out` says: JSON on stdout, or its lines, each to
/// its stream. On a terminal, lines taller than the screen go through the
/// pager (`pager`); printed whole instead, they end with the report's
/// [`Report::recap`].
pub fn emit<R: Report>(out: &Output, report: &R) -> Result<()> {
    let mut lines = match out.format {
        OutputFormat::Json => return print_json(report),
        OutputFormat::Markdown if R::FORMATS.contains(&OutputFormat::Markdown) => {
            report.markdown(out)
        }
        _ => report.human(out),
    };
    let tall = screen_lines(&lines, out.width);
    if let Some(pager) = pager::start(out, tall) {
        return paged(out, pager, &lines);
    }
    if pager::scrolls_away(out, tall) {
        lines.extend(report.recap(out));
    }
    for line in lines {
        match line {
            Line::Out(text) => out.print(&text)?,
            Line::Note(text) => out.note(&text),
        }
    }
    Ok(())
}

/// How many screen lines `lines` take.
fn screen_lines(lines: &[Line], width: usize) -> usize {
    lines
        .iter()
        .map(|line| match line {
            Line::Out(text) | Line::Note(text) => pager::screen_lines(text, width),
        })
        .sum()
}

/// The lines through the pager, in order: the notes too while stderr is
/// the same terminal (else to stderr, as always).
fn paged(out: &Output, mut pager: pager::Pager, lines: &[Line]) -> Result<()> {
    for line in lines {
        match line {
            Line::Out(text) => pager.line(&terminal_safe(text, out.color))?,
            Line::Note(text) if pager.notes => pager.line(&terminal_safe(text, true))?,
            Line::Note(text) => out.note(text),
        }
    }
    pager.finish()?;
    Ok(())
}

/// The lines as one text, as a `--watch` screen shows them.
pub fn joined(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|line| match line {
            Line::Out(text) | Line::Note(text) => text.as_str(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A report's warnings as notes, one paragraph each.
pub fn warnings(out: &Output, warnings: &[crate::model::Warning]) -> Vec<Line> {
    out.warning_lines(warnings)
        .into_iter()
        .map(Line::Note)
        .collect()
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
