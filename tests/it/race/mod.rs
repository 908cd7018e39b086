//! `fail-safely` against a dispatcher that dispatches the deployment while
//! the tool runs, under every isolation level a session can be given
//! without the tool asking for it: the server default, `ALTER DATABASE …
//! SET default_transaction_isolation` (repeatable read, serializable), and
//! `PGOPTIONS` in the tool's environment. The verdict is the server's
//! commit order (`track_commit_timestamp`): an `operator_failed` event
//! committed after a dispatch committed is a wrong write — the deployment
//! was failed although something had been dispatched.
//!
//! `PUSHLEFT_RACE_SEED=N` replays the draws of a run (the seed is printed;
//! the delays scale with the tool's run time as measured then);
//! `PUSHLEFT_RACE_ROUNDS=N` changes the rounds per configuration (100).

mod round;
mod server;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use round::{Dispatch, Outcome, Plan};

#[derive(Debug, Clone, Copy)]
enum Config {
    ServerDefault,
    DatabaseRepeatableRead,
    DatabaseSerializable,
    PgOptionsRepeatableRead,
}

const CONFIGS: [Config; 4] = [
    Config::ServerDefault,
    Config::DatabaseRepeatableRead,
    Config::DatabaseSerializable,
    Config::PgOptionsRepeatableRead,
];

impl Config {
    fn label(self) -> &'static str {
        match self {
            Config::ServerDefault => "server default (read committed)",
            Config::DatabaseRepeatableRead => "repeatable read (database default)",
            Config::DatabaseSerializable => "serializable (database default)",
            Config::PgOptionsRepeatableRead => "repeatable read (PGOPTIONS)",
        }
    }

    fn database(self) -> &'static str {
        match self {
            Config::ServerDefault => "server_default",
            Config::DatabaseRepeatableRead => "db_repeatable_read",
            Config::DatabaseSerializable => "db_serializable",
            Config::PgOptionsRepeatableRead => "pgoptions_repeatable_read",
        }
    }

    /// The `ALTER DATABASE … SET` of this configuration.
    fn alter(self) -> Option<&'static str> {
        match self {
            Config::DatabaseRepeatableRead => {
                Some("default_transaction_isolation = 'repeatable read'")
            }
            Config::DatabaseSerializable => Some("default_transaction_isolation = 'serializable'"),
            _ => None,
        }
    }

    /// The tool's PGOPTIONS, exactly as libpq takes it (a backslash keeps
    /// the space in the value).
    fn pgoptions(self) -> Option<&'static str> {
        match self {
            Config::PgOptionsRepeatableRead => {
                Some(r"-c default_transaction_isolation=repeatable\ read")
            }
            _ => None,
        }
    }

    /// What a plain session on the configured database runs with.
    fn session_default(self) -> &'static str {
        match self {
            Config::DatabaseRepeatableRead => "repeatable read",
            Config::DatabaseSerializable => "serializable",
            _ => "read committed",
        }
    }
}

