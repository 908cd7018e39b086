use comfy_table::presets::NOTHING;

use super::*;

fn out(width: usize) -> Output {
    Output {
        width,
        ..Output::plain()
    }
}

fn sample() -> Table {
    let mut t = Table::new(&[
        col("id"),
        col("org").drop(2),
        col("when").drop(1),
        col("error").shrink(),
    ]);
    t.row(vec![
        Cell::new("d0000003-0000-4000-8000-000000000003"),
        Cell::new("c0000002"),
        Cell::new("3h ago · 2026-11-29 17:44Z"),
        Cell::new("agent on edge-07 stopped answering \u{1b}[2J"),
    ]);
    t
}

#[test]
fn low_value_columns_go_first_then_free_text_is_cut() {
    let text = sample().render(&out(92));
    assert!(text.lines().all(|l| width_of(l) <= 92), "{text}");
    let header = text.lines().next().unwrap_or_default();
    assert!(
        !header.contains("org"),
        "the highest drop rank goes first: {text}"
    );
    assert!(
        header.contains("when"),
        "the next one stays while it fits: {text}"
    );
    assert!(text.contains("3h ago · 2026-11-29 17:44Z"), "{text}");
    assert!(
        text.contains("d0000003-0000-4000-8000-000000000003"),
        "{text}"
    );
    assert!(text.contains("(not shown on this width: org;"), "{text}");
    let narrow = sample().render(&out(60));
    assert!(narrow.lines().all(|l| width_of(l) <= 60), "{narrow}");
    assert!(narrow.contains('…'), "free text is cut: {narrow}");
    assert!(narrow.contains("d0000003-0000-4000-8000-000000000003"));
    assert!(!narrow.contains('\u{1b}'), "cells are sanitized: {narrow}");
}

#[test]
fn too_narrow_for_columns_becomes_blocks_and_wide_keeps_everything() {
    let blocks = sample().render(&out(40));
    assert!(
        blocks.contains("id     d0000003-0000-4000-8000-000000000003"),
        "{blocks}"
    );
    let wide = sample().render(&Output {
        wide: true,
        ..out(40)
    });
    assert!(
        wide.contains("c0000002") && wide.contains("stopped answering"),
        "{wide}"
    );
    let bare = sample().render(&Output {
        headers: false,
        ..out(200)
    });
    assert!(bare.starts_with("d0000003"), "{bare}");
}

/// Where `text` starts in `line`, in columns of the screen.
fn column_at(line: &str, text: &str) -> Option<usize> {
    line.find(text).map(|at| width_of(&line[..at]))
}

#[test]
fn comfy_table_lays_it_out() {
    // comfy-table's own rendering of the same cells, the same borderless
    // preset and padding: the same bytes.
    let table = sample();
    let mut comfy = comfy_table::Table::new();
    comfy
        .load_style(NOTHING)
        .set_header(["id", "org", "when", "error"]);
    comfy.add_row(table.rows[0].iter().map(|c| c.text.to_string()));
    for column in comfy.column_iter_mut() {
        column.set_padding((0, 2));
    }
    assert_eq!(table.render(&out(200)), comfy.trim_fmt());
}

#[test]
fn no_value_is_ever_wrapped_and_wide_characters_line_up() {
    let next = "pushleft-controller diagnose d0000003-0000-4000-8000-000000000003";
    let mut t = Table::new(&[col("node"), col("next").drop(1), col("error").shrink()]);
    let error = "節点が応答しません: agent stopped answering a while ago";
    t.row(vec![Cell::new("東京"), Cell::new(next), Cell::new(error)]);
    t.row(vec![Cell::new("edge-07"), Cell::new(next), Cell::new("ok")]);
    for width in [60, 100, 200] {
        let text = t.render(&out(width));
        let lines: Vec<&str> = text.lines().collect();
        let dropped = !lines[0].contains("next");
        assert_eq!(
            lines.len(),
            3 + usize::from(dropped),
            "a row a line: {text}"
        );
        assert!(lines.iter().all(|l| width_of(l) <= width), "{text}");
        assert!(lines[1].starts_with("東京     ") && lines[2].starts_with("edge-07  "));
        assert_eq!(lines[1].contains('…'), width < 200, "{text}");
        let at = |line, text| column_at(line, text).unwrap_or(usize::MAX);
        if !dropped {
            assert!(at(lines[1], next) == 9 && at(lines[2], next) == 9, "{text}");
        }
        let column = at(lines[0], "error");
        assert!(at(lines[1], "節点") == column && at(lines[2], "ok") == column);
    }
}

#[test]
fn colour_goes_around_the_text_after_comfy_table_pads() {
    let mut t = Table::new(&[col("node"), col("status")]);
    t.row(vec![
        Cell::new("edge-07"),
        Cell::new("offline").paint_if(true, Paint::Bad),
    ]);
    let o = Output {
        color: true,
        ..out(80)
    };
    let dim = |s: &str| o.paint(s, Paint::Dim);
    let want = format!(
        "{}     {}\nedge-07  {}",
        dim("node"),
        dim("status"),
        o.paint("offline", Paint::Bad)
    );
    assert_eq!(t.render(&o), want);
}

#[test]
fn in_a_block_a_long_value_wraps_at_blanks_and_a_command_is_continued() {
    let mut t = Table::new(&[col("id"), col("when"), col("try").command()]);
    t.row(vec![
        Cell::new("d0000006"),
        Cell::new("3h ago · 2026-11-29 17:44Z"),
        Cell::new("pushleft-controller fail-safely d0000006 --reason \"INC-1 test\" --dry-run"),
    ]);
    let blocks = t.render(&out(40));
    assert!(blocks.lines().all(|l| width_of(l) <= 40), "{blocks}");
    assert!(
        blocks.contains("try   pushleft-controller fail-safely \\\n"),
        "{blocks}"
    );
    assert!(
        blocks.contains("        d0000006 --reason \"INC-1 test\" \\\n"),
        "{blocks}"
    );
    assert!(blocks.ends_with("        --dry-run"), "{blocks}");
}
