//! Which triggers the tool can vouch for (README, "The database it talks
//! to": the protecting triggers, and those on the written tables that step
//! 6 of "fail-safely, step by step" checks), pure: given the rows of
//! `pg_trigger` (with their functions) the database shows.
//!
//! - A **protecting** trigger (BEFORE DELETE on `jobs`, …) must be enabled,
//!   fire BEFORE the operation it protects, and really refuse: its function
//!   must be PL/pgSQL whose first statement raises an error that nothing in
//!   it catches. A no-op with the right name protects nothing.
//! - On `deployments` and `deployment_events`, the two tables fail-safely
//!   writes, every trigger and rule runs inside its transaction, as its
//!   user, where tuple counters cannot see a TRUNCATE, DDL, a sequence or
//!   another database. Only three kinds are vouched for: those the system
//!   makes itself (foreign keys: internal, with a built-in function), the
//!   reference schema's own protecting triggers (checked as above), and
//!   the names a team lists in `PUSHLEFT_ALLOWED_TRIGGERS`.

use serde::Serialize;

use crate::model::text::escaped;

/// The operation a trigger fires on, with its bit in `pg_trigger.tgtype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Operation {
    Insert,
    Delete,
    Update,
    Truncate,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Insert => "INSERT",
            Operation::Delete => "DELETE",
            Operation::Update => "UPDATE",
            Operation::Truncate => "TRUNCATE",
        }
    }

    fn bit(self) -> i32 {
        match self {
            Operation::Insert => 1 << 2,
            Operation::Delete => 1 << 3,
            Operation::Update => 1 << 4,
            Operation::Truncate => 1 << 5,
        }
    }

    const ALL: [Operation; 4] = [
        Operation::Insert,
        Operation::Update,
        Operation::Delete,
        Operation::Truncate,
    ];
}

/// One row of `pg_trigger` on a relation of a table's partition (or
/// inheritance) tree, with its function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trigger {
    /// The relation it is on (the table itself, or one of its partitions).
    pub relation: String,
    pub name: String,
    /// `pg_trigger.tgenabled`: O (origin and local), A (always),
    /// R (replica only), D (disabled).
    pub enabled: String,
    /// `pg_trigger.tgtype`.
    pub tgtype: i32,
    /// Made by the system (a foreign key, a deferrable unique key).
    pub internal: bool,
    /// A constraint trigger (deferrable ones fire at COMMIT unless told
    /// otherwise).
    pub constraint: bool,
    /// `oid::regprocedure`, e.g. `public.refuse_audit_change()`.
    pub function: String,
    /// The function lives in pg_catalog.
    pub builtin: bool,
    pub language: String,
    pub source: String,
}

impl Trigger {
    fn row_level(&self) -> bool {
        self.tgtype & 1 != 0
    }

    fn before(&self) -> bool {
        self.tgtype & (1 << 1) != 0 && self.tgtype & (1 << 6) == 0
    }

    fn instead(&self) -> bool {
        self.tgtype & (1 << 6) != 0
    }

    /// Fires on `operation`.
    pub fn on(&self, operation: Operation) -> bool {
        self.tgtype & operation.bit() != 0
    }

    /// Fires in a session with `session_replication_role = origin` (the
    /// only one the tool works in).
    pub fn fires(&self) -> bool {
        matches!(self.enabled.as_str(), "O" | "A")
    }

    /// `BEFORE UPDATE OR DELETE, FOR EACH ROW`, as CREATE TRIGGER says it.
    pub fn timing(&self) -> String {
        let when = if self.instead() {
            "INSTEAD OF"
        } else if self.before() {
            "BEFORE"
        } else {
            "AFTER"
        };
        let events: Vec<&str> = Operation::ALL
            .iter()
            .filter(|op| self.on(**op))
            .map(|op| op.as_str())
            .collect();
        let level = if self.row_level() { "ROW" } else { "STATEMENT" };
        let deferred = if self.constraint && !self.internal {
            ", a constraint trigger"
        } else {
            ""
        };
        format!("{when} {}, FOR EACH {level}{deferred}", events.join(" OR "))
    }

    /// The trigger in words, for messages: `trigger x on deployments
    /// (AFTER UPDATE, FOR EACH ROW, function public.f())`.
    pub fn describe(&self) -> String {
        format!(
            "trigger `{}` on {} ({}, function {}{})",
            escaped(&self.name),
            escaped(&self.relation),
            self.timing(),
            escaped(&self.function),
            match self.enabled.as_str() {
                "D" => ", disabled",
                "R" => ", replica only",
                _ => "",
            }
        )
    }
}

/// The enforcing trigger of `approvals install --enforce` (README,
/// "Two-person break-glass") exactly as the tool creates it: its name, a
/// deferred constraint trigger AFTER INSERT FOR EACH ROW, calling
/// `pushleft_approvals.enforce_plan()`, PL/pgSQL whose body is `source`
/// (the one the tool installs) to the byte. Only reads: vouched for.
pub fn enforcing_trigger(trigger: &Trigger, source: &str) -> bool {
    trigger.name == "pushleft_approvals_enforce"
        && trigger.constraint
        && trigger.row_level()
        && !trigger.before()
        && !trigger.instead()
        && trigger.on(Operation::Insert)
        && !trigger.on(Operation::Update)
        && !trigger.on(Operation::Delete)
        && trigger.function == "pushleft_approvals.enforce_plan()"
        && !trigger.builtin
        && trigger.language == "plpgsql"
        && !source.is_empty()
        && trigger.source == source
}

