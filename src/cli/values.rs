//! The values of `--output` and `--color` as clap parses, shows and
//! completes them: the types are the screen's (`ui`), which knows nothing
//! of the command line; their words and help are the command line's.

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::ui::{ColorChoice, OutputFormat};

impl ValueEnum for OutputFormat {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            OutputFormat::Table,
            OutputFormat::Wide,
            OutputFormat::Json,
            OutputFormat::Markdown,
            OutputFormat::Openmetrics,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            OutputFormat::Table => PossibleValue::new("table")
                .help("Tables and sentences for a human, fitted to the screen's width"),
            OutputFormat::Wide => {
                PossibleValue::new("wide").help("Tables with every column, however wide")
            }
            OutputFormat::Json => {
                PossibleValue::new("json").help("One JSON document on stdout, for scripts")
            }
            OutputFormat::Markdown => PossibleValue::new("markdown").help(
                "A compact report to paste into a ticket (diagnose, stuck, fail-safely, history)",
            ),
            OutputFormat::Openmetrics => PossibleValue::new("openmetrics")
                .help("The OpenMetrics text format, for monitoring (`stuck` only)"),
        })
    }
}

impl ValueEnum for ColorChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &[ColorChoice::Auto, ColorChoice::Always, ColorChoice::Never]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            ColorChoice::Auto => {
                PossibleValue::new("auto").help("On a terminal, unless NO_COLOR is set")
            }
            ColorChoice::Always => PossibleValue::new("always"),
            ColorChoice::Never => PossibleValue::new("never"),
        })
    }
}

#[cfg(test)]
#[path = "values_tests.rs"]
mod tests;
