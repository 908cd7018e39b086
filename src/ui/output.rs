//! Output discipline: the result goes to stdout (a table, or one JSON
//! document), everything for the human (progress, notes, errors) to stderr.
//! A closed pipe ends the program quietly (see `main`). Everything written
//! for a human passes the sanitizer's last net ([`terminal_safe`]).

use std::io::{self, IsTerminal, Write};

use anyhow::Result;
use console::Style;
use serde::Serialize;

use super::sanitize::terminal_safe;

/// The version of every JSON document this tool prints. Fields are only
/// ever added within a version.
pub const SCHEMA_VERSION: u32 = 1;

/// The width assumed when the terminal's is unknown (a size of 0×0, or no
/// terminal and no COLUMNS).
pub const DEFAULT_WIDTH: usize = 80;

/// What `--output` asks for (its words on the command line: `cli`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Tables and sentences for a human, fitted to the screen's width.
    Table,
    /// Tables with every column, however wide.
    Wide,
    /// One JSON document on stdout, for scripts.
    Json,
    /// A compact report to paste into a ticket (diagnose, stuck,
    /// fail-safely, history).
    Markdown,
    /// The OpenMetrics text format, for monitoring (`stuck` only).
    Openmetrics,
}

/// What `--color` asks for (its words on the command line: `cli`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    Always,
    Never,
}

/// How results are rendered for this run.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub format: OutputFormat,
    /// Colour (from --color, NO_COLOR and whether stdout is a terminal).
    pub color: bool,
    /// stdout is a terminal.
    pub interactive: bool,
    /// The format was asked for with --output (not the terminal default).
    pub explicit: bool,
    /// The screen's width in columns (COLUMNS, else the terminal's, else 80).
    pub width: usize,
    /// `-o wide`: every column, whatever the width.
    pub wide: bool,
    /// Tables have a header line (not with --no-headers).
    pub headers: bool,
}

/// The screen's width: COLUMNS when set, else the terminal's (stdout's,
/// then stderr's), else 80 (also for a terminal that says 0×0).
pub fn screen_width() -> usize {
    if let Some(columns) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
    {
        return columns;
    }
    [console::Term::stdout(), console::Term::stderr()]
        .iter()
        .filter(|t| t.is_term())
        .find_map(|t| t.size_checked().map(|(_, cols)| usize::from(cols)))
        .filter(|&c| c > 0)
        .unwrap_or(DEFAULT_WIDTH)
}

