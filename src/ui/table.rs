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
use super::text::{command_lines, cut_at_word, width_of, wrapped};

/// How a column may give way when the screen is narrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Never cut (ids, times, states, numbers).
    Whole,
    /// May be cut with `…` (free text).
    Shrink,
    /// A command to copy: never cut; where a row becomes a block and the
    /// command is wider than its room, continued between its arguments
    /// (`text::command_lines`).
    Command,
}

#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub header: &'static str,
    pub fit: Fit,
    /// 0: always shown; otherwise dropped when the screen is too narrow,
    /// the highest rank first.
    pub drop: u8,
    /// A `Shrink` column keeps at least this many columns of its text
    /// (`MIN_SHRUNK` unless set with [`Column::floor`]).
    pub floor: usize,
    /// Among `Shrink` columns, a higher rank is cut first (down to its
    /// floor) before a lower one is cut at all ([`Column::yields`]).
    pub yields: u8,
}

/// A column that is always shown and never cut.
pub fn col(header: &'static str) -> Column {
    Column {
        header,
        fit: Fit::Whole,
        drop: 0,
        floor: MIN_SHRUNK,
        yields: 0,
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

    /// A command to copy.
    pub fn command(self) -> Column {
        Column {
            fit: Fit::Command,
            ..self
        }
    }

    /// Free text cut to no fewer than `floor` columns (history's approval
    /// keeps `SELF-APPROVED` whole, its operator gives way to it).
    pub fn floor(self, floor: usize) -> Column {
        Column { floor, ..self }
    }

    /// Cut before the free text of a lower rank (history's operator
    /// before its reason).
    pub fn yields(self, yields: u8) -> Column {
        Column { yields, ..self }
    }

    /// Left out on a narrow screen (higher ranks first).
    pub fn drop(self, rank: u8) -> Column {
        Column { drop: rank, ..self }
    }
}

/// A shrinkable column keeps at least this many columns of its text.
const MIN_SHRUNK: usize = 12;
/// Tables longer than this shrink a column by its room, not by its cuts
/// (measuring every cut of every row at each step would be slow).
const SNAP_ROWS: usize = 5_000;
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
                Fit::Whole | Fit::Command => w,
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
        self.shrink(&shown, &mut widths, width, headers);
        (total(&shown, &widths) <= width).then_some(Layout { shown, widths })
    }

    /// The width of column `i` when its cells are cut at words to at most
    /// `room` (`text::cut_at_word`): a cut ends at a word, so the column
    /// is as wide as its widest cut, not as the room. A very long table is
    /// measured by `room` alone (its rows are not cut twice over).
    fn cut_width(&self, i: usize, room: usize, headers: bool) -> usize {
        if self.rows.len() > SNAP_ROWS {
            return room;
        }
        let header = if headers {
            width_of(self.columns[i].header)
        } else {
            0
        };
        self.rows
            .iter()
            .map(|r| width_of(&cut_at_word(&r[i].text, room)))
            .fold(header, usize::max)
            .max(1)
    }

    /// Free text gives way until the shown columns fit `width`: the
    /// highest [`Column::yields`] first, then the widest, a word at a time, so that two of them (history's operator
    /// and reason) share the room; then what a cut at a word left over
    /// goes back, the rightmost column first (the reason, the error).
    fn shrink(&self, shown: &[usize], widths: &mut [usize], width: usize, headers: bool) {
        let total = |widths: &[usize]| {
            shown.iter().map(|&i| widths[i]).sum::<usize>() + GAP * shown.len().saturating_sub(1)
        };
        let natural = widths.to_vec();
        let floors: Vec<usize> = (0..widths.len())
            .map(|i| {
                let column = &self.columns[i];
                widths[i].min(column.floor.max(width_of(column.header)))
            })
            .collect();
        let shrinkable = |i: usize| self.columns[i].fit == Fit::Shrink;
        // No column is wider than the screen: start a long text there, so
        // the word-at-a-time steps below are a screen's width at most, not
        // a 4096-character value's (each step measures every cell).
        for &i in shown.iter().filter(|&&i| shrinkable(i)) {
            if widths[i] > width && total(widths) > width {
                widths[i] = self.cut_width(i, width, headers).clamp(floors[i], width);
            }
        }
        while total(widths) > width {
            let widest = shown
                .iter()
                .copied()
                .filter(|&i| shrinkable(i) && widths[i] > floors[i])
                .max_by_key(|&i| (self.columns[i].yields, widths[i], i));
            let Some(i) = widest else { break };
            widths[i] = self
                .cut_width(i, widths[i] - 1, headers)
                .clamp(floors[i], widths[i] - 1);
        }
        for &i in shown.iter().rev().filter(|&&i| shrinkable(i)) {
            let slack = width.saturating_sub(total(widths));
            if slack > 0 && widths[i] < natural[i] {
                let room = (widths[i] + slack).min(natural[i]);
                widths[i] = self.cut_width(i, room, headers).max(widths[i]);
            }
        }
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
                let header = format!("{:label$}", column.header);
                let mut first = Some(out.paint(&header, Paint::Dim));
                for text in record_lines(column.fit, &cell.text, room) {
                    let value = match cell.paint {
                        Some(p) => out.paint(&text, p),
                        None => text,
                    };
                    let lead = first.take().unwrap_or_else(|| " ".repeat(label));
                    block.push(format!("{lead}  {value}"));
                }
            }
            blocks.push(block.join("\n"));
        }
        blocks.join("\n\n")
    }
}

/// A value of a record in lines of `room` columns: free text cut, a
/// command continued between its arguments, anything else wrapped at its
/// blanks (never inside a word: an id, a time).
fn record_lines(fit: Fit, text: &str, room: usize) -> Vec<String> {
    match fit {
        Fit::Shrink => vec![cut_at_word(text, room).into_owned()],
        Fit::Command => command_lines(text, room),
        Fit::Whole => {
            let mut lines: Vec<String> = Vec::new();
            for word in text.split(' ') {
                match lines.last_mut() {
                    Some(line) if width_of(line) + 1 + width_of(word) <= room => {
                        line.push(' ');
                        line.push_str(word);
                    }
                    _ => lines.push(word.to_string()),
                }
            }
            lines
        }
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
