use super::*;

#[test]
fn wraps_at_spaces_and_keeps_quoted_commands_whole() {
    let text = "lost the connection; rerun `pushleft-controller wait d0000007-0000-4000-8000-000000000007` when it is up";
    let lines = wrap(text, 80, "error: ", "  ");
    assert!(lines.iter().all(|l| width_of(l) <= 80), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("`pushleft-controller wait d0000007-0000-4000-8000-000000000007`")),
        "{lines:#?}"
    );
    let narrow = wrap(text, 40, "", "  ");
    assert!(
        narrow
            .iter()
            .any(|l| l.contains("`pushleft-controller wait d0000007`")),
        "{narrow:#?}"
    );
}

#[test]
fn commands_shorten_their_ids_only_when_they_must() {
    let cmd = "pushleft-controller diagnose d0000002-0000-4000-8000-000000000002";
    assert_eq!(fit_command(cmd, 80), cmd);
    assert_eq!(
        fit_command(cmd, 60),
        "pushleft-controller diagnose d0000002"
    );
}

#[test]
fn times_are_absolute_next_to_their_age() {
    let now = DateTime::parse_from_rfc3339("2026-11-29T03:57:00Z")
        .unwrap()
        .to_utc();
    let at = DateTime::parse_from_rfc3339("2026-11-29T03:12:30Z")
        .unwrap()
        .to_utc();
    assert_eq!(when(at, now), "44m ago · 2026-11-29 03:12Z");
}

#[test]
fn a_command_too_wide_is_continued_between_arguments_never_inside_one() {
    let command = "pushleft-controller fail-safely d0000003-0000-4000-8000-000000000003 --reason \"<ticket and reason>\"";
    assert_eq!(
        command_lines(command, 120),
        vec![command.to_string()],
        "whole when it fits"
    );
    assert_eq!(
        command_lines(command, 75),
        vec!["pushleft-controller fail-safely d0000003 --reason \"<ticket and reason>\""],
        "the short id first"
    );
    let lines = command_lines(command, 56);
    assert_eq!(
        lines,
        vec![
            "pushleft-controller fail-safely d0000003 \\",
            "  --reason \"<ticket and reason>\"",
        ]
    );
    assert!(lines.iter().all(|l| width_of(l) <= 56));
}

#[test]
fn free_text_is_cut_between_words_only() {
    assert_eq!(
        cut_at_word("health check timed out", 22),
        "health check timed out"
    );
    assert_eq!(
        cut_at_word("health check timed out after 30s", 20),
        "health check timed…"
    );
    assert_eq!(
        cut_at_word("{\"error\":\"health check\"}", 17),
        "{\"error\":\"health…"
    );
    assert_eq!(cut_at_word("— (no audit: by hand)", 18), "— (no audit: by…");
    assert_eq!(cut_at_word("reclaimed", 5), "…");
}

#[test]
fn a_word_wider_than_a_line_breaks_between_its_parts() {
    let lines = wrap(
        "host /tmp/pushleft-pg-6suIrH:5432/sandbox as postgres",
        24,
        "",
        "",
    );
    assert_eq!(
        lines,
        vec![
            "host /tmp/",
            "pushleft-pg-6suIrH:5432/",
            "sandbox as postgres"
        ]
    );
    let lines = wrap(
        "statement_timeout=30s,idle_in_transaction_session_timeout=1min",
        40,
        "",
        "",
    );
    assert!(lines.iter().all(|l| width_of(l) <= 40), "{lines:#?}");
    assert_eq!(lines[1], "idle_in_transaction_session_timeout=1min");
}

#[test]
fn the_last_net_wraps_prose_and_continues_a_command_between_arguments() {
    let summary = "41 deployments: 0 applied, 0 already done, 0 refused, 0 failed, 0 not run (41 planned; dry run, nothing written)";
    let lines: Vec<String> = fitted(summary, 80).lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        vec![
            "41 deployments: 0 applied, 0 already done, 0 refused, 0 failed, 0 not run (41",
            "  planned; dry run, nothing written)",
        ]
    );
    let next =
        "Next: pushleft-controller fail-safely --from edge-07.json --reason 'INC-7 edge-07 died'";
    assert_eq!(
        fitted(next, 60),
        "Next: pushleft-controller fail-safely --from edge-07.json \\\n        --reason 'INC-7 edge-07 died'"
    );
    assert_eq!(fitted("fits", 60), "fits");
}

#[test]
fn a_time_never_breaks_at_its_blank() {
    let lines = wrap(
        "deployment d0000002 · teardown_queued · read at 2026-12-02 02:21:01Z",
        52,
        "",
        "  ",
    );
    assert_eq!(
        lines,
        vec![
            "deployment d0000002 · teardown_queued · read at",
            "  2026-12-02 02:21:01Z"
        ]
    );
}