impl Output {
    pub fn detect(requested: Option<OutputFormat>, color: ColorChoice, headers: bool) -> Output {
        let interactive = io::stdout().is_terminal();
        // The same table on a terminal and in a pipe (plain there: no
        // colour); JSON only when asked for (README, "Output and exit codes").
        let format = requested.unwrap_or(OutputFormat::Table);
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Output {
            format,
            color: match color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => interactive && !no_color,
            },
            interactive,
            explicit: requested.is_some(),
            width: screen_width(),
            wide: format == OutputFormat::Wide,
            headers,
        }
    }

    /// Plain text at 80 columns, for tests.
    pub fn plain() -> Output {
        Output {
            format: OutputFormat::Table,
            color: false,
            interactive: false,
            explicit: true,
            width: DEFAULT_WIDTH,
            wide: false,
            headers: true,
        }
    }

    /// The room for a command to copy, indented by `indent`: the screen's
    /// width, or any width with `-o wide` (whose lines are long anyway).
    pub fn command_room(&self, indent: usize) -> usize {
        if self.wide {
            usize::MAX
        } else {
            self.width.saturating_sub(indent)
        }
    }

    pub fn markdown(&self) -> bool {
        self.format == OutputFormat::Markdown
    }

    pub fn json(&self) -> bool {
        self.format == OutputFormat::Json
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

    /// Writes text to stdout, through the sanitizer's last net.
    /// A table's text for a human is held to the screen's width (the
    /// last net, `text::fitted`); `-o wide`, markdown and metrics are not.
    pub fn print(&self, text: &str) -> Result<()> {
        let text = if self.format == OutputFormat::Table {
            super::text::fitted(text, self.width)
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        write_out(&terminal_safe(&text, self.color))
    }

    /// A line for the human on stderr, through the sanitizer's last net.
    pub fn note(&self, text: &str) {
        note(text);
    }

    /// The warnings of a read (odd values it shows anyway), one
    /// `warning:` paragraph each on stderr, wrapped to the screen.
    pub fn warnings(&self, warnings: &[crate::model::Warning]) {
        for text in self.warning_lines(warnings) {
            note(&text);
        }
    }

    /// [`Self::warnings`] as text (a `--watch` screen shows them below
    /// the view).
    pub fn warning_lines(&self, warnings: &[crate::model::Warning]) -> Vec<String> {
        warnings
            .iter()
            .map(|w| {
                let text = format!("warning: {}", super::sanitize::visible(&w.message));
                super::text::wrapped(&text, self.width, "", "  ")
            })
            .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Bad,
    Warn,
    Good,
    Bold,
    Dim,
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

fn write_out(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Writes text to stdout; only colour sequences survive the net (a caller
/// without an [`Output`] has none to write).
pub fn print(text: &str) -> Result<()> {
    write_out(&terminal_safe(text, false))
}

/// A JSON document with the schema version first.
#[derive(Serialize)]
struct Versioned<'a, T: Serialize> {
    schema_version: u32,
    #[serde(flatten)]
    document: &'a T,
}

/// One compact JSON document with its `schema_version`, for JSON lines.
pub fn json_line<T: Serialize>(value: &T) -> Result<String> {
    Ok(serde_json::to_string(&Versioned {
        schema_version: SCHEMA_VERSION,
        document: value,
    })?)
}

/// Writes one pretty JSON document, with its `schema_version`, to stdout.
/// JSON is never sanitized: it carries the database's text exactly.
/// Written as it is serialized, never held whole: a document with a
/// streamed part (diagnose's long trail) stays in bounded memory.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    // 64 KiB: a streamed trail of a million events is 260 MB of writes.
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let document = Versioned {
        schema_version: SCHEMA_VERSION,
        document: value,
    };
    serde_json::to_writer_pretty(&mut out, &document).map_err(json_write_error)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// A failed write stays an I/O error (a closed pipe ends quietly); a
/// failure of what was streamed into the document is that failure.
fn json_write_error(err: serde_json::Error) -> anyhow::Error {
    if err.is_io() {
        anyhow::Error::new(io::Error::from(err))
    } else {
        anyhow::anyhow!("{err}")
    }
}

/// The warning a read gives when row-level security applies to the role
/// on some of its tables (`what`: "this diagnosis", "the scan" …): rows may
/// be missing from what it shows. Nothing when `tables` is empty.
pub fn warn_row_security(tables: &[String], what: &str) {
    if tables.is_empty() {
        return;
    }
    warn(&format!(
        "warning: row-level security applies to this role on {}: rows may be hidden from {what}, \
         and fail-safely refuses to decide here. Next step: read as a role that row-level \
         security does not filter (the table owner, or a BYPASSRLS role); `pushleft-controller \
         doctor` lists the policies",
        tables.join(", ")
    ));
}

/// A `warning: …` paragraph on stderr, wrapped to the screen at its
/// blanks (an id or a `quoted command` stays whole).
pub fn warn(text: &str) {
    note(&super::text::wrapped(text, screen_width(), "", "  "));
}

/// A line for the human on stderr. Errors writing to stderr are ignored:
/// there is nowhere left to report them. Colour sequences the caller
/// painted survive; anything else unsafe is made visible.
/// Held to the screen's width (the last net, `text::fitted`) on a
/// screen; in a log (stderr redirected, no COLUMNS) a long line stays one
/// line, which greps better (as `failure::report` does).
pub fn note(text: &str) {
    let screen = io::stderr().is_terminal() || std::env::var_os("COLUMNS").is_some();
    let text = if screen {
        super::text::fitted(text, screen_width())
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let _ = writeln!(io::stderr().lock(), "{}", terminal_safe(&text, true));
}
