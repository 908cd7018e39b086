use super::*;

#[test]
fn the_quoter_makes_one_word_of_anything() {
    assert_eq!(shell_quote("edge-07"), "edge-07");
    assert_eq!(
        shell_quote("d0000001-0000-4000-8000-000000000001"),
        "d0000001-0000-4000-8000-000000000001"
    );
    assert_eq!(shell_quote("a=b,c:d/e@f%g+h.i_j"), "a=b,c:d/e@f%g+h.i_j");
    assert_eq!(shell_quote(""), "''");
    assert_eq!(shell_quote("edge 07"), "'edge 07'");
    assert_eq!(shell_quote("it's"), r"'it'\''s'");
    assert_eq!(shell_quote("\"x\""), "'\"x\"'");
    assert_eq!(shell_quote("$HOME `id` $(id)"), "'$HOME `id` $(id)'");
    assert_eq!(shell_quote("a\nb"), "'a\nb'");
    assert_eq!(shell_quote("a;rm -rf /"), "'a;rm -rf /'");
    assert_eq!(shell_quote("*?[~!#&|<>"), "'*?[~!#&|<>'");
    assert_eq!(shell_quote("nœud-é"), "'nœud-é'");
    assert_eq!(shell_quote("''"), r"''\'''\'''");
}

#[test]
fn a_next_command_renders_as_the_tool_prints_it() {
    let id = "d0000001-0000-4000-8000-000000000001";
    assert_eq!(
        NextCommand::fail_safely(id).to_string(),
        format!("pushleft-controller fail-safely {id} --reason \"<ticket and reason>\"")
    );
    assert_eq!(
        NextCommand::wait(id).to_string(),
        format!("pushleft-controller wait {id}")
    );
    assert_eq!(
        NextCommand::new(Subcommand::Wait)
            .placeholder("deployment")
            .to_string(),
        "pushleft-controller wait <deployment>"
    );
    assert_eq!(
        NextCommand::new(Subcommand::FleetList).to_string(),
        "pushleft-controller fleet list"
    );
    assert_eq!(
        NextCommand::new(Subcommand::Stuck)
            .option("--node", "edge 07; reboot")
            .to_string(),
        "pushleft-controller stuck --node 'edge 07; reboot'"
    );
    assert_eq!(
        NextCommand::new(Subcommand::FailSafely)
            .arg(id)
            .option("--reason", "INC-1 it's $5")
            .arg("--yes")
            .to_string(),
        format!("pushleft-controller fail-safely {id} --reason 'INC-1 it'\\''s $5' --yes")
    );
}

#[test]
fn json_carries_the_same_text() {
    let command = NextCommand::diagnose("d0000001");
    assert_eq!(
        serde_json::to_value(&command).ok(),
        Some(serde_json::Value::from(
            "pushleft-controller diagnose d0000001"
        ))
    );
}
