//! The one output path (README, "Output and exit codes"): every command's
//! result is a [`Report`], rendered in the format asked for — one JSON
//! document, the ticket's markdown, the monitoring's metrics, or the table
//! and sentences for a human — one renderer per format, as hyperfine's
//! exporters. [`emit`] prints it; a `--watch` refresh shows it as one
//! [`frame`]; `--write FILE` stores its metrics ([`write_metrics`]). The
//! formats a command accepts are its report's [`Report::FORMATS`], checked
//! before anything is read.

use std::path::Path;

use anyhow::{Result, anyhow};
use serde::Serialize;

use super::output::{self, Output, OutputFormat, json_line, print_json, write_atomically};
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

    /// The OpenMetrics text for monitoring, exactly as it is to be read
    /// (never paged or wrapped); `None` for a report that has none (asked
    /// for all the same, that is an error, never another format).
    fn openmetrics(&self) -> Option<String> {
        None
    }

    /// What one `--watch` refresh shows of it: the view, without what is
    /// for reading once (a hint). The human view by default.
    fn frame(&self, out: &Output) -> Vec<Line> {
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

/// Prints `report` as `out` says: JSON on stdout, its metrics as they
/// are, or its lines, each to its stream. On a terminal, lines taller than the screen go through the
/// pager (`pager`); printed whole instead, they end with the report's
/// [`Report::recap`].
pub fn emit<R: Report>(out: &Output, report: &R) -> Result<()> {
    let has = |format| R::FORMATS.contains(&format);
    let mut lines = match out.format {
        OutputFormat::Json => return print_json(report),
        OutputFormat::Markdown if has(OutputFormat::Markdown) => report.markdown(out),
        OutputFormat::Openmetrics if has(OutputFormat::Openmetrics) => {
            return output::print(&metrics_of(report)?);
        }
        _ => report.human(out),
    };
    if out.format == OutputFormat::Table {
        // The last net before the pager measures and shows them.
        for line in &mut lines {
            let (Line::Out(text) | Line::Note(text)) = line;
            if let std::borrow::Cow::Owned(fitted) = super::text::fitted(text, out.width) {
                *text = fitted;
            }
        }
    }
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

/// One `--watch` refresh of `report`: its JSON line with `--output json`,
/// else its [`Report::frame`] as one text, for the screen or the pipe.
pub fn frame<R: Report>(out: &Output, report: &R) -> Result<String> {
    match out.format {
        OutputFormat::Json => json_line(report),
        _ => Ok(joined(&report.frame(out))),
    }
}

/// `--write FILE`: the report's metrics replace `path` atomically (a
/// reader sees the old file or the new one, never half of one).
pub fn write_metrics<R: Report>(path: &Path, report: &R) -> Result<()> {
    write_atomically(path, &metrics_of(report)?)
}

/// The report's metrics; a report without any is a bug of the command
/// that asked (`stuck`'s metrics are `openmetrics::Metrics`', with the
/// fleet), said instead of printing something else.
fn metrics_of<R: Report>(report: &R) -> Result<String> {
    report
        .openmetrics()
        .ok_or_else(|| anyhow!("this report has no metrics (OpenMetrics text) to print or write"))
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
