use std::collections::BTreeSet;
use std::path::Path;

use super::*;

fn sql_files(dir: &Path, root: &Path, out: &mut BTreeSet<String>) {
    let entries = std::fs::read_dir(dir).expect("reading sql/");
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sql_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "sql") {
            let relative = path.strip_prefix(root).expect("under sql/");
            out.insert(relative.to_string_lossy().into_owned());
        }
    }
}

#[test]
fn the_registry_is_exactly_the_sql_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql");
    let mut on_disk = BTreeSet::new();
    sql_files(&root, &root, &mut on_disk);
    let mut registered: BTreeSet<String> = ALL.iter().map(|s| s.path.to_string()).collect();
    assert_eq!(registered.len(), ALL.len(), "a file is registered twice");
    registered.extend(NOT_RUN.iter().map(|(path, _)| path.to_string()));
    assert_eq!(on_disk, registered, "sql/ and db::sql::ALL disagree");
}

#[test]
fn parameters_match_the_placeholders() {
    for statement in ALL {
        let highest = (1..=20)
            .rev()
            .find(|n| statement.text.contains(&format!("${n}")))
            .unwrap_or(0);
        let expected = if statement.kind == Kind::Script {
            0
        } else {
            highest
        };
        assert_eq!(
            statement.params.len(),
            expected,
            "{}: {} params declared, ${} used",
            statement.path,
            statement.params.len(),
            highest
        );
    }
}

/// The whole-file scripts: plain SQL that `psql -f` loads into the
/// schema its search path names (the reference schema must stay
/// loadable that way), never run by a command against a live database.
const LOADED_INTO_THE_SEARCH_PATH: &[&str] = &[
    "schema.sql",
    "control_plane.sql",
    "bench/generate.sql",
    "sandbox/create_database.sql",
    "sandbox/scenarios.sql",
    "sandbox/big_incident.sql",
    "sandbox/simulation_session.sql",
];

/// The text of a statement without comments and string literals.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_string {
                if c == '\'' {
                    in_string = false;
                }
                continue;
            }
            match c {
                '\'' => in_string = true,
                '-' if chars.peek() == Some(&'-') => break,
                c => code.push(c),
            }
        }
        code.push('\n');
    }
    code
}

/// Tokens: identifiers and keywords (with `:"schema".` kept in front of
/// the name it qualifies), and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut rest = code;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if let Some(after) = rest.strip_prefix(SCHEMA_PLACEHOLDER) {
            let after = after.strip_prefix('.').unwrap_or(after);
            let len = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            tokens.push(format!("{SCHEMA_PLACEHOLDER}.{}", &after[..len]));
            rest = &after[len..];
        } else if c.is_alphanumeric() || c == '_' {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(rest.len());
            tokens.push(rest[..len].to_string());
            rest = &rest[len..];
        } else {
            tokens.push(c.to_string());
            rest = &rest[c.len_utf8()..];
        }
    }
    tokens
}

/// Every relation a statement reads or writes that is not qualified
/// with the schema placeholder (catalogs, CTEs, subqueries and
/// function calls are fine).
fn unqualified(text: &str) -> Vec<String> {
    let tokens = tokens(&code_of(text));
    let upper: Vec<String> = tokens.iter().map(|t| t.to_ascii_uppercase()).collect();
    // Names a WITH clause defines: `WITH [RECURSIVE] a AS [[NOT] MATERIALIZED] (`,
    // `, b AS (`.
    let ctes: Vec<&str> = (1..tokens.len())
        .filter(|&i| {
            upper[i] == "AS"
                && (tokens.get(i + 1).is_some_and(|t| t == "(")
                    || upper.get(i + 1).is_some_and(|t| t == "MATERIALIZED")
                    || upper.get(i + 1).is_some_and(|t| t == "NOT"))
        })
        .filter(|&i| {
            i >= 2
                && (upper[i - 2] == "WITH" || upper[i - 2] == "RECURSIVE" || tokens[i - 2] == ",")
        })
        .map(|i| tokens[i - 1].as_str())
        .collect();
    let mut found = Vec::new();
    for (i, keyword) in upper.iter().enumerate() {
        if !matches!(
            keyword.as_str(),
            "FROM" | "JOIN" | "UPDATE" | "INTO" | "TABLE"
        ) {
            continue;
        }
        if keyword == "UPDATE" && i > 0 && matches!(upper[i - 1].as_str(), "FOR" | "NO" | "KEY") {
            continue;
        }
        let mut j = i + 1;
        while upper.get(j).is_some_and(|t| t == "LATERAL" || t == "ONLY") {
            j += 1;
        }
        let Some(target) = tokens.get(j) else {
            continue;
        };
        let call = tokens.get(j + 1).is_some_and(|t| t == "(");
        // The sandbox's own schemas (its scenarios, its control plane).
        // And the tool's own schema of plans (sql/approvals/).
        let sandbox = matches!(
            target.as_str(),
            "sandbox" | "control_plane" | "pushleft_approvals"
        ) && tokens.get(j + 1).is_some_and(|t| t == ".");
        let fine = target.starts_with(SCHEMA_PLACEHOLDER)
            || sandbox
            || target == "("
            || target.starts_with("pg_")
            || call
            || ctes.contains(&target.as_str())
            // `extract(epoch FROM …)`, `IS DISTINCT FROM …`.
            || (keyword == "FROM"
                && i > 0
                && matches!(upper[i - 1].as_str(), "EPOCH" | "DISTINCT"));
        if !fine {
            found.push(target.clone());
        }
    }
    // The tables of the reference schema, wherever they are named.
    for table in crate::db::schema_check::tables() {
        for (i, token) in tokens.iter().enumerate() {
            let qualified = i > 0 && tokens[i - 1] == ".";
            if token == table && !qualified {
                found.push(table.to_string());
            }
        }
    }
    found
}

