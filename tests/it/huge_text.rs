//! Text without bound (pushleft-controller-diagnose(1), HUGE TEXT): a 50 MB last error, event
//! payload and agent output, planted the way an agent would write them,
//! are read cut with their whole length everywhere, and whole by
//! `diagnose --full-text`; every run of the real binary stays under 50 MB
//! of peak RSS, and nothing in the tables changes.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::{Run, TestDb, scenario};

/// The most a run may take at its peak: the tool's memory budget (README,
/// "Performance").
const PEAK_RSS_KIB: i64 = 50 * 1024;

const JOB: &str = "b0000002-0000-4000-8000-000000000002";
const NODE: &str = "a0000003-0000-4000-8000-000000000003";
const RESULT: &str = "f0000099-0000-4000-8000-000000000099";

/// The values planted: 50 MiB of ASCII; an event's payload of 3-byte
/// characters (a 1 MiB piece of it ends inside one); an output of 2-byte
/// ones.
fn last_error() -> String {
    "e".repeat(50 << 20)
}

fn payload() -> String {
    format!("{{\"stderr\": \"{}\"}}", "€".repeat((50 << 20) / 3 + 1))
}

fn output() -> String {
    format!("{{\"stderr\": \"{}\"}}", "ö".repeat(25 << 20))
}

/// A role that may do what an agent does here and nothing else: report
/// on its job, append an event. Its connection string.
fn agent_role(db: &TestDb) -> String {
    let role = format!("agent_{}", db.name);
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {role} LOGIN;
             GRANT USAGE ON SCHEMA public TO {role};
             GRANT SELECT (id), UPDATE (payload, status, attempt) ON jobs TO {role};
             GRANT INSERT ON agent_job_results, deployment_events TO {role};"
        ))
        .expect("creating the agent's role");
    format!("{} user={role}", db.conninfo)
}

fn drop_agent_role(db: &TestDb) {
    let role = format!("agent_{}", db.name);
    let _ = db.client().batch_execute(&format!(
        "DROP OWNED BY {role} CASCADE; DROP ROLE IF EXISTS {role}"
    ));
}

/// Deployment 2's build job fails for good with a 50 MB error, its agent
/// reports 50 MB of output, and an event 50 minutes old (it stays stuck)
/// carries 50 MB.
fn plant(db: &TestDb) {
    let mut agent =
        postgres::Client::connect(&agent_role(db), postgres::NoTls).expect("connecting as agent");
    agent
        .batch_execute(&format!(
            "UPDATE public.jobs
                SET payload = jsonb_build_object('last_error', repeat('e', {error})),
                    status = 'failed', attempt = 3
              WHERE id = '{JOB}';
             INSERT INTO public.agent_job_results
                    (id, job_id, node_id, attempt, lease_token, outcome, output, reported_at)
             VALUES ('{RESULT}', '{JOB}', '{NODE}', 3, gen_random_uuid(), 'failed',
                     jsonb_build_object('stderr', repeat('ö', {output}),
                                        'log', repeat('l', 1000)),
                     now() - interval '51 minutes');
             INSERT INTO public.deployment_events
                    (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
             VALUES (5, gen_random_uuid(), 'c0000001-0000-4000-8000-000000000001',
                     '{deployment}', 'build_log',
                     jsonb_build_object('stderr', repeat('€', {payload}),
                                        'log', repeat('l', 1000)),
                     now() - interval '50 minutes');",
            error = 50 << 20,
            output = 25 << 20,
            payload = (50 << 20) / 3 + 1,
            deployment = scenario(2),
        ))
        .expect("planting the huge text as the agent");
}

/// GNU time, which reports the peak RSS of the binary it runs.
const GNU_TIME: &str = "/usr/bin/time";

/// Runs the binary (no shell in between) and measures its peak RSS in
/// KiB. A child's `ru_maxrss` is at least its parent's own peak when it
/// was spawned (Linux carries the peak of the memory a vfork child starts
/// in across exec), and this test process holds hundreds of megabytes: so
/// GNU time, small itself, forks the binary and reports the binary's own
/// peak. Without it, wait4's figure is used where it still proves the
/// bound: at most the budget, or more than our own peak.
fn measured(binary: Command) -> (Run, i64) {
    if Path::new(GNU_TIME).exists() {
        let report = tempfile::NamedTempFile::new().expect("a file for GNU time's report");
        let mut cmd = Command::new(GNU_TIME);
        cmd.arg("-v")
            .arg("-o")
            .arg(report.path())
            .arg(binary.get_program());
        cmd.args(binary.get_args());
        for (key, value) in binary.get_envs() {
            match value {
                Some(value) => cmd.env(key, value),
                None => cmd.env_remove(key),
            };
        }
        let (run, _) = reaped(cmd);
        let text = std::fs::read_to_string(report.path()).expect("GNU time's report");
        let rss = text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Maximum resident set size (kbytes): ")
            })
            .and_then(|kib| kib.trim().parse().ok())
            .unwrap_or_else(|| panic!("no peak RSS in GNU time's report:\n{text}"));
        return (run, rss);
    }
    let (run, rss) = reaped(binary);
    // SAFETY: rusage is plain data, filled in by getrusage.
    let mut own: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut own) };
    assert!(
        rss <= PEAK_RSS_KIB || rss > own.ru_maxrss,
        "wait4 says {rss} KiB, no more than this test's own peak ({} KiB): only GNU time \
         ({GNU_TIME}, Debian's package `time`) can tell the binary's own",
        own.ru_maxrss
    );
    (run, rss)
}

