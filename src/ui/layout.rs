//! comfy-table's part of a table: it lays out what the fit step (in
//! `table`) decided — the chosen columns, each exactly the width
//! chosen, the cells already cut — padded and aligned, with no borders
//! and [`GAP`] blanks between columns. Colour is ours, put around each
//! cell's text after comfy-table has padded it, so comfy-table measures
//! the plain text (both measure with unicode-width, as [`width_of`] does).

use std::borrow::Cow;
use std::fmt::Display;

use comfy_table::presets::NOTHING;
use comfy_table::{ColumnConstraint, Row, Width};

use super::output::{Output, Paint};
use super::sanitize::visible;
use super::text::{cut_at_word, width_of};

/// Gap between columns: comfy-table's right padding of each column (the
/// last column's is trimmed with the other trailing blanks).
pub const GAP: usize = 2;
/// Rows laid out by comfy-table at a time. Every column's width is decided
/// before, so the chunks line up, and a fleet of 50,000 nodes is never
/// held a second time as comfy-table's cells and lines.
const CHUNK: usize = 128;

/// One cell: sanitized text and how to paint it.
#[derive(Debug, Clone)]
pub struct Cell {
    // Boxed: a table can hold hundreds of thousands of cells.
    pub(super) text: Box<str>,
    pub(super) paint: Option<Paint>,
}

impl Cell {
    pub fn new(text: impl Display) -> Cell {
        Cell {
            text: visible(&text.to_string()).into(),
            paint: None,
        }
    }

    /// Painted with `paint` when `when` holds (and colour is on).
    pub fn paint_if(mut self, when: bool, paint: Paint) -> Cell {
        if when {
            self.paint = Some(paint);
        }
        self
    }
}

/// What the fit step decided: the columns shown (in order) and the width
/// of each column.
pub struct Layout {
    pub shown: Vec<usize>,
    pub widths: Vec<usize>,
}

impl Layout {
    /// The lines of `header` and `rows` laid out by comfy-table, a chunk
    /// of rows at a time, each line painted and handed to `push`.
    pub fn lines(
        &self,
        out: &Output,
        mut header: Option<&[Cell]>,
        rows: &[Box<[Cell]>],
        push: &mut impl FnMut(&str),
    ) {
        let mut rest = rows;
        while header.is_some() || !rest.is_empty() {
            let (chunk, later) = rest.split_at(rest.len().min(CHUNK));
            rest = later;
            let head = header.take();
            let laid_out = self.comfy(head, chunk);
            let cells = head.into_iter().chain(chunk.iter().map(|r| &r[..]));
            // One line a row: every cell fits its column (and a row is
            // capped at one line should a measure ever disagree).
            for (line, cells) in laid_out.lines().zip(cells) {
                push(&self.painted(out, cells, &line));
            }
        }
    }

    /// The cell of column `i` cut to its column's width (only a `Shrink`
    /// column is ever narrower than its text).
    fn cut<'a>(&self, i: usize, cell: &'a Cell) -> Cow<'a, str> {
        cut_at_word(&cell.text, self.widths[i])
    }

    /// comfy-table's row: the shown cells cut, the hidden ones left empty
    /// (comfy-table skips them), at most one line high.
    fn row(&self, cells: &[Cell]) -> Row {
        let mut row = Row::from(cells.iter().enumerate().map(|(i, cell)| {
            let text = if self.shown.contains(&i) {
                self.cut(i, cell).into_owned()
            } else {
                String::new()
            };
            comfy_table::Cell::new_owned(text)
        }));
        row.max_height(1);
        row
    }

    /// comfy-table set up as decided: no borders, `GAP` blanks of padding
    /// after each column, the dropped columns hidden and every other one
    /// exactly its width, so nothing is wrapped (its own arrangement,
    /// which wraps, stays off).
    fn comfy(&self, header: Option<&[Cell]>, rows: &[Box<[Cell]>]) -> comfy_table::Table {
        let mut table = comfy_table::Table::new();
        table.load_style(NOTHING).set_truncation_indicator("…");
        if let Some(cells) = header {
            table.set_header(self.row(cells));
        }
        for cells in rows {
            table.add_row(self.row(cells));
        }
        let gap = u16::try_from(GAP).unwrap_or(u16::MAX);
        for (i, column) in table.column_iter_mut().enumerate() {
            column.set_padding((0, gap));
            column.set_constraint(if self.shown.contains(&i) {
                // An absolute width counts the padding too.
                let width = u16::try_from(self.widths[i] + GAP).unwrap_or(u16::MAX);
                ColumnConstraint::Absolute(Width::Fixed(width))
            } else {
                ColumnConstraint::Hidden
            });
        }
        table
    }

    /// comfy-table's `line` of `cells` with each cell's text painted where
    /// comfy-table put it (left-aligned in its column, then blanks), and
    /// the blanks after the last column trimmed. A line not laid out that
    /// way is shown as comfy-table made it, unpainted.
    fn painted<'a>(&self, out: &Output, cells: &[Cell], line: &'a str) -> Cow<'a, str> {
        let unpainted = Cow::Borrowed(line.trim_end());
        if !out.color || cells.iter().all(|c| c.paint.is_none()) {
            return unpainted;
        }
        let mut text = String::with_capacity(line.len());
        let mut rest = line;
        for (n, &i) in self.shown.iter().enumerate() {
            let cut = self.cut(i, &cells[i]);
            let Some(after) = rest.strip_prefix(&*cut) else {
                return unpainted;
            };
            match cells[i].paint {
                Some(p) => text.push_str(&out.paint(&cut, p)),
                None => text.push_str(&cut),
            }
            if n + 1 == self.shown.len() {
                break;
            }
            let pad = self.widths[i].saturating_sub(width_of(&cut)) + GAP;
            let Some((blanks, next)) = after
                .split_at_checked(pad)
                .filter(|(blanks, _)| blanks.bytes().all(|b| b == b' '))
            else {
                return unpainted;
            };
            text.push_str(blanks);
            rest = next;
        }
        text.truncate(text.trim_end().len());
        Cow::Owned(text)
    }
}
