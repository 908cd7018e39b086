use super::*;

#[test]
fn the_prompt_is_one_short_line_whatever_the_question() {
    let question =
        "Stuck. Type the deployment's short id (d0000003) to apply, anything else to abort";
    for width in [60, 80, 120] {
        let lines = prompt_lines(question, width);
        let last = lines
            .last()
            .map(|l| crate::ui::text::width_of(l))
            .unwrap_or(0);
        assert!(last + 2 + ANSWER < width, "{width}: {lines:#?}");
        assert!(
            lines.iter().all(|l| crate::ui::text::width_of(l) < width),
            "{width}: {lines:#?}"
        );
        assert!(lines.join(" ").contains("(d0000003)"), "{lines:#?}");
    }
    assert_eq!(
        prompt_lines("Type 41 to apply", 80),
        vec!["Type 41 to apply"]
    );
}