/// xorshift64*: the plans need no more, and the seed replays them.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0; the bias is irrelevant here).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in `[0, 1)`.
    fn fraction(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

/// The counts of one configuration.
#[derive(Debug, Default)]
struct Tally {
    rounds: usize,
    inserts: usize,
    leases: usize,
    dispatch_first: usize,
    /// Dispatch first, committed after the tool's (last) transaction began.
    inside: usize,
    /// Dispatch first, and the tool's backend was waiting for its lock.
    waited: usize,
    tool_first: usize,
    operator_failed: usize,
    teardown_requested: usize,
    refused: usize,
    dispatch_retries: usize,
    codes: BTreeMap<i32, usize>,
    wrong_writes: Vec<String>,
    /// Exit codes other than 0, 4, 5, and results that contradict each
    /// other: the test itself is wrong, or the tool is in a new way.
    unexpected: Vec<String>,
}

impl Tally {
    fn add(&mut self, plan: &Plan, outcome: &Outcome) {
        self.rounds += 1;
        match plan.dispatch {
            Dispatch::InsertTargeted => self.inserts += 1,
            Dispatch::LeaseQueued => self.leases += 1,
        }
        self.dispatch_retries += outcome.dispatch_attempts as usize - 1;
        *self.codes.entry(outcome.code).or_default() += 1;
        let what = format!(
            "round {} ({:?}, dispatch {} µs after spawning, held {} ms): exit {}",
            plan.n,
            plan.dispatch,
            plan.delay.as_micros(),
            plan.hold_ms,
            outcome.code
        );
        if !matches!(outcome.code, 0 | 4 | 5) {
            self.unexpected
                .push(format!("{what}, stderr:\n{}", outcome.stderr));
        }
        let Some((kind, event_at, tool_began)) = &outcome.event else {
            self.refused += 1;
            if outcome.code == 0 {
                self.unexpected
                    .push(format!("{what} but no operator event"));
            }
            return;
        };
        self.check_consistent(&what, kind, *event_at, outcome);
        let tool_first = *event_at < outcome.dispatched_at;
        match kind.as_str() {
            "operator_failed" => self.operator_failed += 1,
            _ => self.teardown_requested += 1,
        }
        if tool_first {
            self.tool_first += 1;
            if kind != "operator_failed" {
                self.unexpected.push(format!(
                    "{what}: {kind} committed before anything was dispatched"
                ));
            }
        } else {
            self.dispatch_first += 1;
            self.inside += usize::from(*tool_began < outcome.dispatched_at);
            self.waited += usize::from(outcome.tool_waited);
            if kind == "operator_failed" {
                self.wrong_writes.push(format!(
                    "{what}: operator_failed committed at {event_at}, after the dispatch committed \
                     at {} (the tool waited for it: {})",
                    outcome.dispatched_at, outcome.tool_waited
                ));
            }
        }
    }

    /// The exit code, the JSON, the event and the deployments row agree.
    fn check_consistent(
        &mut self,
        what: &str,
        kind: &str,
        event_at: chrono::DateTime<chrono::Utc>,
        outcome: &Outcome,
    ) {
        let (status, deployment_at) = &outcome.deployment;
        let expected_status = match kind {
            "operator_failed" => "failed",
            _ => "teardown_queued",
        };
        if outcome.code != 0
            || outcome.json_path.as_deref() != Some(kind)
            || status != expected_status
            || *deployment_at != event_at
        {
            self.unexpected.push(format!(
                "{what}: event {kind} at {event_at}, JSON path {:?}, deployment {status} at \
                 {deployment_at}; stderr:\n{}",
                outcome.json_path, outcome.stderr
            ));
        }
    }

    fn line(&self, config: Config, spreads: (u128, u128)) -> String {
        let codes: Vec<String> = self.codes.iter().map(|(c, n)| format!("{c}×{n}")).collect();
        format!(
            "race {}: {} rounds ({} insert, {} lease), dispatch first {} (inside the tool's \
             transaction {}, the tool waiting for it {}), tool first {}, operator_failed {}, teardown_requested {}, refused {}, wrong \
             writes {}; exit codes {}, dispatch retries {}; the tool's run time (median of the last 9) \
             {}–{} ms: dispatched 0–1× that after spawning, held 2 ms–½× that",
            config.label(),
            self.rounds,
            self.inserts,
            self.leases,
            self.dispatch_first,
            self.inside,
            self.waited,
            self.tool_first,
            self.operator_failed,
            self.teardown_requested,
            self.refused,
            self.wrong_writes.len(),
            codes.join(" "),
            self.dispatch_retries,
            spreads.0,
            spreads.1,
        )
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Runs `rounds` rounds of `config` on a database of its own.
fn race(server: &server::RaceServer, config: Config, seed: u64, rounds: usize) -> (String, Tally) {
    let db = server.database(config.database(), config.alter());
    let mut setup = db.client();
    let mut dispatcher = db.client();
    let isolation: String = setup
        .query_one("SHOW default_transaction_isolation", &[])
        .expect("SHOW default_transaction_isolation")
        .get(0);
    assert_eq!(isolation, config.session_default(), "{}", config.label());
    let (mut recent, warm_up) = round::warm_up(&db, &mut setup, config.pgoptions());
    let mut rng = Rng::new(seed ^ (config as u64 + 1));
    let mut tally = Tally::default();
    let mut spreads = (u128::MAX, 0);
    for n in 1..=rounds {
        // Over the whole of the tool's run as it is now (the machine's load
        // changes): early enough that the tool finds the dispatch's locks,
        // late enough that it is sometimes done first; held long enough,
        // often enough, that the tool's lock wait overlaps it.
        let typical = median(&recent);
        spreads = (
            spreads.0.min(typical.as_millis()),
            spreads.1.max(typical.as_millis()),
        );
        let max_hold = (typical.as_millis() as u64 / 2).max(10);
        let plan = Plan {
            n,
            dispatch: if rng.below(2) == 0 {
                Dispatch::InsertTargeted
            } else {
                Dispatch::LeaseQueued
            },
            delay: typical.mul_f64(rng.fraction()),
            hold_ms: 2 + (rng.fraction() * (max_hold - 2) as f64) as u32,
            build: rng.below(2) == 0,
        };
        let outcome = round::run(&db, &mut setup, &mut dispatcher, &plan, config.pgoptions());
        recent.push(outcome.tool_time);
        if recent.len() > 9 {
            recent.remove(0);
        }
        tally.add(&plan, &outcome);
    }
    let line = format!(
        "{}; warm-up exit codes {warm_up:?}",
        tally.line(config, spreads)
    );
    (line, tally)
}

#[test]
fn fail_safely_never_fails_a_deployment_dispatched_while_it_waited() {
    let server = match server::start() {
        Ok(server) => server,
        Err(why) => {
            eprintln!("SKIPPED: {why}");
            return;
        }
    };
    let seed = env_number("PUSHLEFT_RACE_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let rounds = env_number("PUSHLEFT_RACE_ROUNDS").unwrap_or(100) as usize;
    eprintln!("race seed {seed} (PUSHLEFT_RACE_SEED={seed} replays the draws)");
    let started = Instant::now();
    let results: Vec<(Config, String, Tally)> = std::thread::scope(|scope| {
        let handles: Vec<_> = CONFIGS
            .iter()
            .map(|&config| {
                let server = &server;
                scope.spawn(move || {
                    let (line, tally) = race(server, config, seed, rounds);
                    eprintln!("{line}");
                    (config, line, tally)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a race thread"))
            .collect()
    });
    eprintln!(
        "race: {} configurations in {:.1?}",
        results.len(),
        started.elapsed()
    );
    assert_verdicts(&results, rounds);
}

/// Zero wrong writes, nothing unexpected, and the race really ran: in each
/// configuration some dispatches committed while the tool waited for them,
/// and some rounds the tool committed first.
fn assert_verdicts(results: &[(Config, String, Tally)], rounds: usize) {
    let floor = (rounds / 10).max(1);
    let mut failures = String::new();
    for (config, line, tally) in results {
        let label = config.label();
        for problem in tally.unexpected.iter().take(3) {
            let _ = writeln!(failures, "{label}: unexpected: {problem}");
        }
        if !tally.wrong_writes.is_empty() {
            let _ = writeln!(
                failures,
                "{label}: {} WRONG WRITES in {} rounds (operator_failed on a dispatched \
                 deployment), e.g.:\n  {}",
                tally.wrong_writes.len(),
                tally.rounds,
                tally
                    .wrong_writes
                    .iter()
                    .take(3)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n  ")
            );
        }
        if tally.waited < floor || tally.tool_first < floor {
            let _ = writeln!(
                failures,
                "{label}: the race was not exercised (want at least {floor} rounds each where \
                 the tool waited for a dispatch that committed first and where the tool \
                 committed first): {line}"
            );
        }
    }
    assert!(failures.is_empty(), "{failures}");
}
