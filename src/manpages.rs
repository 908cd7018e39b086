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
The control plane's database, as a postgresql:// URL or libpq key=value pairs; \\-\\-database\\-url overrides it. Parameters it leaves out come from the PG* variables below, as in libpq. Never printed.
.TP
\\fBPGHOST\\fR, \\fBPGPORT\\fR, \\fBPGUSER\\fR, \\fBPGDATABASE\\fR
Used, as libpq does, for what the database URL does not set. PGHOST may name a unix socket directory (a path starting with /); the default is the local socket directory, else localhost.
.TP
\\fBPGPASSWORD\\fR
The password, when the URL has none. Prefer ~/.pgpass.
.TP
\\fBPGPASSFILE\\fR
The password file instead of ~/.pgpass.
.TP
\\fBPGSSLMODE\\fR
disable, allow, prefer (default), require, verify\\-ca or verify\\-full, as in libpq. require encrypts without checking the certificate; verify\\-ca checks that a trusted root signed it; verify\\-full also checks that it names the host. Unix sockets never use TLS.
.TP
\\fBPGSSLROOTCERT\\fR
PEM file of the trusted roots for verify\\-ca and verify\\-full, or \\fBsystem\\fR for the system's roots. Default: ~/.postgresql/root.crt when it exists, else the system's roots.
.TP
\\fBPGCONNECT_TIMEOUT\\fR
Seconds to wait for a connection, when neither \\-\\-connect\\-timeout nor connect_timeout= is given (default 10).
.TP
\\fBPGAPPNAME\\fR
Ignored: every session is named pushleft\\-controller/VERSION in pg_stat_activity.
.TP
\\fBPUSHLEFT_STATEMENT_TIMEOUT\\fR, \\fBPUSHLEFT_CONNECT_TIMEOUT\\fR, \\fBPUSHLEFT_IDLE_IN_TRANSACTION_TIMEOUT\\fR, \\fBPUSHLEFT_LOCK_TIMEOUT\\fR
Defaults for \\-\\-statement\\-timeout, \\-\\-connect\\-timeout, \\-\\-idle\\-in\\-transaction\\-timeout and fail\\-safely \\-\\-lock\\-timeout.
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
Passwords, one host:port:database:user:password per line, * for any, \\e escapes : and \\e. The first matching line is used when no password is given otherwise. Ignored, with a warning, when group or world readable (chmod 600 it).
.TP
\\fB~/.postgresql/root.crt\\fR
Trusted roots for verify\\-ca and verify\\-full when PGSSLROOTCERT and sslrootcert= are not set.
.TP
\\fBsql/\\fR
The reference schema and every query the tool runs, embedded in the binary.
";

/// How a connection is made: on the main page and on doctor's.
const CONNECTING: &str = "\
Each connection setting is taken from the first of:
.IP 1. 4
\\-\\-database\\-url on the command line;
.IP 2. 4
DATABASE_URL;
.IP 3. 4
for each parameter the URL leaves out: PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE, PGSSLROOTCERT, PGCONNECT_TIMEOUT;
.IP 4. 4
for the password only: the first matching line of PGPASSFILE or ~/.pgpass;
.IP 5. 4
libpq's defaults: the local socket directory, port 5432, the operating\\-system user, a database named like the user, sslmode=prefer.
.PP
TLS is rustls (no OpenSSL). URL parameters sslmode=, sslrootcert=, passfile= and connect_timeout= work as in libpq; application_name= and PGAPPNAME are ignored. Every session sets application_name=pushleft\\-controller/VERSION, statement_timeout (\\-\\-statement\\-timeout), lock_timeout (5s; fail\\-safely \\-\\-lock\\-timeout) and idle_in_transaction_session_timeout (\\-\\-idle\\-in\\-transaction\\-timeout). No password appears in any output or error.
";

/// Writes pushleft-controller.1 and one page per visible subcommand
/// (nested ones too: pushleft-controller-fleet-list.1).
pub fn write(dir: &Path) -> Result<()> {
    let mut root = Cli::command();
    // Propagates the version and the global options to the subcommands,
    // and names them `pushleft-controller-diagnose` and so on.
    root.build();
    // build() also adds `help` subcommands: `--help` covers them, no pages.
    let mut root = hide_help(root);
    root.build();
    let visible = |c: &&clap::Command| !c.is_hide_set();
    let mut pages = vec![root.clone()];
    for sub in root.get_subcommands().filter(visible) {
        pages.push(sub.clone());
        for nested in sub.get_subcommands().filter(visible) {
            pages.push(nested.clone());
        }
    }
    let names: Vec<String> = pages.iter().map(page_name).collect();
    for page in &pages {
        render(dir, page, &names)?;
    }
    Ok(())
}

fn hide_help(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    names.iter().fold(cmd, |cmd, name| {
        if name == "help" {
            cmd.mut_subcommand(name, |help| help.hide(true))
        } else {
            cmd.mut_subcommand(name, hide_help)
        }
    })
}

fn page_name(cmd: &clap::Command) -> String {
    cmd.get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string()
}

fn render(dir: &Path, cmd: &clap::Command, all: &[String]) -> Result<()> {
    let name = page_name(cmd);
    let man = clap_mangen::Man::new(cmd.clone().version(env!("CARGO_PKG_VERSION")))
        .source(format!("pushleft-controller {}", env!("CARGO_PKG_VERSION")))
        .manual("pushleft-controller manual");
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
    if name == "pushleft-controller" || name == "pushleft-controller-doctor" {
        text.push_str(".SH CONNECTING\n");
        text.push_str(CONNECTING);
    }
    if let Some(examples) = examples(cmd) {
        text.push_str(".SH EXAMPLES\n");
        for line in examples.lines() {
            text.push_str(".nf\n");
            text.push_str(&escape(line));
            text.push_str("\n.fi\n");
        }
    }
    if let Some(json) = json_section(&name) {
        text.push_str(".SH \"JSON OUTPUT\"\n");
        text.push_str(json);
    }
    text.push_str(".SH \"EXIT STATUS\"\n");
    text.push_str(EXIT_STATUS);
    text.push_str(".SH ENVIRONMENT\n");
    text.push_str(ENVIRONMENT);
    text.push_str(".SH FILES\n");
    text.push_str(FILES);
    let others: Vec<String> = all
        .iter()
        .filter(|other| **other != name)
        .map(|other| format!("\\fB{}\\fR(1)", other.replace('-', "\\-")))
        .collect();
    text.push_str(".SH \"SEE ALSO\"\n");
    text.push_str(&others.join(", "));
    text.push('\n');
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
