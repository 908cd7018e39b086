//! The error document's body (README, "Output and exit codes"): the exit
//! code, its kind, what failed and what to do next.

use serde::Serialize;

use crate::exit::ErrorKind;

#[derive(Debug, Serialize)]
pub struct ErrorBody {
    pub exit_code: i32,
    pub kind: ErrorKind,
    /// What failed, in words (the error and its causes).
    pub message: String,
    /// What to do next, when there is something to do.
    pub next: Option<String>,
}