/// Whether a trigger function really refuses: PL/pgSQL whose first
/// statement is a RAISE of an error (EXCEPTION, the default level, an
/// SQLSTATE or a condition), with no EXCEPTION handler anywhere that could
/// catch it. `Err` says why not.
pub fn refuses(language: &str, source: &str) -> Result<(), String> {
    if language != "plpgsql" {
        return Err(format!(
            "it is written in {language}, not PL/pgSQL, so the tool cannot see that it refuses"
        ));
    }
    let code = without_comments(source).to_lowercase();
    let words: Vec<&str> = code.split_whitespace().collect();
    let text = words.join(" ");
    if text.contains("exception when") {
        return Err("it has an EXCEPTION handler, which could catch its own refusal".to_string());
    }
    let mut rest = words.iter().copied();
    let (Some("begin"), Some(raise), Some(level)) = (rest.next(), rest.next(), rest.next()) else {
        return Err("its first statement is not RAISE EXCEPTION".to_string());
    };
    let level = level.trim_end_matches(';');
    let raises =
        raise == "raise" && !matches!(level, "debug" | "log" | "info" | "notice" | "warning" | "");
    if raises {
        Ok(())
    } else {
        Err("its first statement is not RAISE EXCEPTION".to_string())
    }
}

/// PL/pgSQL source without `--` and `/* */` comments (string literals are
/// kept: only the start of the body matters, and a comment marker inside
/// one only makes the check stricter).
fn without_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('-', Some('-')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                out.push('\n');
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether `trigger` is made to protect its table against `operation`:
/// BEFORE it, with a function that refuses (enabled or not).
fn made_to_protect(trigger: &Trigger, operation: Operation) -> Result<(), String> {
    if !trigger.on(operation) {
        return Err(format!("it does not fire on {}", operation.as_str()));
    }
    if !trigger.before() {
        return Err(format!(
            "it fires {}, not BEFORE {}",
            trigger.timing(),
            operation.as_str()
        ));
    }
    refuses(&trigger.language, &trigger.source).map_err(|why| {
        format!(
            "its function {} does not refuse: {why}",
            escaped(&trigger.function)
        )
    })
}

/// Whether `trigger` protects its table against `operation`: BEFORE it,
/// refusing, and enabled in an origin session. `Err` says what is wrong.
pub fn protects(trigger: &Trigger, operation: Operation) -> Result<(), String> {
    if !trigger.on(operation) || !trigger.before() {
        return made_to_protect(trigger, operation);
    }
    match trigger.enabled.as_str() {
        "O" | "A" => {}
        "D" => return Err("it is disabled".to_string()),
        "R" => {
            return Err(
                "it fires only when session_replication_role = replica, never in a normal session"
                    .to_string(),
            );
        }
        other => return Err(format!("its enabled state is `{}`", escaped(other))),
    }
    made_to_protect(trigger, operation)
}

/// Trigger names a team vouches for (`PUSHLEFT_ALLOWED_TRIGGERS`): each
/// `name` (on either table) or `table.name` (on that table, or a
/// partition of it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowedTriggers(Vec<(Option<String>, String)>);

impl AllowedTriggers {
    /// From the comma-separated list; blanks are ignored.
    pub fn parse(entries: &[String]) -> AllowedTriggers {
        AllowedTriggers(
            entries
                .iter()
                .flat_map(|e| e.split(','))
                .map(str::trim)
                .filter(|e| !e.is_empty())
                .map(|e| match e.split_once('.') {
                    Some((table, name)) => (Some(table.to_string()), name.to_string()),
                    None => (None, e.to_string()),
                })
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the function `schema.name` is listed, as `name` or as
    /// `schema.name` (code in defaults, constraints and indexes).
    pub fn allows_function(&self, schema: &str, name: &str) -> bool {
        self.0
            .iter()
            .any(|(s, n)| n == name && s.as_deref().is_none_or(|s| s == schema))
    }

    /// Whether `name` on `relation` (of the tree of `table`) is listed.
    pub fn allows(&self, table: &str, relation: &str, name: &str) -> bool {
        self.0
            .iter()
            .any(|(t, n)| n == name && t.as_deref().is_none_or(|t| t == table || t == relation))
    }
}

/// A rewrite rule on a relation of a table's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub relation: String,
    pub name: String,
}

/// What the triggers and rules of one written table (its whole tree) come
/// to: those vouched for only because a team listed them, and those
/// nobody vouches for, each in words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vouching {
    pub allowed: Vec<String>,
    pub unvouched: Vec<String>,
}

/// Sorts the triggers and rules of `table` (fail-safely writes it) into
/// vouched-for and not. `reference`: the reference schema's own triggers
/// on it, by name, with the operation each must refuse.
pub fn vouch(
    table: &str,
    reference: &[(&str, Operation)],
    allowed: &AllowedTriggers,
    triggers: &[Trigger],
    rules: &[Rule],
) -> Vouching {
    let mut out = Vouching::default();
    for trigger in triggers {
        if trigger.internal && trigger.builtin {
            continue;
        }
        // The reference schema's own, as made there: whether it is enabled
        // is the protecting-trigger check's business (a disabled trigger
        // runs no code).
        let own = reference
            .iter()
            .any(|(name, op)| *name == trigger.name && made_to_protect(trigger, *op).is_ok());
        if own {
            continue;
        }
        if allowed.allows(table, &trigger.relation, &trigger.name) {
            out.allowed.push(trigger.describe());
        } else {
            out.unvouched.push(trigger.describe());
        }
    }
    for rule in rules {
        let words = format!(
            "rule `{}` on {}",
            escaped(&rule.name),
            escaped(&rule.relation)
        );
        if allowed.allows(table, &rule.relation, &rule.name) {
            out.allowed.push(words);
        } else {
            out.unvouched.push(words);
        }
    }
    out
}

#[cfg(test)]
mod tests;
