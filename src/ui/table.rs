//! Tables that fit the screen. Plain aligned text (two spaces between
//! columns, no borders, no markdown), the same on a terminal and in a pipe,
//! so a table pasted into a ticket reads as it did on the screen.
//!
//! Our step decides the layout, comfy-table ([`super::layout`]) lays it
//! out, pads and aligns. Fitting never wraps a cell: columns marked
//! `Whole` (ids, times, states, numbers, commands) are never cut; when the
//! table is too wide, the low-value columns go first (each has a drop
//! rank: higher goes earlier; `-o wide` keeps them all), then `Shrink`
//! columns (free text: errors, payloads) are cut with `…`; if it still does
//! not fit, each row becomes a block of `column  value` lines. Every cell
//! goes through the sanitizer.

pub use super::layout::Cell;
use super::layout::{GAP, Layout};
use super::output::{Output, Paint};
use super::text::{width_of, wrapped};

/// How a column may give way when the screen is narrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Never cut (ids, times, states, numbers, commands).
    Whole,
    /// May be cut with `…` (free text).
    Shrink,
}

#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub header: &'static str,
    pub fit: Fit,
    /// 0: always shown; otherwise dropped when the screen is too narrow,
    /// the highest rank first.
    pub drop: u8,
}

/// A column that is always shown and never cut.
pub fn col(header: &'static str) -> Column {
    Column {
        header,
        fit: Fit::Whole,
        drop: 0,
    }
}

impl Column {
    /// Free text that may be cut.
    pub fn shrink(self) -> Column {
        Column {
            fit: Fit::Shrink,
            ..self
        }
    }

    /// Left out on a narrow screen (higher ranks first).
    pub fn drop(self, rank: u8) -> Column {
        Column { drop: rank, ..self }
    }
}

/// A shrinkable column keeps at least this many columns of its text.
const MIN_SHRUNK: usize = 12;
/// Free text is cut to this before a column is dropped for it.
const COMFORT: usize = 24;

pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Box<[Cell]>>,
}

impl Table {
    pub fn new(columns: &[Column]) -> Table {
        Table {
            columns: columns.to_vec(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<Cell>) {
        debug_assert_eq!(cells.len(), self.columns.len());
        self.rows.push(cells.into_boxed_slice());
    }

    /// The table's first `max` rows as a table of their own, and how many
    /// rows that leaves out (`None` when none would be).
    pub fn first_rows(&self, max: usize) -> Option<(Table, usize)> {
        let hidden = self.rows.len().checked_sub(max).filter(|&n| n > 0)?;
        Some((
            Table {
                columns: self.columns.clone(),
                rows: self.rows[..max].to_vec(),
            },
            hidden,
        ))
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn natural_widths(&self, headers: bool) -> Vec<usize> {
        (0..self.columns.len())
            .map(|i| {
                let header = if headers {
                    width_of(self.columns[i].header)
                } else {
                    0
                };
                self.rows
                    .iter()
                    .map(|r| width_of(&r[i].text))
                    .fold(header, usize::max)
                    .max(1)
            })
            .collect()
    }

    /// Which columns to show and how wide, or `None` when even the
    /// narrowest table is wider than `width`.
    fn fit(&self, width: usize, headers: bool) -> Option<Layout> {
        let mut widths = self.natural_widths(headers);
        let mut shown: Vec<usize> = (0..self.columns.len()).collect();
        let total = |shown: &[usize], widths: &[usize]| {
            shown.iter().map(|&i| widths[i]).sum::<usize>() + GAP * shown.len().saturating_sub(1)
        };
        // Free text cut to a comfortable width, before any column goes.
        let comfortable: Vec<usize> = widths
            .iter()
            .zip(&self.columns)
            .map(|(&w, c)| match c.fit {
                Fit::Shrink => w.min(COMFORT),
                Fit::Whole => w,
            })
            .collect();
        while total(&shown, &comfortable) > width {
            let victim = shown
                .iter()
                .enumerate()
                .filter(|(_, i)| self.columns[**i].drop > 0)
                .max_by_key(|(pos, i)| (self.columns[**i].drop, *pos))
                .map(|(pos, _)| pos);
            match victim {
                Some(pos) => {
                    shown.remove(pos);
                }
                None => break,
            }
        }
        for &i in shown.iter().rev() {
            let excess = total(&shown, &widths).saturating_sub(width);
            if excess == 0 {
                break;
            }
            if self.columns[i].fit == Fit::Shrink {
                let floor = widths[i].min(MIN_SHRUNK.max(width_of(self.columns[i].header)));
                widths[i] = widths[i].saturating_sub(excess).max(floor);
            }
        }
        (total(&shown, &widths) <= width).then_some(Layout { shown, widths })
    }

    /// The table as text for `out` (no trailing newline).
    pub fn render(&self, out: &Output) -> String {
        let layout = if out.wide {
            Some(Layout {
                shown: (0..self.columns.len()).collect(),
                widths: self.natural_widths(out.headers),
            })
        } else {
            self.fit(out.width, out.headers)
        };
        let Some(layout) = layout else {
            return self.records(out);
        };
        // One string, line by line: a fleet of 50,000 nodes is not held a
        // second time as a list of lines (nor whole as comfy-table's cells).
        let mut text = String::new();
        let mut push = |line: &str| {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line);
        };
        let header = out.headers.then(|| self.header_cells());
        layout.lines(out, header.as_deref(), &self.rows, &mut push);
        let hidden: Vec<&str> = (0..self.columns.len())
            .filter(|i| !layout.shown.contains(i))
            .map(|i| self.columns[i].header)
            .collect();
        if !hidden.is_empty() && !self.rows.is_empty() {
            let note = format!(
                "(not shown on this width: {}; -o wide shows every column)",
                hidden.join(", ")
            );
            push(&out.paint(&wrapped(&note, out.width, "", " "), Paint::Dim));
        }
        text
    }

    /// The header line's cells: the column names, dim.
    fn header_cells(&self) -> Vec<Cell> {
        self.columns
            .iter()
            .map(|c| Cell::new(c.header).paint_if(true, Paint::Dim))
            .collect()
    }

    /// Too narrow for columns: each row as a block of `column  value`.
    fn records(&self, out: &Output) -> String {
        let label = self
            .columns
            .iter()
            .map(|c| width_of(c.header))
            .max()
            .unwrap_or(0);
        let room = out.width.saturating_sub(label + GAP).max(MIN_SHRUNK);
        let mut blocks = Vec::new();
        for row in &self.rows {
            let mut block = Vec::new();
            for (column, cell) in self.columns.iter().zip(row) {
                let text = match column.fit {
                    Fit::Shrink => console::truncate_str(&cell.text, room, "…").into_owned(),
                    Fit::Whole => cell.text.to_string(),
                };
                let value = match cell.paint {
                    Some(p) => out.paint(&text, p),
                    None => text,
                };
                let header = format!("{:label$}", column.header);
                block.push(format!("{}  {value}", out.paint(&header, Paint::Dim)));
            }
            blocks.push(block.join("\n"));
        }
        blocks.join("\n\n")
    }
}

#[cfg(test)]
mod tests {
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
}
