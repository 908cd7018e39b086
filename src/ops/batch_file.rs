//! The list of deployments a batch names (`fail-safely --from`, `wait
//! --from`): a file, or `-` for stdin.

use std::io::Read;
use std::path::Path;

use anyhow::{Context as _, Result};

use crate::decide::batch::ids_in;
use crate::exit;

/// The ids `from` names, in order, each once (`decide::batch::ids_in`); a
/// file that cannot be read is bad input (exit 2).
pub fn ids(from: &Path) -> Result<Vec<String>> {
    ids_in(&read(from)?)
}

/// The text of `from`; a file that cannot be read is bad input (exit 2).
fn read(from: &Path) -> Result<String> {
    let mut text = String::new();
    if from == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading the batch from stdin")?;
    } else {
        text = std::fs::read_to_string(from).map_err(|err| {
            exit::usage(format!("cannot read the batch {}: {err}", from.display()))
        })?;
    }
    Ok(text)
}
