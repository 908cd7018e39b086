//! The documented JSON output of each command: the JSON OUTPUT section of
//! its man page, kept as plain roff in `man/src/json/` so that it reads and
//! diffs like the page it becomes (and so that the integration test
//! `json_docs` can compare the keys it lists with the keys the command
//! really prints).

/// The commands whose `--output json` document is documented, as
/// (man page name, roff of its JSON OUTPUT section). One list, so the
/// generator and the test that checks the keys cannot disagree on which
/// pages have a section.
pub const SECTIONS: &[(&str, &str)] = &[
    (
        "pushleft-controller-doctor",
        include_str!("../../man/src/json/doctor.roff"),
    ),
    (
        "pushleft-controller-diagnose",
        include_str!("../../man/src/json/diagnose.roff"),
    ),
    (
        "pushleft-controller-fail-safely",
        include_str!("../../man/src/json/fail-safely.roff"),
    ),
    (
        "pushleft-controller-fleet-list",
        include_str!("../../man/src/json/fleet-list.roff"),
    ),
    (
        "pushleft-controller-stuck",
        include_str!("../../man/src/json/stuck.roff"),
    ),
    (
        "pushleft-controller-history",
        include_str!("../../man/src/json/history.roff"),
    ),
    (
        "pushleft-controller-wait",
        include_str!("../../man/src/json/wait.roff"),
    ),
];

/// roff of the JSON OUTPUT section (its `.SH` line included) of a man
/// page, if the page has one.
pub fn for_page(page: &str) -> Option<&'static str> {
    SECTIONS
        .iter()
        .find(|(name, _)| *name == page)
        .map(|(_, roff)| *roff)
}
