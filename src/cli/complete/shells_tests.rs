use clap::Arg;
use clap_complete::engine::ArgValueCandidates;

use super::*;

/// A command whose `--node` offers hostile names with hostile
/// descriptions.
fn command() -> Command {
    let hostile = || {
        ["n;touch x", "n\nsplit", "n\u{1b}[2J", "n-plain"]
            .into_iter()
            .map(|v| CompletionCandidate::new(v).help(Some("pool\u{202e}x\u{1b}[2J".into())))
            .collect()
    };
    Command::new("pushleft-controller").arg(
        Arg::new("node")
            .long("node")
            .add(ArgValueCandidates::new(hostile)),
    )
}

fn answer(shell: &dyn EnvCompleter) -> String {
    let args = ["pushleft-controller", "--node", "n"]
        .map(OsString::from)
        .to_vec();
    let mut buf = Vec::new();
    shell
        .write_complete(&mut command(), args, None, &mut buf)
        .unwrap();
    String::from_utf8(buf).unwrap()
}

#[test]
fn fish_gets_no_control_character_in_a_value_or_a_description() {
    let answer = answer(&Fish);
    let values: Vec<&str> = answer
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(values, ["n;touch x", "n-plain"], "{answer:?}");
    assert!(
        !answer.contains('\u{1b}') && !answer.contains('\u{202e}'),
        "{answer:?}"
    );
    assert!(
        answer.lines().all(|l| l.ends_with(r"pool\u{202e}x")),
        "{answer:?}"
    );
}

#[test]
fn powershell_gets_only_names_that_need_no_quoting() {
    let answer = answer(&Powershell);
    let values: Vec<&str> = answer
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(values, ["n-plain"], "{answer:?}");
    assert!(!answer.contains('\u{1b}'), "{answer:?}");
}

#[test]
fn every_generated_shell_is_answered_by_our_adapters() {
    for name in ["bash", "zsh", "fish", "powershell", "elvish"] {
        assert!(SHELLS.completer(name).is_some(), "{name}");
    }
}
