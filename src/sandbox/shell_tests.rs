use super::{MARK, interactive};

#[test]
fn bash_reads_the_operators_bashrc_then_marks_the_prompt() {
    let shell = interactive("/bin/bash").expect("a bash");
    assert_eq!(shell.args[0], "--rcfile");
    let rc = std::fs::read_to_string(&shell.args[1]).expect("the rcfile");
    let source = rc.find(". ~/.bashrc").expect("sources ~/.bashrc");
    let prompt = rc.find("PS1=").expect("sets PS1");
    assert!(source < prompt, "{rc}");
    assert!(rc.contains(MARK), "{rc}");
}

#[test]
fn zsh_fish_and_any_other_shell_are_marked_too() {
    let zsh = interactive("/usr/bin/zsh").expect("a zsh");
    let dir = zsh
        .env
        .iter()
        .find(|(name, _)| name == "ZDOTDIR")
        .map(|(_, dir)| dir.clone())
        .expect("ZDOTDIR");
    let rc = std::fs::read_to_string(std::path::Path::new(&dir).join(".zshrc")).expect("a .zshrc");
    assert!(rc.contains(&format!("PROMPT=\"{MARK} ")), "{rc}");
    let fish = interactive("fish").expect("a fish");
    assert_eq!(fish.args[0], "--init-command");
    assert!(fish.args[1].contains(MARK), "{:?}", fish.args);
    let sh = interactive("/bin/sh").expect("a sh");
    assert!(sh.args.is_empty());
    assert!(sh.env.contains(&("PS1".into(), format!("{MARK} $ "))));
}