/// Runs `cmd`, collects its output, and reaps it with wait4: its exit
/// code and `ru_maxrss` (KiB).
fn reaped(mut cmd: Command) -> (Run, i64) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting the binary");
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("reading a pipe");
            bytes
        })
    };
    let stdout = reader(Box::new(child.stdout.take().expect("stdout")));
    let stderr = reader(Box::new(child.stderr.take().expect("stderr")));
    let (status, usage) = wait4(child);
    let run = Run {
        code: if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -1
        },
        stdout: String::from_utf8_lossy(&stdout.join().expect("stdout")).into_owned(),
        stderr: String::from_utf8_lossy(&stderr.join().expect("stderr")).into_owned(),
    };
    (run, usage.ru_maxrss)
}

/// Reaps `child` with wait4 (not `Child::wait`, which gives no rusage):
/// its wait status and its resource usage.
fn wait4(child: std::process::Child) -> (libc::c_int, libc::rusage) {
    let mut status = 0;
    // SAFETY: rusage is plain data; the pid is our child's, not reaped yet.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4");
    (status, usage)
}

/// Runs the binary on `db` with `args`, measured: exit 0 within the
/// memory budget.
fn run(db: &TestDb, args: &[&str]) -> Run {
    let mut cmd = db.cmd();
    cmd.args(args);
    let (run, rss) = measured(cmd);
    assert!(
        rss <= PEAK_RSS_KIB,
        "{args:?} peaked at {rss} KiB (at most {PEAK_RSS_KIB})"
    );
    assert_eq!(run.code, 0, "{args:?}: {}", head(&run.stderr));
    run
}

/// The lines of `--full-text` under the head that starts with `head`,
/// without their indent, joined.
fn value_under<'t>(full: &'t str, head: &str) -> Vec<&'t str> {
    let mut lines = full.lines().skip_while(|l| !l.starts_with(head));
    assert!(lines.next().is_some(), "no head {head}");
    lines
        .take_while(|l| !l.is_empty() && !l.starts_with("==>"))
        .map(|l| l.strip_prefix("  ").expect("an indented line"))
        .collect()
}

