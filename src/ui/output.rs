//! Output discipline: the result goes to stdout (a table, or one JSON
//! document), everything for the human (progress, notes, errors) to stderr.
//! A closed pipe ends the program quietly (see `main`).

use std::io::{self, IsTerminal, Write};

use anyhow::Result;
use comfy_table::{Cell, Color, ContentArrangement, Table, presets};
use console::Style;
use serde::Serialize;

/// What `--output` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Tables and sentences for a human.
    Table,
    /// One JSON document on stdout, for scripts.
    Json,
    /// The OpenMetrics text format, for monitoring (`stuck` only).
    Openmetrics,
}

/// How results are rendered for this run.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub format: OutputFormat,
    /// Colour only on a terminal, and never with NO_COLOR.
    pub color: bool,
    /// stdout is a terminal.
    pub interactive: bool,
    /// The format was asked for with --output (not the terminal default).
    pub explicit: bool,
}

impl Output {
    pub fn detect(requested: Option<OutputFormat>) -> Output {
        let interactive = io::stdout().is_terminal();
        let format = requested.unwrap_or(if interactive {
            OutputFormat::Table
        } else {
            OutputFormat::Json
        });
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Output {
            format,
            color: interactive && !no_color,
            interactive,
            explicit: requested.is_some(),
        }
    }

    pub fn json(&self) -> bool {
        self.format == OutputFormat::Json
    }

    /// A table in the house style.
    pub fn table(&self, header: &[&str]) -> Table {
        let mut table = Table::new();
        table
            .load_style(presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic);
        if !self.interactive {
            table.load_style(presets::ASCII_MARKDOWN);
        }
        if !self.color {
            table.force_no_tty();
        } else {
            table.enforce_styling();
        }
        table.set_header(header.iter().copied().map(Cell::new));
        table
    }

    /// A cell, red when `bad` (and colour is on).
    pub fn cell(&self, text: impl ToString, bad: bool) -> Cell {
        let cell = Cell::new(text);
        if bad && self.color {
            cell.fg(Color::Red)
        } else {
            cell
        }
    }

    /// A cell, yellow when `warn` (and colour is on).
    pub fn warn_cell(&self, text: impl ToString, warn: bool) -> Cell {
        let cell = Cell::new(text);
        if warn && self.color {
            cell.fg(Color::Yellow)
        } else {
            cell
        }
    }

    /// Paints a whole line (headline of a verdict).
    pub fn paint(&self, text: &str, color: Paint) -> String {
        if !self.color {
            return text.to_string();
        }
        let style = match color {
            Paint::Bad => Style::new().red().bold(),
            Paint::Warn => Style::new().yellow().bold(),
            Paint::Good => Style::new().green().bold(),
            Paint::Bold => Style::new().bold(),
            Paint::Dim => Style::new().dim(),
        };
        // Forced: `color` already says whether this stream wants colour.
        style.force_styling(true).apply_to(text).to_string()
    }
}

#[derive(Debug, Clone, Copy)]
pub enum Paint {
    Bad,
    Warn,
    Good,
    Bold,
    Dim,
}

/// Database text made safe for a terminal: control characters (other
/// than a plain space) and bidirectional overrides and isolates shown as
/// `\u{…}` escapes, so they can neither drive the terminal nor reorder
/// what the operator reads. JSON keeps the text exact; this is for screens.
pub fn visible(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}');
        if c.is_control() || bidi {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Replaces `path` with `text` atomically: written to a temporary file in
/// the same directory, flushed to disk, then renamed over it, so a reader
/// (node_exporter's textfile collector) sees the old file or the new one,
/// never half of one.
pub fn write_atomically(path: &std::path::Path, text: &str) -> Result<()> {
    use anyhow::Context;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => std::path::Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".pushleft-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.as_file().sync_all())
        .with_context(|| format!("writing {}", file.path().display()))?;
    // Readable like any metrics file (a temporary file starts as 0600).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(file.path(), std::fs::Permissions::from_mode(0o644))
        .with_context(|| format!("chmod {}", file.path().display()))?;
    file.persist(path)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

/// Writes text to stdout.
pub fn print(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Writes one pretty JSON document to stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    print(&text)
}

/// A line for the human on stderr. Errors writing to stderr are ignored:
/// there is nowhere left to report them.
pub fn note(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}
