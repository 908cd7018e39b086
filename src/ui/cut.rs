//! Where a value was read cut (pushleft-controller-diagnose(1), HUGE TEXT): one line under the
//! section that shows it, on the screen and in a ticket, naming the value
//! and its whole length, and how to get the whole of it.

use crate::model::cut::{cut_note, grouped};
use crate::model::history::History;
use crate::model::{Job, short_id};

/// One value read cut: what it is (`job b0000002`) and its whole length
/// in bytes.
pub struct Cut {
    pub what: String,
    pub length: Option<i64>,
}

/// The line that says a section's values were cut, or none: the value
/// and its length when one was, how many and the longest when several
/// were (a section of 10,000 cut values takes one line, not 10,000).
pub fn line(cuts: &[Cut]) -> Option<String> {
    match cuts {
        [] => None,
        [one] => Some(format!("({} {})", one.what, cut_note(one.length))),
        many => {
            let longest = many.iter().filter_map(|c| c.length).max().unwrap_or(0);
            Some(format!(
                "({} values cut, the longest {} bytes in all; diagnose --full-text shows them)",
                grouped(many.len() as i64),
                grouped(longest)
            ))
        }
    }
}

/// The jobs whose last error was read cut, each named by its short id.
pub fn last_error_cuts(jobs: &[Job]) -> Vec<Cut> {
    jobs.iter()
        .filter(|j| j.last_error_cut)
        .map(|j| Cut {
            what: format!("job {}", short_id(j.id)),
            length: j.last_error_length,
        })
        .collect()
}

/// The reasons of `history` that were read cut, each named by its
/// deployment and event (`d0000003 #10`: the reason is the one value
/// `history` reads cut).
pub fn reason_cuts(history: &History) -> Vec<Cut> {
    history
        .actions
        .iter()
        .filter(|a| a.reason_cut)
        .map(|a| Cut {
            what: format!("{} #{}", short_id(a.deployment_id), a.sequence),
            length: a.reason_length,
        })
        .collect()
}

#[cfg(test)]
#[path = "cut_tests.rs"]
mod tests;
