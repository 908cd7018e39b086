//! Man pages: clap_mangen renders what the clap definition says; the
//! sections an operator looks for (EXIT STATUS, ENVIRONMENT, FILES,
//! EXAMPLES, JSON OUTPUT) are added here in roff.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use clap::CommandFactory;

use crate::cli::Cli;

const EXIT_STATUS: &str = "\
.TP
\\fB0\\fR
done
.TP
\\fB1\\fR
unexpected error
.TP
\\fB2\\fR
usage or bad input (malformed id, ambiguous prefix, bad reason or duration)
.TP
\\fB3\\fR
not found (unknown deployment)
.TP
\\fB4\\fR
refused: a precondition, the guard, nothing to do, or no terminal to confirm; nothing was written
.TP
\\fB5\\fR
conflict, lock timeout or changed fingerprint: safe to re-diagnose and retry
.TP
\\fB6\\fR
wait timed out
.TP
\\fB10\\fR
stuck \\-\\-exit\\-code found something
.TP
\\fB130\\fR
interrupted (Ctrl\\-C); nothing was written
";

const ENVIRONMENT: &str = "\
.TP
\\fBDATABASE_URL\\fR
The control plane's database, as a postgresql:// URL or key=value pairs. \\-\\-database\\-url overrides it.
.TP
\\fBPGHOST\\fR, \\fBPGPORT\\fR, \\fBPGUSER\\fR, \\fBPGDATABASE\\fR, \\fBPGPASSWORD\\fR
Used, as libpq does, when no database URL is given. PGHOST may name a unix socket directory.
.TP
\\fBPGSSLMODE\\fR, \\fBPGSSLROOTCERT\\fR, \\fBPGCONNECT_TIMEOUT\\fR, \\fBPGPASSFILE\\fR
TLS mode and root certificate, connect timeout, and the password file, as in libpq.
.TP
\\fBPUSHLEFT_STATEMENT_TIMEOUT\\fR, \\fBPUSHLEFT_CONNECT_TIMEOUT\\fR
Defaults for \\-\\-statement\\-timeout and \\-\\-connect\\-timeout.
.TP
\\fBNO_COLOR\\fR
When set and not empty, no colours.
.TP
\\fBPUSHLEFT_PG_BIN\\fR
Directory of initdb, pg_ctl and postgres for the sandbox.
";

const FILES: &str = "\
.TP
\\fB~/.pgpass\\fR
Passwords, with libpq's matching; ignored when group or world readable.
.TP
\\fBsql/\\fR
The reference schema and every query the tool runs, embedded in the binary.
";

/// Writes pushleft-controller.1 and one page per subcommand.
pub fn write(dir: &Path) -> Result<()> {
    let root = Cli::command();
    render(dir, &root, "pushleft-controller")?;
    for sub in root.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("pushleft-controller-{}", sub.get_name());
        let sub = sub.clone().name(name.clone());
        render(dir, &sub, &name)?;
        for nested in sub.get_subcommands() {
            let nested_name = format!("{name}-{}", nested.get_name());
            render(dir, &nested.clone().name(nested_name.clone()), &nested_name)?;
        }
    }
    Ok(())
}

fn render(dir: &Path, cmd: &clap::Command, name: &str) -> Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page: Vec<u8> = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut page)?;
    }
    let mut text = String::from_utf8(page).context("clap_mangen wrote non-UTF-8")?;
    if let Some(examples) = examples(cmd) {
        text.push_str(".SH EXAMPLES\n");
        for line in examples.lines() {
            text.push_str(".nf\n");
            text.push_str(&escape(line));
            text.push_str("\n.fi\n");
        }
    }
    if let Some(json) = json_section(name) {
        text.push_str(".SH \"JSON OUTPUT\"\n");
        text.push_str(json);
    }
    text.push_str(".SH \"EXIT STATUS\"\n");
    text.push_str(EXIT_STATUS);
    text.push_str(".SH ENVIRONMENT\n");
    text.push_str(ENVIRONMENT);
    text.push_str(".SH FILES\n");
    text.push_str(FILES);
    let mut version = Vec::new();
    man.render_version_section(&mut version)?;
    text.push_str(&String::from_utf8_lossy(&version));
    let path = dir.join(format!("{name}.1"));
    fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// The examples of a command are the indented lines of its after_help.
fn examples(cmd: &clap::Command) -> Option<String> {
    let after = cmd.get_after_help()?.to_string();
    let (_, rest) = after.split_once("Examples:")?;
    let lines: Vec<&str> = rest
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::trim_start)
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn escape(line: &str) -> String {
    let escaped = line.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// The stable JSON fields, per command (SPEC.md "Output and exit contract").
fn json_section(name: &str) -> Option<&'static str> {
    crate::json_docs::for_page(name)
}
