//! A plan file is anyone's text: escape sequences, C1 controls and bidi
//! overrides planted in its `plan_id`, `target.address` and a
//! `left_out[].result` reach the approver's screen made visible. Only the
//! tool's own colours are escape sequences, and with `--color never` there
//! is none at all (README, "Output and exit codes": the character rules).

use super::*;

/// Conceal, black on black, a screen clear by C1 CSI, a right-to-left
/// override, an OSC title, a C1 next-line.
const HIDE: &str = "\u{1b}[8m\u{1b}[30;40m\u{9b}2J\u{202e}\u{1b}]0;t\u{7}\u{85}";

/// Characters that must never reach the approver as themselves.
const RAW: &[char] = &['\u{9b}', '\u{202e}', '\u{7}', '\u{85}'];

/// The plan for d0000001 with [`HIDE`] planted in the fields.
fn hostile_plan(db: &TestDb) -> PlanFile {
    let (plan, _) = make_plan(db, &["d0000001"], &[]);
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&plan.path).unwrap()).unwrap();
    doc["target"]["transport"] = "tcp".into();
    doc["target"]["socket"] = Value::Null;
    doc["target"]["address"] = format!("10.0.0.1{HIDE}").into();
    doc["target"]["host"] = format!("db{HIDE}").into();
    doc["left_out"] = serde_json::json!([{
        "deployment": format!("d0000009{HIDE}"),
        "result": format!("refused{HIDE}"),
        "why": format!("because{HIDE}"),
    }]);
    // A file-only plan is held to its hash: the planter recomputes it (as
    // README, "Two-person break-glass", says a file-only plan allows), so
    // that the planted text reaches the approver's screen.
    let parsed: pushleft_controller::model::plan::Plan = serde_json::from_value({
        let mut d = doc.clone();
        d.as_object_mut().unwrap().remove("schema_version");
        d
    })
    .unwrap();
    doc["plan_id"] = pushleft_controller::decide::approval::file_plan_id(&parsed)
        .unwrap()
        .into();
    std::fs::write(&plan.path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    plan
}

#[test]
fn a_planted_plan_id_is_refused_with_its_text_made_visible() {
    let db = TestDb::scenarios();
    let (plan, _) = make_plan(&db, &["d0000001"], &[]);
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&plan.path).unwrap()).unwrap();
    doc["plan_id"] = format!("plan-{HIDE}").into();
    std::fs::write(&plan.path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let run = db.run(&[
        "fail-safely",
        "--apply",
        plan.arg(),
        "--yes",
        "--color",
        "never",
    ]);
    run.assert_code(4);
    only_our_colours("stderr", &run.stderr, false);
}

/// Every escape sequence in `text` is a colour of ours (`ESC [ digits ;
/// m`), none is a planted one, and nothing else raw is there.
#[track_caller]
fn only_our_colours(label: &str, text: &str, colors: bool) {
    let raw: Vec<char> = text.chars().filter(|c| RAW.contains(c)).collect();
    assert!(raw.is_empty(), "{label}: {raw:?} raw in {text:?}");
    if !colors {
        assert!(!text.contains('\u{1b}'), "{label}: an ESC in {text:?}");
        return;
    }
    assert!(!text.contains("\u{1b}[8m") && !text.contains("\u{1b}[30;40m"));
    for (at, _) in text.match_indices('\u{1b}') {
        let rest = &text[at + 1..];
        let sgr = rest.strip_prefix('[').and_then(|r| {
            let end = r.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            r[end..].starts_with('m').then_some(())
        });
        assert!(sgr.is_some(), "{label}: not a colour at {at}: {text:?}");
    }
}

#[test]
fn planted_sequences_reach_the_batch_report_made_visible() {
    for (color, on) in [("never", false), ("always", true)] {
        let db = TestDb::scenarios();
        let plan = hostile_plan(&db);
        let run = db.run(&[
            "fail-safely",
            "--apply",
            plan.arg(),
            "--yes",
            "--color",
            color,
        ]);
        run.assert_code(0);
        only_our_colours("stdout", &run.stdout, on);
        only_our_colours("stderr", &run.stderr, on);
        // The report names where it wrote (this session's target), not the
        // file's planted address.
        assert!(run.stdout.contains("d0000001  applied"), "{}", run.stdout);
    }
}

#[test]
fn planted_sequences_reach_the_confirmation_screen_made_visible() {
    for (color, on) in [("never", false), ("always", true)] {
        let db = TestDb::scenarios();
        let plan = hostile_plan(&db);
        let before = db.dump();
        let mut cmd = crate::support::bin();
        cmd.env("DATABASE_URL", &db.conninfo)
            .env("TERM", "dumb")
            .stdin(std::process::Stdio::inherit())
            .args(["fail-safely", "--apply", plan.arg(), "--color", color]);
        let mut session = rexpect::session::spawn_command(cmd, Some(20_000)).unwrap();
        // Everything the approver reads before the question.
        let screen = session
            .exp_string("Type the deployment's short id")
            .unwrap();
        only_our_colours("the confirmation screen", &screen, on);
        for shown in [
            "10.0.0.1\\u{1b}[8m",
            "left out (refused\\u{1b}[8m\\u{1b}[30;40m\\u{9b}2J\\u{202e}",
        ] {
            assert!(screen.contains(shown), "{shown}: {screen}");
        }
        session.send_line("no").unwrap();
        let _ = session.exp_eof();
        let status = format!("{:?}", session.process().wait().unwrap());
        assert!(status.contains(", 4)"), "{status}");
        assert_eq!(db.dump(), before, "nothing was written");
    }
}
