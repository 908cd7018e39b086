//! What `stuck` suggests on stderr after its tables: look before acting,
//! or, for a grouped scan, the batch workflow for its largest group.

use crate::model::next::{NextCommand, Subcommand};
use crate::model::stuck::{StuckGroup, StuckReport};
use crate::ui::output::Output;
use crate::ui::text::{command_lines, wrap};

/// The hint for the human on stderr.
pub fn hint(report: &StuckReport) -> Option<String> {
    // A scan that cannot vouch says what to do instead (`blind`).
    let vouched = report.cannot_vouch.is_none();
    (vouched && report.found_anything()).then(|| {
        format!(
            "Look before you act: `{}` shows the evidence; fail-safely decides the path again \
             under row locks and asks before it writes.",
            NextCommand::new(Subcommand::Diagnose).placeholder("deployment")
        )
    })
}

/// Up to this many stuck deployments, each gets its own next command on
/// the screen (a row and its command's lines each: one 24-line screen);
/// more get one batch command (README, "A big incident").
pub(super) const FEW: usize = 8;

/// The one batch command for many stuck deployments (README, "A big
/// incident"): the scan's JSON piped into fail-safely --from -, which
/// plans them all and asks once, on the terminal.
pub(super) fn many_lines(listing: &NextCommand, out: &Output) -> Vec<String> {
    let act = NextCommand::new(Subcommand::FailSafely)
        .option("--from", "-")
        .arg("--reason")
        .placeholder("ticket and reason");
    let mut lines = wrap(
        "next, for them all as one batch (one plan, asked once; each row's own command is in \
         -o json):",
        out.width,
        "  ",
        "    ",
    );
    let command = format!("{listing} -o json | {act}");
    lines.extend(
        command_lines(&command, out.command_room(4))
            .into_iter()
            .map(|l| format!("    {l}")),
    );
    lines
}

/// For a grouped scan, the batch workflow (README, "A big incident"): save
/// the largest group's list, then plan it with fail-safely --from; each
/// command on lines of its own, never split.
pub(super) fn batch_hint(group: &StuckGroup, out: &Output) -> String {
    let file = if group
        .key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        format!("{}.json", group.key)
    } else {
        "group.json".to_string()
    };
    let plan = NextCommand::new(Subcommand::FailSafely)
        .option("--from", &file)
        .arg("--reason")
        .placeholder("ticket and reason")
        .arg("--dry-run");
    let mut lines = wrap(
        "To act on a group, save its list and plan it as one batch:",
        out.width,
        "",
        "  ",
    );
    let save = format!("{} -o json > {file}", group.next_command);
    for command in [save, plan.to_string()] {
        lines.extend(
            command_lines(&command, out.command_room(2))
                .into_iter()
                .map(|l| format!("  {l}")),
        );
    }
    lines.extend(wrap(
        "Without --dry-run it asks once, for the count, then writes each in its own guarded \
         transaction.",
        out.width,
        "",
        "  ",
    ));
    lines.join("\n")
}