#[test]
fn fifty_megabytes_of_text_are_read_cut_said_so_and_streamed_whole_within_50_mb() {
    let db = TestDb::scenarios();
    plant(&db);
    let before = db.dump();
    let (error, payload, output) = (last_error(), payload(), output());

    let table = run(&db, &["diagnose", &scenario(2), "-o", "table"]);
    for line in [
        "(job b0000002 cut: 52,428,800 bytes in all; diagnose --full-text shows it)",
        &format!("(event 5 cut: {} bytes in all;", grouped(payload.len())),
        &format!(
            "(result f0000099 cut: {} bytes in all;",
            grouped(output.len())
        ),
    ] {
        assert!(table.stdout.contains(line), "{line}\n{}", table.stdout);
    }
    assert!(table.stdout.len() < 100_000, "{} bytes", table.stdout.len());

    let json = run(&db, &["diagnose", &scenario(2), "-o", "json"]).json();
    let job = &json["jobs"][0];
    assert_eq!(job["last_error"].as_str().unwrap(), &error[..4096]);
    assert_eq!(job["last_error_length"], 50 << 20);
    assert_eq!(job["last_error_cut"], true);
    let event = &json["events"][4];
    assert_eq!(event["payload_length"], payload.len());
    assert_eq!(event["payload_cut"], true);
    let shown: String = payload.chars().take(4096).collect();
    assert_eq!(event["payload"].as_str().unwrap(), shown);
    assert_eq!(json["events"][0]["payload_cut"], false);
    assert!(json["events"][0]["payload"].is_object());
    let result = &json["results"][0];
    assert_eq!(result["output_length"], output.len());
    assert_eq!(result["output_cut"], true);

    let args = ["fail-safely", &scenario(2), "--reason", "INC-7 huge text"];
    let plan = run(&db, &[&args[..], &["--dry-run", "-o", "table"]].concat());
    let said = "out of attempts (3/3); last error (cut: 52,428,800 bytes in all; \
                diagnose --full-text shows it)";
    let both = format!("{}{}", plan.stdout, plan.stderr).replace("\n    ", " ");
    assert!(both.contains(said), "{}", head(&both));
    let plan = run(&db, &[&args[..], &["--dry-run", "-o", "json"]].concat()).json();
    let plan = plan.to_string();
    assert!(plan.contains(said), "{}", head(&plan));

    let full = run(&db, &["diagnose", &scenario(2), "--full-text"]);
    let whole = |head: &str, value: &str| {
        let lines = value_under(&full.stdout, head);
        assert_eq!(lines.len(), 1, "{head}: one line");
        assert_eq!(lines[0].len(), value.len(), "{head}");
        assert!(lines[0] == value, "{head}: not the value planted");
    };
    whole(
        &format!("==> job {JOB} last_error, 52,428,800 bytes <=="),
        &error,
    );
    whole("==> event #5 ", &payload);
    whole(
        &format!("==> result {RESULT} output (without log), "),
        &output,
    );
    assert!(!full.stdout.contains("lll"), "a log key was read");

    // Compared, not printed: they hold 150 MB.
    assert!(db.dump() == before, "the tables changed");
    drop_agent_role(&db);
}

/// The start of a long text, for a message.
fn head(text: &str) -> String {
    text.chars().take(3000).collect()
}

/// `52428800` as the tool writes it, `52,428,800`.
fn grouped(n: usize) -> String {
    pushleft_controller::model::cut::grouped(n as i64)
}

/// A reason typed into an event by hand has no bound either: `history`
/// reads it cut, says so under its table and in JSON.
#[test]
fn a_huge_reason_typed_by_hand_is_read_cut_by_history() {
    let db = TestDb::scenarios();
    let size = 20 << 20;
    db.client()
        .batch_execute(&format!(
            "INSERT INTO deployment_events
                    (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
             SELECT max(sequence) + 1, gen_random_uuid(), 'c0000001-0000-4000-8000-000000000001',
                    deployment_id, 'operator_failed',
                    jsonb_build_object('reason', repeat('r', {size})), now()
             FROM deployment_events WHERE deployment_id = '{}' GROUP BY deployment_id",
            scenario(3)
        ))
        .expect("typing an operator's event by hand");
    let sequence: i64 = db
        .client()
        .query_one(
            "SELECT max(sequence) FROM deployment_events WHERE deployment_id = $1::text::uuid",
            &[&scenario(3)],
        )
        .expect("the event's sequence")
        .get(0);
    let table = run(&db, &["history", "-o", "table"]);
    assert!(
        table.stdout.contains(&format!(
            "(d0000003 #{} cut: {} bytes in all; diagnose --full-text shows it)",
            sequence,
            grouped(size)
        )),
        "{}",
        head(&table.stdout)
    );
    let json = run(&db, &["history", "-o", "json"]).json();
    let action = &json["actions"][0];
    assert_eq!(action["reason"].as_str().map(str::len), Some(4096));
    assert_eq!(action["reason_length"], size);
    assert_eq!(action["reason_cut"], true);
    assert_eq!(json["actions"][1]["reason_cut"], false);
}
