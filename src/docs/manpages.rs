//! Man pages: clap_mangen renders what the clap definition says (name,
//! synopsis, description, options, subcommands); the sections an operator
//! looks for are added here. Those that are prose (CONNECTING, JSON OUTPUT,
//! EXIT STATUS, ENVIRONMENT, FILES) are plain roff files under `man/src/`,
//! each with its own `.SH` line, so they are edited as roff rather than as
//! escaped Rust strings; EXAMPLES and SEE ALSO are rendered from the clap
//! definition.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use super::json;

/// How a connection is made: on the main page and on doctor's.
const CONNECTING: &str = include_str!("../../man/src/connecting.roff");
const EXIT_STATUS: &str = include_str!("../../man/src/exit-status.roff");
const ENVIRONMENT: &str = include_str!("../../man/src/environment.roff");
const FILES: &str = include_str!("../../man/src/files.roff");
/// The alerting section of stuck's page, and the rules it shows.
const STUCK_ALERTING: &str = include_str!("../../man/src/stuck-alerting.roff");
pub const ALERT_RULES: &str = include_str!("../../man/src/alert-rules.yml");
/// The reference the README leaves to the pages (`man/src/guide/`, one
/// roff file a section), each on the page an operator opens for it, after
/// EXAMPLES and JSON OUTPUT.
const GUIDE: &[(&str, &str)] = &[
    (
        "pushleft-controller",
        include_str!("../../man/src/guide/output.roff"),
    ),
    (
        "pushleft-controller",
        include_str!("../../man/src/guide/database.roff"),
    ),
    (
        "pushleft-controller",
        include_str!("../../man/src/guide/connecting-details.roff"),
    ),
    (
        "pushleft-controller",
        include_str!("../../man/src/guide/regions.roff"),
    ),
    (
        "pushleft-controller",
        include_str!("../../man/src/guide/tickets.roff"),
    ),
    (
        "pushleft-controller",
        include_str!("../../man/src/guide/completion.roff"),
    ),
    (
        "pushleft-controller",
        include_str!("../../man/src/guide/when-things-go-wrong.roff"),
    ),
    (
        "pushleft-controller-fail-safely",
        include_str!("../../man/src/guide/step-by-step.roff"),
    ),
    (
        "pushleft-controller-fail-safely",
        include_str!("../../man/src/guide/checks.roff"),
    ),
    (
        "pushleft-controller-fail-safely",
        include_str!("../../man/src/guide/two-person.roff"),
    ),
    (
        "pushleft-controller-diagnose",
        include_str!("../../man/src/guide/huge-text.roff"),
    ),
    (
        "pushleft-controller-stuck",
        include_str!("../../man/src/guide/monitoring.roff"),
    ),
];
/// What fail-safely refuses, with its messages: on its page only.
const FAIL_SAFELY_REFUSALS: &str = include_str!("../../man/src/fail-safely-refusals.roff");

/// Writes pushleft-controller.1 and one page per visible subcommand
/// (nested ones too: pushleft-controller-fleet-list.1).
/// `root` is the whole command line (`cli::command`: the clap
/// definition with each command's formats).
pub fn write(dir: &Path, root: clap::Command) -> Result<()> {
    let mut root = root;
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

/// Hides the `help` subcommands clap adds at every level, so that they get
/// no page and no SEE ALSO entry.
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

/// The page's name: after `build()`, clap's display name is the full
/// command line joined by hyphens (`pushleft-controller-fleet-list`).
fn page_name(cmd: &clap::Command) -> String {
    cmd.get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string()
}

/// Writes one page: clap's sections, then ours in the order man pages
/// usually have them.
fn render(dir: &Path, cmd: &clap::Command, all: &[String]) -> Result<()> {
    let name = page_name(cmd);
    let man = clap_mangen::Man::new(cmd.clone().version(env!("CARGO_PKG_VERSION")))
        .source(format!("pushleft-controller {}", env!("CARGO_PKG_VERSION")))
        .manual("pushleft-controller manual");
    let mut text = clap_sections(&man, cmd)?;
    if name == "pushleft-controller" || name == "pushleft-controller-doctor" {
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
    if let Some(json) = json::for_page(&name) {
        text.push_str(json);
    }
    for (page, section) in GUIDE {
        if *page == name {
            text.push_str(section);
        }
    }
    if name == "pushleft-controller-fail-safely" {
        text.push_str(FAIL_SAFELY_REFUSALS);
    }
    if name == "pushleft-controller-stuck" {
        text.push_str(STUCK_ALERTING);
        text.push_str(".nf\n");
        for line in ALERT_RULES.lines() {
            text.push_str(&escape(line));
            text.push('\n');
        }
        text.push_str(".fi\n");
    }
    for section in [EXIT_STATUS, ENVIRONMENT, FILES] {
        text.push_str(section);
    }
    text.push_str(&see_also(&name, all));
    let mut version = Vec::new();
    man.render_version_section(&mut version)?;
    text.push_str(&String::from_utf8_lossy(&version));
    let path = dir.join(format!("{name}.1"));
    fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// What clap_mangen renders from the clap definition: from the title to
/// OPTIONS, and SUBCOMMANDS when there are visible ones.
fn clap_sections(man: &clap_mangen::Man, cmd: &clap::Command) -> Result<String> {
    let mut page: Vec<u8> = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut page)?;
    }
    String::from_utf8(page).context("clap_mangen wrote non-UTF-8")
}

/// SEE ALSO: every other page of the tool.
fn see_also(name: &str, all: &[String]) -> String {
    let others: Vec<String> = all
        .iter()
        .filter(|other| *other != name)
        .map(|other| format!("\\fB{}\\fR(1)", other.replace('-', "\\-")))
        .collect();
    format!(".SH \"SEE ALSO\"\n{}\n", others.join(", "))
}

/// The examples of a command are the indented lines of its long help's
/// epilogue (`-h` may show fewer).
fn examples(cmd: &clap::Command) -> Option<String> {
    let after = cmd
        .get_after_long_help()
        .or_else(|| cmd.get_after_help())?
        .to_string();
    let (_, rest) = after.split_once("Examples:")?;
    let lines: Vec<&str> = rest
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::trim_start)
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// One example line as literal roff: `\e` for a backslash, `\-` for a
/// hyphen (so that it copies as the ASCII minus a shell needs), and `\&`
/// before a leading `.` or `'`, which roff would take for a request.
fn escape(line: &str) -> String {
    let escaped = line.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
