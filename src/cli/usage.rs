//! A command line clap cannot parse: clap's own words on stderr, and with
//! JSON output (`--output json`) the error
//! document on stdout too, kind `bad_input`, exit 2.

use clap::error::ErrorKind as ClapKind;

use crate::exit::{ErrorKind, ExitCode};
use crate::ui::failure::ErrorBody;
use crate::ui::{OutputFormat, print_json};

/// Whether the output will be JSON: only with `--output json` (a pipe
/// gets the same table as a terminal).
pub fn json_output(requested: Option<OutputFormat>) -> bool {
    requested == Some(OutputFormat::Json)
}

/// What the raw arguments ask of `--output`, for a line that did not parse.
pub fn requested_in_args(args: &[String]) -> Option<OutputFormat> {
    let mut requested = None;
    for (i, arg) in args.iter().enumerate() {
        let value = match arg.as_str() {
            "-o" | "--output" => args.get(i + 1).map(String::as_str),
            _ => arg
                .strip_prefix("--output=")
                .or_else(|| arg.strip_prefix("-o="))
                .or_else(|| arg.strip_prefix("-o").filter(|v| !v.is_empty())),
        };
        requested = match value {
            Some("json") => Some(OutputFormat::Json),
            Some("table") => Some(OutputFormat::Table),
            Some("wide") => Some(OutputFormat::Wide),
            _ => requested,
        };
    }
    requested
}

/// Whether the line asks for the long help (`--help`, `help COMMAND`),
/// which is paged; `-h` is short enough to print as it is.
pub fn asks_long_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "help")
}

/// The long help, through the pager on a terminal (README, "Output and
/// exit codes"): 200 lines of `--help` otherwise scroll their start away.
/// `--no-pager` and `PAGER` are honoured as for a report; the line did not
/// parse, so `--no-pager` is looked for in `args`.
pub fn show_long_help(help: clap::builder::StyledStr, args: &[String]) -> std::io::Result<()> {
    if args.iter().any(|a| a == "--no-pager") {
        crate::ui::pager::disable();
    }
    let out = crate::ui::Output::detect(None, crate::ui::ColorChoice::Auto, true);
    let text = match out.color {
        true => help.ansi().to_string(),
        false => help.to_string(),
    };
    crate::ui::pager::text(&out, &text)
}

#[derive(serde::Serialize)]
struct UsageDocument {
    error: ErrorBody,
}

/// Reports clap's error and returns the exit status (help and version are
/// not errors).
/// `instead`: our own sentence for the error (an option of another
/// command), shown in place of clap's.
pub fn report_clap_error(err: clap::Error, instead: Option<String>) -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if err.kind() == ClapKind::DisplayHelp && asks_long_help(&args) {
        return match show_long_help(err.render(), &args) {
            Ok(()) => 0,
            Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(_) => 1,
        };
    }
    let quiet = matches!(err.kind(), ClapKind::DisplayHelp | ClapKind::DisplayVersion);
    if quiet {
        let _ = err.print();
        return err.exit_code();
    }
    match &instead {
        Some(sentence) => crate::ui::output::warn(&format!("error: {sentence}")),
        None => crate::ui::note(&fitted(&err)),
    }
    if json_output(requested_in_args(&args)) {
        let rendered = instead.unwrap_or_else(|| err.render().to_string());
        let message = rendered
            .split("\n\n")
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ");
        let _ = print_json(&UsageDocument {
            error: ErrorBody {
                exit_code: ExitCode::Usage.as_i32(),
                kind: ErrorKind::BadInput,
                message,
                next: ErrorKind::BadInput.default_next().map(str::to_string),
            },
        });
    }
    ExitCode::Usage.as_i32()
}

/// clap's error wrapped to the screen at its blanks, each line continued
/// under its own indent (clap leaves its usage line and its suggestions
/// as long as they are; its help it wraps itself, to COLUMNS or the
/// terminal's width); coloured as clap colours it on a terminal.
fn fitted(err: &clap::Error) -> String {
    use std::io::IsTerminal;
    let rendered = err.render();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let text = if std::io::stderr().is_terminal() && !no_color {
        rendered.ansi().to_string()
    } else {
        rendered.to_string()
    };
    // On a screen its width; in a log (stderr redirected, no COLUMNS) one
    // line a sentence, as every error (`ui::failure::report`).
    let screen = std::io::stderr().is_terminal() || std::env::var_os("COLUMNS").is_some();
    let width = if screen {
        crate::ui::output::screen_width()
    } else {
        usize::MAX
    };
    text.trim_end()
        .lines()
        .map(|line| {
            let indent: String = line.chars().take_while(|c| *c == ' ').collect();
            let rest = if line.trim_start().starts_with("Usage:") {
                " ".repeat(7)
            } else {
                format!("{indent}  ")
            };
            crate::ui::text::wrapped(line.trim_start(), width, &indent, &rest)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
#[path = "usage_tests.rs"]
mod tests;
