use super::*;

#[test]
fn every_command_has_its_formats() {
    for (command, formats) in COMMANDS {
        assert!(formats.contains(&OutputFormat::Json), "{command}");
    }
    assert_eq!(
        COMMANDS
            .iter()
            .filter(|(_, f)| f.contains(&OutputFormat::Markdown))
            .map(|(c, _)| *c)
            .collect::<Vec<_>>(),
        [
            "diagnose",
            "stuck",
            "fail-safely",
            "history",
            "fleet list",
            "wait"
        ]
    );
}
