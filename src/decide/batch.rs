//! Batch break-glass, the pure parts: which deployments a batch names (one
//! id per line, or the JSON of `stuck -o json`), and how the outcomes of a
//! batch add up to one exit code.

use crate::exit;
pub use crate::model::batch::BatchResult;

/// The ids a batch file names, in order, each once. `#` starts a comment;
/// blank lines are skipped; the first word of a line is the id (so a
/// pasted `id  # why` works). `stuck -o json` gives its stuck deployments.
pub fn ids_in(text: &str) -> anyhow::Result<Vec<String>> {
    let mut ids: Vec<String> = Vec::new();
    if text.trim_start().starts_with('{') {
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|err| {
            exit::usage(format!(
                "the batch looks like JSON but is not ({err}); give one id per line or the output of `stuck -o json`"
            ))
        })?;
        if let Some(outcomes) = doc["outcomes"].as_array() {
            return Ok(written_by_batch(outcomes));
        }
        let rows = doc["deployments_stuck"].as_array().ok_or_else(|| {
            exit::usage(
                "the JSON has no deployments_stuck list: give the output of `stuck -o json` \
                 (or, for wait, of `fail-safely --from … -o json`)",
            )
        })?;
        for row in rows {
            let id = row["deployment_id"]
                .as_str()
                .ok_or_else(|| exit::usage("a deployments_stuck row has no deployment_id"))?;
            push_once(&mut ids, id);
        }
        return Ok(ids);
    }
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(id) = line.split_whitespace().next() {
            push_once(&mut ids, id);
        }
    }
    Ok(ids)
}

/// The deployments a `fail-safely --from -o json` report says were applied
/// or replayed: what `wait --from` follows after a batch.
fn written_by_batch(outcomes: &[serde_json::Value]) -> Vec<String> {
    let mut ids = Vec::new();
    for item in outcomes {
        let written = matches!(item["result"].as_str(), Some("applied" | "replayed"));
        if let (true, Some(id)) = (written, item["outcome"]["deployment_id"].as_str()) {
            push_once(&mut ids, id);
        }
    }
    ids
}

fn push_once(ids: &mut Vec<String>, id: &str) {
    if !ids.iter().any(|seen| seen == id) {
        ids.push(id.to_string());
    }
}

/// The batch's exit code: the most serious among its deployments' (the
/// merge is the exit-code contract's, `exit::merge`).
pub use crate::exit::merge as batch_code;

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