#[test]
fn every_statement_names_its_tables_with_the_schema() {
    for statement in ALL {
        if LOADED_INTO_THE_SEARCH_PATH.contains(&statement.path) {
            assert!(
                !statement.text.contains(SCHEMA_PLACEHOLDER),
                "{}: a whole-file script must stay plain SQL",
                statement.path
            );
            continue;
        }
        // The tool's own schema (its DDL's `IF NOT EXISTS`, `INTO rule`,
        // `FROM PUBLIC`, `DO UPDATE SET` read as table names here): every
        // object is named pushleft_approvals.*; no control-plane table may
        // be named without the schema.
        let found = if statement.path.starts_with("approvals/") {
            let mut found = unqualified(statement.text);
            found.retain(|t| crate::db::schema_check::tables().any(|table| table == t));
            found
        } else {
            unqualified(statement.text)
        };
        assert!(
            found.is_empty(),
            "sql/{} names {found:?} without :\"schema\".",
            statement.path
        );
    }
}

// (Lower case: tests/it/layers.rs takes upper-case SQL in a Rust string
// for a statement written outside sql/.)
#[test]
fn the_qualification_check_bites() {
    assert_eq!(unqualified("select id from jobs where x"), ["jobs", "jobs"]);
    assert_eq!(
        unqualified("update deployments set status = 'jobs'"),
        ["deployments", "deployments"]
    );
    assert!(
        unqualified(
            "with t as (select 1) select a from :\"schema\".jobs j join t on true \
             join lateral (select 1) x on true, pg_class c, unnest($1) u \
             where extract(epoch from now()) > 0 -- from jobs\nfor update"
        )
        .is_empty()
    );
    assert_eq!(
        unqualified("insert into public.deployment_events select 1"),
        ["public"]
    );
}

#[test]
fn one_statement_reads_render_the_settings_fragment() {
    let public = Schema::public();
    let mut including = 0;
    for statement in ALL {
        let rendered = statement.sql(&public);
        assert!(
            !rendered.contains(READ_SETTINGS_PLACEHOLDER),
            "sql/{} keeps {READ_SETTINGS_PLACEHOLDER}",
            statement.path
        );
        if statement.text.contains(READ_SETTINGS_PLACEHOLDER) {
            including += 1;
            let fragment = session::READ_SETTINGS
                .code()
                .replace(SCHEMA_LITERAL_PLACEHOLDER, &public.literal());
            assert!(
                rendered.contains(&fragment)
                    && !rendered.contains(SCHEMA_LITERAL_PLACEHOLDER)
                    && !rendered.contains("A fragment of a select list"),
                "sql/{}: {rendered}",
                statement.path
            );
        }
    }
    assert_eq!(including, 4, "diagnose, stuck (both), fleet list");
}

#[test]
fn statements_render_for_a_schema() {
    let ops = Schema::parse("Ops \"x\"").unwrap();
    assert_eq!(ops.quoted(), "\"Ops \"\"x\"\"\"");
    assert_eq!(Schema::parse("o'x").unwrap().literal(), "'o''x'");
    let rendered = diagnose::SNAPSHOT.sql(&ops);
    assert!(
        rendered.contains("FROM \"Ops \"\"x\"\"\".jobs"),
        "{rendered}"
    );
    assert!(!rendered.contains(SCHEMA_PLACEHOLDER));
    assert!(
        diagnose::SNAPSHOT
            .sql(&Schema::public())
            .contains("\"public\".jobs")
    );
    for bad in [
        "",
        "pg_catalog",
        "information_schema",
        "a\u{1b}b",
        &"x".repeat(64),
    ] {
        assert!(Schema::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn reads_render_the_text_cut() {
    let mut cutting = 0;
    for statement in ALL {
        let rendered = statement.sql(&Schema::public());
        assert!(
            !rendered.contains(TEXT_CUT_PLACEHOLDER),
            "sql/{} keeps {TEXT_CUT_PLACEHOLDER}",
            statement.path
        );
        if statement.text.contains(TEXT_CUT_PLACEHOLDER) {
            cutting += 1;
            let left = format!(", {})", crate::model::cut::TEXT_CUT_CHARS);
            assert!(rendered.contains(&left), "sql/{}", statement.path);
        }
    }
    assert!(cutting >= 3, "diagnose (snapshot, events), history");
}
